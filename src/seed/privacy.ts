/** Who may see a post or photo, and the `privacy` object the Graph API shows for it. */
export type Audience = 'EVERYONE' | 'ALL_FRIENDS' | 'SELF';

const DESCRIPTIONS: Record<Audience, string> = {
  EVERYONE: 'Public',
  ALL_FRIENDS: 'Your friends',
  SELF: 'Only me',
};

export function privacyOf(audience: Audience): { value: Audience; description: string } {
  return { value: audience, description: DESCRIPTIONS[audience] };
}
