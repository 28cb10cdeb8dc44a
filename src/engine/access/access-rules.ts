/**
 * Answers an AccessRule for a whole batch of nodes. Every rule of the vocabulary costs at most one
 * store call for the batch (an association existence lookup, or one load of the nodes a field
 * names), so a page of a hundred nodes costs what one node does.
 */
import { personOwnerOf, writtenAsNode } from '../../schema/authors.js';
import type { AccessRule } from '../../schema/definition.js';
import type { StoredObject } from '../../store/graph-store.js';
import type { ReadContext } from '../request/context.js';

/** Loads the nodes with these ids the viewer may see, `depth` levels of following deep. */
export type VisibleIds = (ids: readonly number[], depth: number) => Promise<Set<number>>;

/**
 * The person who owns a node and whose grants govern it: a principal node owns itself; what a
 * page wrote through a page token belongs to no person.
 */
export function nodeOwner(context: ReadContext, object: StoredObject): number | null {
  return object.type === context.schema.principal ? object.id : personOwnerOf(context.schema.writePolicy, object);
}

/** The ids of the objects that pass the rule. */
export async function passingRule(
  context: ReadContext,
  rule: AccessRule,
  objects: readonly StoredObject[],
  visibleIds: VisibleIds,
  depth = 0,
): Promise<Set<number>> {
  const viewer = context.viewer;
  const all = (test: (object: StoredObject) => boolean) => new Set(objects.filter(test).map((object) => object.id));
  switch (rule.kind) {
    case 'token':
      return all(() => true);
    case 'principal':
      return all(() => viewer.userId !== null);
    case 'app':
      return all(() => viewer.kind === 'app' && (context.schema.ownApp === undefined || viewer.app.id === context.schema.ownApp));
    case 'never':
      return new Set();
    case 'owner':
      return all((object) => viewer.userId !== null && nodeOwner(context, object) === viewer.userId);
    case 'related': {
      const viewerId = viewer.userId;
      if (viewerId === null) return new Set();
      const ofId = (object: StoredObject): number | null => {
        if (rule.of === 'owner') return nodeOwner(context, object);
        if (rule.of === 'self') return object.id;
        const value = object.data[rule.of.key];
        return typeof value === 'number' ? value : null;
      };
      const pairs = [...new Set(objects.map(ofId).filter((id): id is number => id !== null))].map((id) => [id, viewerId] as const);
      const found = pairs.length === 0 ? new Set<string>() : await context.store.getExisting(rule.assoc, pairs);
      return all((object) => {
        const id = ofId(object);
        return id !== null && found.has(`${id}:${viewerId}`);
      });
    }
    case 'follows': {
      const refs = objects.map((object) => object.data[rule.key]).filter((id): id is number => typeof id === 'number');
      const visible = await visibleIds([...new Set(refs)], depth + 1);
      return all((object) => {
        const id = object.data[rule.key];
        return typeof id === 'number' && visible.has(id);
      });
    }
    case 'ownerOf':
    case 'nodeWroteOf': {
      const viewerId = viewer.userId;
      if (viewerId === null) return new Set();
      // Only a node acting as itself (a page, through its token) is the author of what was written as a node.
      const owned = (target: StoredObject) =>
        rule.kind === 'ownerOf' ? nodeOwner(context, target) === viewerId : target.owner === viewerId && writtenAsNode(context.schema.writePolicy, target);
      const refs = objects.map((object) => object.data[rule.key]).filter((id): id is number => typeof id === 'number');
      const named = refs.length === 0 ? new Map<number, StoredObject>() : await context.objects.get([...new Set(refs)]);
      return all((object) => {
        const id = object.data[rule.key];
        const target = typeof id === 'number' ? named.get(id) : undefined;
        return target !== undefined && owned(target);
      });
    }
    case 'byField': {
      const groups = new Map<AccessRule, StoredObject[]>();
      for (const object of objects) {
        const value = object.data[rule.key];
        const chosen = (typeof value === 'string' && Object.hasOwn(rule.cases, value) ? rule.cases[value] : undefined) ?? rule.otherwise;
        const group = groups.get(chosen) ?? [];
        group.push(object);
        groups.set(chosen, group);
      }
      const sets = await Promise.all([...groups].map(([chosen, group]) => passingRule(context, chosen, group, visibleIds, depth)));
      return new Set(sets.flatMap((set) => [...set]));
    }
    case 'any': {
      const sets = await Promise.all(rule.rules.map((inner) => passingRule(context, inner, objects, visibleIds, depth)));
      return new Set(sets.flatMap((set) => [...set]));
    }
  }
}
