/**
 * `params` as the query string of a link Loom writes, byte for byte what URLSearchParams writes,
 * without making one per link: most values (a token, a cursor, a limit) need no escaping, and a
 * level's pages each write their links.
 */
export function formEncoded(params: Record<string, string>): string {
  let query = '';
  for (const name in params) query += `${query === '' ? '' : '&'}${formComponent(name)}=${formComponent(params[name]!)}`;
  return query;
}

/** Characters the form encoding writes as they are. */
const UNESCAPED = /^[A-Za-z0-9*._-]*$/;

function formComponent(text: string): string {
  if (UNESCAPED.test(text)) return text;
  // encodeURIComponent leaves these five as they are, and writes a space as %20, where the form encoding does not.
  return encodeURIComponent(wellFormed(text)).replace(/[!'()~]|%20/g, (c) => (c === '%20' ? '+' : `%${c.charCodeAt(0).toString(16).toUpperCase()}`));
}

/** Lone surrogates made U+FFFD, as URLSearchParams does (String.prototype.toWellFormed, which Node has and TypeScript's ES2022 library does not name). */
function wellFormed(text: string): string {
  return (text as string & { toWellFormed(): string }).toWellFormed();
}
