/** What a person's node computes from their stored profile. */
import type { FieldContext } from '../schema/definition.js';
import type { StoredNode } from '../schema/stored-node.js';

/** Age in whole years at `now` of someone born on a `MM/DD/YYYY` birthday; undefined without a full date. */
function ageOn(birthday: unknown, now: number): number | undefined {
  if (typeof birthday !== 'string') return undefined;
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(birthday);
  if (!match) return undefined;
  const [month, day, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const today = new Date(now * 1000);
  const thisMonth = today.getUTCMonth() + 1;
  const birthdayPassed = thisMonth > month || (thisMonth === month && today.getUTCDate() >= day);
  return today.getUTCFullYear() - year - (birthdayPassed ? 0 : 1);
}

/**
 * The service never reveals an exact age, only one of three brackets. Nobody under 13 may hold
 * an account, so a younger (or future) birthday has no bracket and the field is left out.
 */
export function ageRange(object: StoredNode, context: FieldContext): { min: number; max?: number } | undefined {
  const age = ageOn(object.data.birthday, context.now);
  if (age === undefined || age < 13) return undefined;
  if (age <= 17) return { min: 13, max: 17 };
  if (age <= 20) return { min: 18, max: 20 };
  return { min: 21 };
}

/** Profile links carry the app-scoped id, so they never reveal the person's id under another app. */
export function profileLink(object: StoredNode, context: FieldContext): string {
  return `${context.profileHost}/app_scoped_user_id/${context.userIdFor(object.id)}/`;
}

export function isVerified(object: StoredNode): boolean | undefined {
  const verified = object.data.verified;
  return typeof verified === 'boolean' ? verified : undefined;
}

/** Every name is written given name first. */
export function nameFormat(): string {
  return '{first} {last}';
}

export function tokenForBusiness(object: StoredNode, context: FieldContext): string {
  return context.tokenForBusiness(object.id);
}
