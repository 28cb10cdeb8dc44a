/**
 * The token panel: choose the app and the permissions, get a token (sign in through the dialog,
 * take a test user's, or paste one), see whose it is, what it may do and how long it lasts, copy
 * it, renew it.
 */
import { getJson, send } from './api.js';
import { byId, copyWithFeedback, h } from './dom.js';
import { formatDuration } from './durations.js';
import { API_VERSION } from './graph-call.js';
import { errorOf } from './result-panel.js';
import { signIn, takeSameTabResult, type SignInResult } from './sign-in.js';
import { isRecord, isStringList } from './guards.js';
import { readStored, writeStored } from './storage.js';
import type { TokenSession, TokenState } from './token-session.js';

interface PermissionInfo {
  name: string;
  description: string;
  fields: string[];
  edges: string[];
  writes: string[];
}

interface PermissionGroup {
  name: string;
  description: string;
  permissions: PermissionInfo[];
}

interface TestUser {
  id: string;
  appId: string;
  /** Absent for a test user who has not installed the app. */
  token?: string;
}

const SCOPES_KEY = 'loom.explorer.scopes';
const DEFAULT_SCOPES = ['public_profile', 'user_friends'];
/** Granted to every app; the dialog cannot leave it out. */
const ALWAYS_GRANTED = 'public_profile';
/** A token with more permissions than this shows them folded, so the card stays short. */
const OPEN_SCOPES_UP_TO = 6;
/** How many unlocked names a permission lists before "and N more". */
const UNLOCKS_SHOWN = 6;

export class TokenPanel {
  private readonly appSelect = byId('app-select', HTMLSelectElement);
  private readonly groups = byId('permission-groups', HTMLElement);
  private readonly permissionCount = byId('permission-count', HTMLElement);
  private readonly getButton = byId('get-token', HTMLButtonElement);
  private readonly message = byId('token-message', HTMLElement);
  private readonly card = byId('token-card', HTMLElement);
  private readonly value = byId('token-value', HTMLElement);
  private readonly user = byId('token-user', HTMLElement);
  private readonly expiry = byId('token-expiry', HTMLElement);
  private readonly scopes = byId('token-scopes', HTMLElement);
  private readonly granted = byId('token-granted', HTMLDetailsElement);
  private readonly grantedCount = byId('token-granted-count', HTMLElement);
  private readonly signInNote = byId('sign-in-note', HTMLElement);
  /** The token the card shows, to open the permission list afresh for each new token only. */
  private shown: string | undefined;
  private readonly renewButton = byId('renew-token', HTMLButtonElement);
  private readonly permissionList = byId('permissions', HTMLDetailsElement);
  /** The permissions each token of the dialog was asked for, to tell them from earlier grants. */
  private readonly asked = new Map<string, readonly string[]>();
  private chosen = new Set(readStored(localStorage, SCOPES_KEY, isStringList) ?? DEFAULT_SCOPES);

  constructor(private readonly session: TokenSession) {
    this.getButton.addEventListener('click', () => void this.signInThroughDialog());
    this.renewButton.addEventListener('click', () => void this.renew());
    byId('forget-token', HTMLButtonElement).addEventListener('click', () => this.session.replace(undefined));
    byId('copy-token', HTMLButtonElement).addEventListener('click', (event) => {
      const token = this.session.current?.token;
      if (token) void copyWithFeedback(event.currentTarget as HTMLButtonElement, token);
    });
    byId('paste-form', HTMLFormElement).addEventListener('submit', (event) => {
      event.preventDefault();
      this.usePasted();
    });
    byId('test-users-form', HTMLFormElement).addEventListener('submit', (event) => {
      event.preventDefault();
      void this.loadTestUsers();
    });
    this.wireTabs();
    session.onChange(() => this.render());
    setInterval(() => this.renderExpiry(), 1000);
  }

  async init(): Promise<void> {
    const [apps, permissions] = await Promise.all([getJson('/explorer/apps.json'), getJson('/explorer/permissions.json')]);
    this.renderApps(apps);
    this.renderPermissions(permissions);
    this.render();
    const sameTab = takeSameTabResult();
    if (sameTab instanceof Error) this.say(sameTab.message, true);
    else if (sameTab) await this.accept(sameTab);
    else if (this.session.current) await this.inspect(this.session.current.token);
  }

