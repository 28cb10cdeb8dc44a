import type { AccessRule, NodeTypeDef } from '../../schema/definition.js';
import type { StoredObject } from '../../store/graph-store.js';
import type { ReadContext } from '../request/context.js';
import { personOwnerOf } from '../../schema/authors.js';
import { passingRule } from './access-rules.js';
import { grantedScopesOf } from './person-grants.js';

/**
 * Who may see an object; `circle`: its owner and those its type's circle association lists from
 * the owner; `followed`: whoever may see the object it follows; `members`: those its type's
 * members association lists; `rule`: its type's declared rule decides.
 */
type Audience = 'everyone' | 'circle' | 'owner' | 'followed' | 'members' | 'rule';

/**
 * How many objects deep following may go (a reply stored before threads were, via its comment,
 * to the post); anything deeper stays hidden rather than loading without end.
 */
const MAX_FOLLOW_DEPTH = 3;

function audienceOf(type: NodeTypeDef | undefined, object: StoredObject): Audience {
  if (!type || type.visibility === 'public') return 'everyone';
  if (type.visibility === 'owner') return 'owner';
  if ('rule' in type.visibility) return 'rule';
  if ('follows' in type.visibility) return 'followed';
  if ('audience' in type.visibility) return type.visibility.audience(object);
  return type.visibility.open.includes(String(object.data[type.visibility.word])) ? 'everyone' : 'members';
}

/** The id of the object whose visibility this one follows (a comment's thread), if its type follows one. */
export function followedId(type: NodeTypeDef, object: StoredObject): number | undefined {
  if (typeof type.visibility !== 'object' || !('follows' in type.visibility)) return undefined;
  for (const key of type.visibility.follows) {
    const value = object.data[key];
    if (typeof value === 'number') return value;
  }
  return undefined;
}

/** What the lookups of visibleAt find when there is nothing to look up. */
const NOTHING_FOUND: readonly [ReadonlySet<number>, ReadonlySet<string>, ReadonlySet<number>, ReadonlySet<number>, ReadonlySet<string>] = [
  new Set(),
  new Set(),
  new Set(),
  new Set(),
  new Set(),
];

/**
 * The objects the viewer may see, in the order given: public ones, their own, those shown to
 * their owner's circle where the viewer is in it (a friend's friends-only post), and those that
 * follow an object the viewer may see. What a person who never used the viewer's app wrote is
 * hidden from it where its type says so (NodeTypeDef.nonUsers); such a person themselves is
 * seen, with their public profile only (access.ts). Circles and app use are checked for the
 * whole batch in one store call each, and the followed objects are loaded (and checked)
 * together, one store call per level of following.
 */
export async function visibleObjects(context: ReadContext, objects: readonly StoredObject[]): Promise<StoredObject[]> {
  return visibleAt(context, objects, 0);
}

async function visibleAt(context: ReadContext, objects: readonly StoredObject[], depth: number): Promise<StoredObject[]> {
  const viewerId = context.viewer.userId;
  /** Per circle association, the (viewer, owner) pairs to look up. */
  const circles = new Map<string, Array<readonly [number, number]>>();
  const needsAppUse = new Set<number>();
  const follows = new Map<number, number>();
  const ruled = new Map<NodeTypeDef, StoredObject[]>();
  /** Per members association, the (node, viewer) pairs to look up. */
  const membership = new Map<string, Array<readonly [number, number]>>();
  /** Per object, the people of whom one must use the viewer's app for it to show (its author, or those it was written to). */
  const appUsersNeeded = new Map<number, number[]>();
  const audiences = objects.map((object, index) => {
    const type = context.schema.type(object.type);
    const audience = audienceOf(type, object);
    if (audience === 'rule') {
      const group = ruled.get(type!) ?? [];
      group.push(object);
      ruled.set(type!, group);
      return audience;
    }
    if (audience === 'members' && viewerId !== null && typeof type?.visibility === 'object' && 'members' in type.visibility) {
      const assoc = type.visibility.members;
      membership.set(assoc, [...(membership.get(assoc) ?? []), [object.id, viewerId] as const]);
    }
    if (audience === 'followed') {
      const followed = followedId(type!, object);
      if (followed !== undefined) follows.set(index, followed);
    }
    if (audience === 'circle' && viewerId !== null && object.owner !== null && object.owner !== viewerId) {
      const assoc = (type!.visibility as { circle: string }).circle;
      const pairs = circles.get(assoc) ?? [];
      pairs.push([viewerId, object.owner]);
      circles.set(assoc, pairs);
    }
    const people = peopleLettingItShow(context, type, object);
    if (people !== undefined) {
      appUsersNeeded.set(index, people);
      for (const person of people) needsAppUse.add(person);
    }
    return audience;
  });
  // Most often nothing needs looking up (the viewer reading herself, public objects): no store call, no wait.
  const lookups = ruled.size + circles.size + needsAppUse.size + follows.size + membership.size;
  const [passing, inCircles, appUsers, visibleFollowed, members] = lookups === 0 ? NOTHING_FOUND : await Promise.all([
    passingRules(context, ruled, depth),
    inCirclesOf(context, circles),
    appUsersAmong(context, needsAppUse),
    visibleIds(context, [...new Set(follows.values())], depth + 1),
    membersAmong(context, membership),
  ]);
  return objects.filter((object, index) => {
    // A declared type's rule is the whole of its visibility.
    if (audiences[index] === 'rule') return passing.has(object.id);
    const people = appUsersNeeded.get(index);
    if (people !== undefined && !people.some((person) => appUsers.has(person))) return false;
    const audience = audiences[index];
    if (audience === 'everyone') return true;
    if (audience === 'followed') return follows.has(index) && visibleFollowed.has(follows.get(index)!);
    if (audience === 'members') return viewerId !== null && members.has(`${object.id}:${viewerId}`);
    if (viewerId === null || object.owner === null) return false;
    if (object.owner === viewerId) return true;
    return audience === 'circle' && inCircles.has(`${(context.schema.type(object.type)!.visibility as { circle: string }).circle}:${viewerId}:${object.owner}`);
  });
}

