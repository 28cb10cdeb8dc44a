/**
 * The dialog's redirect target. It takes the answer from the address (token in the fragment,
 * errors in the query), wipes it from the address bar and the history, and hands it to the
 * Explorer: by message to the window that opened the popup, or through this tab's storage.
 */
import { MESSAGE_KIND, RESULT_KEY } from './sign-in.js';
import { writeStored } from './storage.js';

const params: Record<string, string> = {};
for (const source of [location.search.slice(1), location.hash.slice(1)]) {
  for (const [name, value] of new URLSearchParams(source)) params[name] = value;
}
history.replaceState(null, '', location.pathname);

const opener = window.opener as Window | null;
if (opener && !opener.closed) {
  opener.postMessage({ kind: MESSAGE_KIND, params }, location.origin);
  window.close();
} else {
  writeStored(sessionStorage, RESULT_KEY, params);
  location.replace('/explorer');
}