  /**
   * A new token without leaving the page: a test user's comes fresh from the app's list of test
   * users; anyone else signs in again, to the same app with the chosen permissions.
   */
  async renew(): Promise<void> {
    const testUser = this.session.current?.testUser;
    if (testUser) {
      const fresh = (await this.loadTestUsers())?.find((user) => user.id === testUser);
      if (fresh?.token) return this.useTestUser(fresh);
    }
    const appId = this.session.current?.appId;
    if (appId && [...this.appSelect.options].some((option) => option.value === appId)) this.appSelect.value = appId;
    await this.signInThroughDialog();
  }

  private async signInThroughDialog(): Promise<void> {
    const appId = this.appSelect.value;
    if (!appId) return this.say('There is no app to sign in to.', true);
    // Folded away, so the token card it leads to shows without scrolling.
    this.permissionList.open = false;
    this.say('Waiting for the sign-in window…');
    try {
      const asked = [...this.chosen];
      const result = await signIn(appId, asked);
      this.asked.set(result.accessToken, asked);
      await this.accept(result);
    } catch (error) {
      this.say(error instanceof Error ? error.message : String(error), true);
    }
  }

  private async accept(result: SignInResult): Promise<void> {
    const expiresAt = result.expiresIn === undefined ? undefined : result.expiresIn === 0 ? 0 : Date.now() + result.expiresIn * 1000;
    this.session.replace({ token: result.accessToken, appId: result.appId, ...(expiresAt === undefined ? {} : { expiresAt }) });
    this.say('');
    await this.inspect(result.accessToken);
  }

  private usePasted(): void {
    const input = byId('paste-token', HTMLInputElement);
    const token = input.value.trim();
    if (!token) return this.say('Paste a token first.', true);
    input.value = '';
    this.session.replace({ token });
    this.say('');
    void this.inspect(token);
  }

  /** Asks the server what the token is: its app, user, permissions and expiry (`debug_token`), and the user's name. */
  private async inspect(token: string): Promise<void> {
    const encoded = encodeURIComponent(token);
    const debug = await getJson(`/debug_token?input_token=${encoded}&access_token=${encoded}`);
    const data = isRecord(debug) && isRecord(debug.data) ? debug.data : undefined;
    const facts: Partial<TokenState> = {};
    if (data) {
      if (typeof data.app_id === 'string') facts.appId = data.app_id;
      if (isStringList(data.scopes)) facts.scopes = data.scopes;
      if (typeof data.user_id === 'string') facts.userId = data.user_id;
      if (this.session.current?.expiresAt === undefined && typeof data.expires_at === 'number') facts.expiresAt = data.expires_at * 1000;
      if (data.is_valid === false) facts.refused = 'The server says this token is not valid.';
    }
    if (!data || facts.userId !== undefined) {
      const me = await getJson(`/${API_VERSION}/me?fields=id,name&access_token=${encoded}`);
      if (isRecord(me) && typeof me.name === 'string') facts.userName = me.name;
      if (isRecord(me) && typeof me.id === 'string') facts.userId = me.id;
    }
    this.session.update(token, facts);
  }

  /** The server refused the token with this message (code 190). */
  refuse(token: string, message: string): void {
    this.session.update(token, { refused: message });
  }