/**
 * The people of whom at least one must use the viewer's app for the object to show, when its
 * type hides what people who never used the app wrote: its author, and those it was written to.
 * Undefined when it shows whoever wrote it: its type has no such rule, a node writing as itself
 * (a page) or nobody wrote it, or the viewer wrote it or had it written to them.
 */
function peopleLettingItShow(context: ReadContext, type: NodeTypeDef | undefined, object: StoredObject): number[] | undefined {
  const rule = type?.nonUsers;
  if (rule === undefined || !('authored' in rule)) return undefined;
  const viewerId = context.viewer.userId;
  const author = personOwnerOf(context.schema.writePolicy, object);
  if (author === null || author === viewerId) return undefined;
  const to = rule.unlessTo === undefined ? undefined : object.data[rule.unlessTo];
  const addressed = Array.isArray(to) ? to.filter((id): id is number => typeof id === 'number') : [];
  if (viewerId !== null && addressed.includes(viewerId)) return undefined;
  return [author, ...addressed];
}

/** Which of these people use the viewer's app: they granted it the always granted permission (public_profile), which only removing the app takes back. */
async function appUsersAmong(context: ReadContext, people: ReadonlySet<number>): Promise<Set<number>> {
  if (people.size === 0) return new Set();
  const granted = await grantedScopesOf(context, people);
  return new Set([...granted].filter(([, scopes]) => scopes.has(context.schema.permissions.alwaysGranted)).map(([person]) => person));
}

/** The objects of declared types that pass their type's rule, one batch per type. */
async function passingRules(context: ReadContext, ruled: ReadonlyMap<NodeTypeDef, StoredObject[]>, depth: number): Promise<Set<number>> {
  if (ruled.size === 0) return new Set();
  const sets = await Promise.all(
    [...ruled].map(([type, group]) => passingRule(context, (type.visibility as { rule: AccessRule }).rule, group, (ids, next) => visibleIds(context, ids, next), depth)),
  );
  return new Set(sets.flatMap((set) => [...set]));
}

/** Which of these ids name objects that exist and the viewer may see. */
export async function visibleIds(context: ReadContext, ids: readonly number[], depth: number): Promise<Set<number>> {
  if (ids.length === 0 || depth > MAX_FOLLOW_DEPTH) return new Set();
  const loaded = await context.store.getObjects(ids);
  const visible = await visibleAt(context, [...loaded.values()], depth);
  return new Set(visible.map((object) => object.id));
}

/**
 * Which (viewer, owner) pairs the circle associations hold, as `<association>:<viewer>:<owner>`:
 * one lookup per association, side by side, through the request's memo of pairs.
 */
async function inCirclesOf(context: ReadContext, circles: ReadonlyMap<string, Array<readonly [number, number]>>): Promise<Set<string>> {
  const found = await Promise.all([...circles].map(async ([assoc, pairs]) => [assoc, await context.pages.existing(assoc, dedupe(pairs))] as const));
  return new Set(found.flatMap(([assoc, pairs]) => [...pairs].map((pair) => `${assoc}:${pair}`)));
}

/** The pairs once each (many objects of one owner ask the same). */
function dedupe(pairs: ReadonlyArray<readonly [number, number]>): Array<readonly [number, number]> {
  const seen = new Map(pairs.map((pair) => [`${pair[0]}:${pair[1]}`, pair] as const));
  return [...seen.values()];
}

/** Which (node, viewer) pairs the nodes' members associations hold: one lookup per association type, side by side. */
async function membersAmong(context: ReadContext, membership: ReadonlyMap<string, Array<readonly [number, number]>>): Promise<Set<string>> {
  const found = await Promise.all([...membership].map(([assoc, pairs]) => context.store.getExisting(assoc, pairs)));
  return new Set(found.flatMap((pairs) => [...pairs]));
}
