import type { StoredObject } from '../store/store.js';
import type { ReadContext } from './context.js';

type Audience = 'everyone' | 'friends' | 'owner';

function audienceOf(context: ReadContext, object: StoredObject): Audience {
  const type = context.schema.type(object.type);
  if (!type || type.visibility === 'public') return 'everyone';
  const privacy = object.data.privacy as { value?: string } | undefined;
  switch (privacy?.value) {
    case 'EVERYONE':
      return 'everyone';
    case 'SELF':
      return 'owner';
    default:
      return 'friends';
  }
}

/**
 * The objects the viewer may see, in the order given: public ones, their own, and friends-only
 * ones of their friends. Friendship is checked for the whole batch in one store call.
 */
export async function visibleObjects(context: ReadContext, objects: readonly StoredObject[]): Promise<StoredObject[]> {
  const viewerId = context.viewer.userId;
  const needsFriendship = new Set<number>();
  const audiences = objects.map((object) => {
    const audience = audienceOf(context, object);
    if (audience === 'friends' && viewerId !== null && object.owner !== null && object.owner !== viewerId) {
      needsFriendship.add(object.owner);
    }
    return audience;
  });
  const friendships =
    viewerId === null || needsFriendship.size === 0
      ? new Set<string>()
      : await context.store.getExisting('friends', [...needsFriendship].map((owner) => [viewerId, owner] as const));
  return objects.filter((object, index) => {
    const audience = audiences[index];
    if (audience === 'everyone') return true;
    if (viewerId === null || object.owner === null) return false;
    if (object.owner === viewerId) return true;
    return audience === 'friends' && friendships.has(`${viewerId}:${object.owner}`);
  });
}
