import type { ObjectId } from '../ids.js';

/**
 * A stored object as the schema reads it: the store's objects have these fields, so they are
 * handed to the schema's code as they are, and the type model depends on no store.
 */
export interface StoredNode {
  id: ObjectId;
  /** The node type's name. */
  type: string;
  /** The user (or page) that owns the object; null for objects nobody owns. */
  owner: ObjectId | null;
  /** Unix seconds. */
  createdTime: number;
  updatedTime: number;
  /** The type's stored fields. */
  data: Record<string, unknown>;
}
