/** Graph times are ISO 8601 in UTC with a numeric offset and no milliseconds: 2015-07-09T14:03:11+0000. */
export function graphTime(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().slice(0, 19) + '+0000';
}
