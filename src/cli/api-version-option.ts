import { PUBLISHED_VERSIONS, publishedVersion, type ApiVersion } from '../schema/versions.js';
import { UsageError } from './args.js';

/** A version option's value (`v2.0`, or `2.0` as client libraries write it), one the real service published. */
export function apiVersionOption(flag: string, text: string): ApiVersion {
  const version = publishedVersion(text.startsWith('v') ? text : `v${text}`);
  if (version === undefined) {
    const first = PUBLISHED_VERSIONS[0].name;
    const last = PUBLISHED_VERSIONS[PUBLISHED_VERSIONS.length - 1]!.name;
    throw new UsageError(`${flag} must be a published Graph API version (${first} … ${last}), not "${text.slice(0, 20)}"`);
  }
  return version;
}