  /** Lists the app's test users (with the app token typed in), each with a button to query as them. */
  private async loadTestUsers(): Promise<TestUser[] | undefined> {
    const list = byId('test-users', HTMLUListElement);
    const appToken = byId('app-token', HTMLInputElement).value.trim();
    const appId = this.appSelect.value;
    if (!appToken) {
      this.say('Enter the app token (app id|app secret) to list its test users.', true);
      return undefined;
    }
    list.replaceChildren();
    const answer = await send({ method: 'GET', url: `/${API_VERSION}/${encodeURIComponent(appId)}/accounts/test-users?access_token=${encodeURIComponent(appToken)}` });
    const listed = isRecord(answer.json) && Array.isArray(answer.json.data) ? answer.json.data.filter(isRecord) : undefined;
    if (!listed) {
      this.say(errorOf(answer.json)?.message ?? answer.networkError ?? 'The test users could not be listed.', true);
      return undefined;
    }
    this.say(listed.length === 0 ? 'This app has no test users yet.' : '');
    const users = listed.map((entry): TestUser => ({ id: String(entry.id), appId, token: typeof entry.access_token === 'string' ? entry.access_token : undefined }));
    for (const user of users) {
      const name = h('span', { class: 'test-user' }, user.id);
      const use = h('button', { type: 'button', class: 'secondary small' }, 'Use');
      use.disabled = user.token === undefined;
      use.title = user.token === undefined ? 'This test user has not installed the app, so it has no token' : 'Query as this test user';
      use.addEventListener('click', () => this.useTestUser(user));
      list.append(h('li', {}, name, use));
      // The list names nobody; each token says whose it is.
      if (user.token) void getJson(`/${API_VERSION}/me?fields=name&access_token=${encodeURIComponent(user.token)}`).then((me) => {
        if (isRecord(me) && typeof me.name === 'string') name.textContent = `${me.name} (${user.id})`;
      });
    }
    return users;
  }

  private useTestUser(user: TestUser): void {
    if (!user.token) return;
    this.session.replace({ token: user.token, appId: user.appId, testUser: user.id });
    void this.inspect(user.token);
  }

  private renderApps(body: unknown): void {
    const apps = isRecord(body) && Array.isArray(body.data) ? body.data.filter(isRecord) : [];
    this.appSelect.replaceChildren(...apps.map((app) => h('option', { value: String(app.id) }, `${String(app.name)} (${String(app.id)})`)));
    const preferred = this.session.current?.appId ?? (isRecord(body) && typeof body.default_app_id === 'string' ? body.default_app_id : undefined);
    if (preferred && apps.some((app) => String(app.id) === preferred)) this.appSelect.value = preferred;
    this.getButton.disabled = apps.length === 0;
  }

  private renderPermissions(body: unknown): void {
    const groups = (isRecord(body) && Array.isArray(body.groups) ? body.groups : []) as PermissionGroup[];
    this.chosen.add(ALWAYS_GRANTED);
    this.groups.replaceChildren(
      ...groups.map((group) =>
        h(
          'fieldset',
          { class: 'permission-group' },
          h('legend', {}, group.name),
          h('p', { class: 'group-description' }, group.description),
          ...group.permissions.map((permission) => this.permissionRow(permission)),
        ),
      ),
    );
    this.countChosen();
  }

  private permissionRow(permission: PermissionInfo): HTMLElement {
    const box = h('input', { type: 'checkbox', name: 'scope', value: permission.name });
    box.checked = this.chosen.has(permission.name);
    box.disabled = permission.name === ALWAYS_GRANTED;
    box.addEventListener('change', () => {
      if (box.checked) this.chosen.add(permission.name);
      else this.chosen.delete(permission.name);
      writeStored(localStorage, SCOPES_KEY, [...this.chosen]);
      this.countChosen();
    });
    const unlocks = describeUnlocks(permission);
    return h(
      'label',
      { class: 'permission' },
      box,
      h(
        'span',
        { class: 'permission-text' },
        h('code', { class: 'permission-name' }, permission.name),
        h('span', { class: 'permission-description' }, permission.description),
        unlocks ? h('span', { class: 'permission-unlocks' }, unlocks) : null,
      ),
    );
  }

  private countChosen(): void {
    this.permissionCount.textContent = `${this.chosen.size} chosen`;
  }

