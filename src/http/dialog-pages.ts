/**
 * The sign-in dialog's pages: self-contained HTML and CSS (no scripts, no external assets) that
 * read well on a phone. Browser tests rely on the form field names and button labels.
 */
import type { Permissions } from '../schema/permissions.js';

const STYLE = `
:root{color-scheme:light dark;--bg:#eef1f5;--card:#fff;--text:#1c1e21;--muted:#5f6670;--accent:#2d6cdf;--line:#d8dce2;--bad:#b3261e;--badbg:#fdecea}
@media (prefers-color-scheme:dark){:root{--bg:#16181b;--card:#23262a;--text:#e6e8eb;--muted:#a7adb5;--line:#3a3f45;--bad:#f2b8b5;--badbg:#3b1f1e}}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:16px;background:var(--bg);color:var(--text);font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{width:100%;max-width:420px;background:var(--card);border-radius:14px;box-shadow:0 4px 20px rgba(0,0,0,.12);padding:24px}
.brand{margin:0 0 4px;font-size:.85rem;font-weight:700;letter-spacing:.08em;text-transform:uppercase;color:var(--accent)}
h1{margin:0 0 16px;font-size:1.3rem;line-height:1.3}
p{margin:0 0 12px}
.muted{color:var(--muted);font-size:.9rem}
.error{padding:10px 12px;border-radius:8px;background:var(--badbg);color:var(--bad)}
label.field{display:block;margin:14px 0 6px;font-size:.9rem;color:var(--muted)}
input[name=email],input[name=password]{width:100%;padding:12px;font:inherit;color:inherit;background:transparent;border:1px solid var(--line);border-radius:8px}
input:focus,button:focus{outline:2px solid var(--accent);outline-offset:2px}
button{width:100%;margin-top:18px;padding:12px;font:inherit;font-weight:600;color:#fff;background:var(--accent);border:0;border-radius:8px;cursor:pointer}
.actions{display:flex;flex-direction:row-reverse;gap:10px}
.actions button{flex:1}
button[value=deny]{color:var(--text);background:transparent;border:1px solid var(--line)}
ul{list-style:none;margin:0;padding:0;border:1px solid var(--line);border-radius:8px}
li+li{border-top:1px solid var(--line)}
li label{display:flex;align-items:center;gap:12px;padding:12px;cursor:pointer}
li input{flex:none;width:20px;height:20px;margin:0;accent-color:var(--accent)}
code{font-size:.95rem;word-break:break-all}
a.button{display:block;margin-top:12px;padding:12px;text-align:center;font-weight:600;text-decoration:none;border-radius:8px;color:#fff;background:var(--accent)}
a.button.secondary{color:var(--text);background:transparent;border:1px solid var(--line)}
a{color:var(--accent)}
.tag{margin-left:auto;font-size:.8rem;color:var(--muted)}
.what{display:block;font-size:.85rem;color:var(--muted)}
`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="brand">Loom</p>
${body}
</main>
</body>
</html>
`;
}

export function signInPage(view: { appName: string; ticket: string; email?: string; error?: string }): string {
  return page(
    `Log in to continue to ${view.appName}`,
    `<h1>Log in to continue to ${escapeHtml(view.appName)}</h1>
${view.error ? `<p class="error" role="alert">${escapeHtml(view.error)}</p>` : ''}
<form method="post">
<input type="hidden" name="ticket" value="${escapeHtml(view.ticket)}">
<label class="field" for="email">Email</label>
<input name="email" id="email" type="email" autocomplete="username" required autofocus value="${escapeHtml(view.email ?? '')}">
<label class="field" for="password">Password</label>
<input name="password" type="password" id="password" autocomplete="current-password" required>
<button type="submit">Log in</button>
</form>`,
  );
}

export function consentPage(
  permissions: Permissions,
  view: { appName: string; userName: string; scopes: readonly string[]; ticket: string; switchUrl?: string },
): string {
  const always = permissions.alwaysGranted;
  const optional = view.scopes.filter((scope) => scope !== always);
  // What granting each one means, as the schema's permissions say, read before ticking it.
  const described = (scope: string) => {
    const description = permissions.get(scope)?.description;
    return `<code>${escapeHtml(scope)}</code>${description ? `<span class="what">${escapeHtml(description)}</span>` : ''}`;
  };
  const rows = [
    `<li><label><input type="checkbox" name="scope" value="${escapeHtml(always)}" checked disabled> <span>${described(always)}</span><span class="tag">required</span></label></li>`,
    ...optional.map(
      (scope) => `<li><label><input type="checkbox" name="scope" value="${escapeHtml(scope)}" checked> <span>${described(scope)}</span></label></li>`,
    ),
  ];
  return page(
    `${view.appName} would like access`,
    `<h1>${escapeHtml(view.appName)} would like to access your information</h1>
<p class="muted">Signed in as ${escapeHtml(view.userName)}${view.switchUrl ? ` (<a href="${escapeHtml(view.switchUrl)}">not you?</a>)` : ''}. Untick anything you do not want to share.</p>
<form method="post">
<input type="hidden" name="ticket" value="${escapeHtml(view.ticket)}">
<ul>
${rows.join('\n')}
</ul>
<div class="actions">
<button name="decision" value="allow">Continue</button>
<button name="decision" value="deny">Cancel</button>
</div>
</form>`,
  );
}

export function messagePage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
}

/** After a test user's login link: who is signed in now, and where to go next. */
export function signedInPage(view: { userName: string; appName: string; explorerUrl: string; pendingDialogUrl?: string }): string {
  const pending = view.pendingDialogUrl
    ? `<a class="button" href="${escapeHtml(view.pendingDialogUrl)}">Continue signing in to the app</a>\n`
    : '';
  return page(
    `Signed in as ${view.userName}`,
    `<h1>Signed in as ${escapeHtml(view.userName)}</h1>
<p class="muted">A test user of ${escapeHtml(view.appName)}. The sign-in dialog of any app now continues as this person, without a password, until the session ends or another person signs in.</p>
${pending}<a class="button${pending ? ' secondary' : ''}" href="${escapeHtml(view.explorerUrl)}">Open the Explorer</a>`,
  );
}
