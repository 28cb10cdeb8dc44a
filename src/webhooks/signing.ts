import { createHmac } from 'node:crypto';

/** JSON as the real service sends it: every character outside ASCII escaped as `\uXXXX`. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The signature headers of a notification body: HMACs of its exact bytes keyed by the app secret. */
export function signatureHeaders(body: string, appSecret: string): { 'x-hub-signature': string; 'x-hub-signature-256': string } {
  return {
    'x-hub-signature': `sha1=${createHmac('sha1', appSecret).update(body, 'utf8').digest('hex')}`,
    'x-hub-signature-256': `sha256=${createHmac('sha256', appSecret).update(body, 'utf8').digest('hex')}`,
  };
}
