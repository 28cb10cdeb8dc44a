import type { FastifyReply } from 'fastify';
import { GraphError } from '../errors.js';
import { publishedVersion, type ApiVersion } from '../schema/versions.js';
import type { AppRecord } from '../store/store.js';

/**
 * The version a path names (`/v2.3/me` → v2.3), or undefined for an unversioned path. A version the
 * real service never published is not a version to it but a path it does not know: it answers
 * "Unknown path components" naming the rest of the path, and so does Loom.
 */
export function pathVersion(versionText: string | undefined, components: readonly string[]): ApiVersion | undefined {
  if (versionText === undefined) return undefined;
  const version = publishedVersion(versionText);
  if (version === undefined) throw GraphError.unknownPath(`/${components.join('/')}`);
  return version;
}

/** The version that answers: the path's, else the token's app's default, else the server's. */
export function answeringVersion(fromPath: ApiVersion | undefined, app: AppRecord | undefined, serverDefault: ApiVersion): ApiVersion {
  return fromPath ?? (app?.apiVersion ? publishedVersion(app.apiVersion) : undefined) ?? serverDefault;
}

/** Names the version that answered, as the real service does on every answer. */
export function announceVersion(reply: FastifyReply, version: ApiVersion): void {
  reply.header('facebook-api-version', version);
}
