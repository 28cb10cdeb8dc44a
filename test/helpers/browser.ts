import assert from 'node:assert/strict';

/** One answer as a browser sees it: redirects are not followed, so a test can look at each hop. */
export interface Page {
  url: string;
  status: number;
  headers: Headers;
  html: string;
  /** The Location of a redirect. */
  location?: string;
}

/**
 * The little of a browser the sign-in dialog needs: a cookie jar, forms that post their hidden
 * fields and ticked boxes to the page's own URL (the forms have no action), and an Origin.
 */
export class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly origin: string) {}

  async open(url: string): Promise<Page> {
    return this.request(url, { method: 'GET' });
  }

  /**
   * Submits the page's only form. `fields` fill text inputs and override checkboxes (an array
   * of the values to tick for a name); `button` is the pressed submit button's name and value.
   */
  async submit(page: Page, fields: Record<string, string | string[]> = {}, button?: [string, string]): Promise<Page> {
    const form = formOf(page.html);
    const body = new URLSearchParams();
    for (const input of form.inputs) {
      if (input.disabled || input.name === undefined) continue;
      const override = fields[input.name];
      if (input.type === 'checkbox') {
        const ticked = Array.isArray(override) ? override.includes(input.value ?? 'on') : input.checked;
        if (ticked) body.append(input.name, input.value ?? 'on');
      } else if (override === undefined) {
        body.append(input.name, input.value ?? '');
      }
    }
    for (const [name, value] of Object.entries(fields)) {
      if (!Array.isArray(value)) body.set(name, value);
    }
    if (button) body.append(button[0], button[1]);
    return this.request(page.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: body.toString() });
  }

  /** Forgets the cookies, as another browser (or a page on another site) would not have them. */
  clearCookies(): void {
    this.cookies.clear();
  }

  private async request(url: string, init: RequestInit): Promise<Page> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    if (init.method === 'POST') headers.set('origin', this.origin);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair!.split('=');
      this.cookies.set(name!.trim(), value ?? '');
    }
    return {
      url,
      status: response.status,
      headers: response.headers,
      html: await response.text(),
      location: response.headers.get('location') ?? undefined,
    };
  }
}

interface Input {
  name?: string;
  type?: string;
  value?: string;
  checked: boolean;
  disabled: boolean;
}

function formOf(html: string): { inputs: Input[] } {
  const forms = [...html.matchAll(/<form\b[^>]*>([\s\S]*?)<\/form>/g)];
  assert.equal(forms.length, 1, `the page has one form: ${html}`);
  const inputs = [...forms[0]![1]!.matchAll(/<input\b([^>]*)>/g)].map(([, attributes]) => {
    const attribute = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(attributes!)?.[1];
    return {
      name: attribute('name'),
      type: attribute('type'),
      value: attribute('value')?.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))),
      checked: /\bchecked\b/.test(attributes!),
      disabled: /\bdisabled\b/.test(attributes!),
    };
  });
  return { inputs };
}

export interface DialogRun {
  clientId: string;
  redirectUri: string;
  scope?: string;
  state?: string;
  responseType?: 'code' | 'token';
  email: string;
  password: string;
  /** The permissions to leave ticked (default: all of them). */
  tick?: string[];
  decision?: 'allow' | 'deny';
  /** Path of the dialog (default `/v2.4/dialog/oauth`). */
  path?: string;
}

/** Goes through the dialog like a person: open it, sign in, answer the consent page. Returns the redirect. */
export async function runDialog(baseUrl: string, run: DialogRun): Promise<{ location: URL; pages: Page[] }> {
  const browser = new Browser(baseUrl);
  const query = new URLSearchParams({ client_id: run.clientId, redirect_uri: run.redirectUri });
  if (run.scope !== undefined) query.set('scope', run.scope);
  if (run.state !== undefined) query.set('state', run.state);
  if (run.responseType !== undefined) query.set('response_type', run.responseType);
  const signIn = await browser.open(`${baseUrl}${run.path ?? '/v2.4/dialog/oauth'}?${query}`);
  assert.equal(signIn.status, 200, signIn.html);
  const consent = await browser.submit(signIn, { email: run.email, password: run.password });
  assert.equal(consent.status, 200, consent.html);
  assert.match(consent.html, /name="decision" value="allow"/, 'signed in, the consent page shows');
  const fields: Record<string, string[]> = run.tick === undefined ? {} : { scope: run.tick };
  const done = await browser.submit(consent, fields, ['decision', run.decision ?? 'allow']);
  assert.equal(done.status, 302, done.html);
  return { location: new URL(done.location!), pages: [signIn, consent, done] };
}
