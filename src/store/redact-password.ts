/** Error messages end up in logs, so a password in the URL is not repeated there. */
export function redactPassword(location: string): string {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    // Text no URL parser accepts may still hold a password: hide all up to its last "@",
    // since a password may itself contain "@" or "/".
    return location.replace(/^([^:/?#]+:\/\/[^:@/]*:).*@/, '$1***@');
  }
  if (url.password === '') return location;
  url.password = '***';
  return url.toString();
}