  private render(): void {
    const state = this.session.current;
    this.card.hidden = state === undefined;
    this.signInNote.hidden = state !== undefined;
    this.getButton.textContent = state ? 'Get a new token' : 'Get token';
    if (!state) return;
    this.value.textContent = state.token;
    this.user.textContent = state.userName ? `${state.userName}${state.userId ? ` (${state.userId})` : ''}` : state.userId ?? 'unknown';
    const scopes = state.scopes ?? [];
    this.scopes.replaceChildren(...scopes.map((scope) => h('span', { class: 'scope' }, scope)));
    this.granted.hidden = scopes.length === 0;
    this.grantedCount.textContent = `${scopes.length} ${scopes.length === 1 ? 'permission' : 'permissions'} granted${this.earlierGrants(state.token, scopes)}`;
    if (this.shown !== state.token || scopes.length === 0) this.granted.open = scopes.length <= OPEN_SCOPES_UP_TO;
    if (scopes.length > 0) this.shown = state.token;
    this.renderExpiry();
  }

  /** A token carries every permission the person ever granted the app, not just those asked now. */
  private earlierGrants(token: string, scopes: readonly string[]): string {
    const asked = this.asked.get(token);
    if (!asked) return '';
    const earlier = scopes.filter((scope) => !asked.includes(scope)).length;
    return earlier === 0 ? '' : ` (${scopes.length - earlier} asked now, ${earlier} granted to this app earlier)`;
  }

  private renderExpiry(): void {
    const state = this.session.current;
    if (!state) return;
    const remaining = this.session.remaining();
    const usable = this.session.isUsable();
    this.card.classList.toggle('unusable', !usable);
    this.renewButton.className = usable ? 'secondary' : 'primary';
    if (state.refused) {
      this.expiry.textContent = 'No longer valid';
      this.expiry.title = state.refused;
    } else if (remaining === undefined) {
      this.expiry.textContent = state.expiresAt === 0 ? 'Never' : 'Unknown';
      this.expiry.title = '';
    } else {
      this.expiry.textContent = remaining === 0 ? 'Expired' : `in ${formatDuration(remaining)}`;
      this.expiry.title = new Date(state.expiresAt!).toLocaleString();
    }
  }

  /**
   * The ways to get a token as WAI-ARIA tabs: the tab list is one stop for Tab (the chosen tab),
   * and the arrow keys, Home and End move among the tabs, showing each one's pane.
   */
  private wireTabs(): void {
    const tabs = ['signin', 'testusers', 'paste'].map((name) => ({ tab: byId(`tab-${name}`, HTMLButtonElement), pane: byId(`pane-${name}`, HTMLElement) }));
    const choose = (index: number) => {
      tabs.forEach(({ tab, pane }, at) => {
        tab.setAttribute('aria-selected', String(at === index));
        tab.tabIndex = at === index ? 0 : -1;
        pane.hidden = at !== index;
      });
    };
    tabs.forEach(({ tab }, index) => {
      tab.addEventListener('click', () => choose(index));
      tab.addEventListener('keydown', (event) => {
        const moves = new Map([['ArrowRight', index + 1], ['ArrowLeft', index - 1], ['Home', 0], ['End', tabs.length - 1]]);
        const target = moves.get(event.key);
        if (target === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
        event.preventDefault();
        const chosen = (target + tabs.length) % tabs.length;
        choose(chosen);
        tabs[chosen]!.tab.focus();
      });
    });
    choose(Math.max(0, tabs.findIndex(({ tab }) => tab.getAttribute('aria-selected') === 'true')));
  }

  private say(text: string, isError = false): void {
    this.message.textContent = text;
    this.message.hidden = text === '';
    this.message.classList.toggle('error', isError);
  }
}

/** "Unlocks birthday" / "Unlocks friends, feed and 3 more" / "Lets the app post to feed, likes". */
function describeUnlocks(permission: PermissionInfo): string {
  const short = (name: string) => name.replace(/^user[./]/, '').replace('/', ' ');
  const list = (names: string[]) =>
    names.length > UNLOCKS_SHOWN ? `${names.slice(0, UNLOCKS_SHOWN).map(short).join(', ')} and ${names.length - UNLOCKS_SHOWN} more` : names.map(short).join(', ');
  const reads = [...permission.fields, ...permission.edges];
  const parts = [reads.length > 0 ? `Reads ${list(reads)}` : '', permission.writes.length > 0 ? `Posts to ${list(permission.writes)}` : ''];
  return parts.filter(Boolean).join('. ');
}
