import { createHmac, timingSafeEqual } from 'node:crypto';
import { GraphError } from '../errors.js';
import type { AppRecord } from '../store/auth-store.js';

/** `appsecret_proof`: lowercase hex HMAC-SHA256 of the access token, keyed by the app secret. */
export function appSecretProof(appSecret: string, accessToken: string): string {
  return createHmac('sha256', appSecret).update(accessToken).digest('hex');
}

/**
 * A proof that is present must be right, whatever the app's setting; a missing one is refused
 * only when the app requires proofs. A leaked token alone is then useless against such an app.
 */
export function checkAppSecretProof(app: AppRecord, accessToken: string, proof: string | undefined): void {
  if (proof === undefined || proof === '') {
    if (app.requireProof) {
      throw new GraphError(100, 'API calls from the server require an appsecret_proof argument', { type: 'GraphMethodException' });
    }
    return;
  }
  const expected = Buffer.from(appSecretProof(app.secret, accessToken));
  const given = Buffer.from(proof.toLowerCase());
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new GraphError(100, 'Invalid appsecret_proof provided in the API argument', { type: 'GraphMethodException' });
  }
}
