import type { FastifyReply, FastifyRequest } from 'fastify';

/** The value of one cookie the browser sent, if it did. */
export function readCookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, value] = part.trim().split('=');
    if (key === name) return value;
  }
  return undefined;
}

/**
 * Adds a cookie of Loom's own pages: never readable by scripts (HttpOnly), never sent with a
 * request another site starts except a plain link (SameSite=Lax), and Secure over https.
 */
export function setCookie(request: FastifyRequest, reply: FastifyReply, name: string, value: string, maxAgeSeconds: number): void {
  const cookie = `${name}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${request.protocol === 'https' ? '; Secure' : ''}`;
  const earlier = reply.getHeader('set-cookie');
  reply.header('set-cookie', earlier === undefined ? [cookie] : [...(Array.isArray(earlier) ? earlier : [String(earlier)]), cookie]);
}
