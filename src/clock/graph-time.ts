/** Times written lately; past this the oldest are forgotten first. */
const REMEMBERED_TIMES = 4096;

/**
 * The texts of times written lately: a page read again (the same 25 posts, their comments)
 * writes the same times, and a Map lookup costs a fraction of building a Date and its ISO text.
 */
const written = new Map<number, string>();

/** Graph times are ISO 8601 in UTC with a numeric offset and no milliseconds: 2015-07-09T14:03:11+0000. */
export function graphTime(unixSeconds: number): string {
  let text = written.get(unixSeconds);
  if (text === undefined) {
    text = new Date(unixSeconds * 1000).toISOString().slice(0, 19) + '+0000';
    if (written.size >= REMEMBERED_TIMES) written.delete(written.keys().next().value!);
    written.set(unixSeconds, text);
  }
  return text;
}
