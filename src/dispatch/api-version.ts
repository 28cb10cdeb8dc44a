import { GraphError } from '../errors.js';
import { publishedVersion, type ApiVersion } from '../schema/versions.js';
import type { AppRecord } from '../store/auth-store.js';

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

/**
 * The version one Graph request is answered in, settled once per request: the path's as soon as
 * the path is read, else, once the token is known, its app's default, else the server's.
 */
export class AnsweringVersion {
  current: ApiVersion;
  private fromPath: ApiVersion | undefined;

  constructor(private readonly serverDefault: ApiVersion) {
    this.current = serverDefault;
  }

  /** Reads the path's version prefix; one never published is refused as pathVersion says. */
  readPath(versionText: string | undefined, components: readonly string[]): void {
    this.fromPath = pathVersion(versionText, components);
    this.current = this.fromPath ?? this.serverDefault;
  }

  /** Settles the version for a request made with a token of this app. */
  settle(app: AppRecord): ApiVersion {
    this.current = answeringVersion(this.fromPath, app, this.serverDefault);
    return this.current;
  }
}
