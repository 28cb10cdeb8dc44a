/**
 * The `metadata` object of `?metadata=1`: how a client discovers what a node offers. Clients
 * render it as they receive it, so keys and entries keep a stable order: the declaration order.
 */
import type { NodeTypeDef } from './definition.js';
import type { Schema } from './registry.js';
import type { ApiVersion } from './versions.js';

interface FieldMetadata {
  name: string;
  description: string;
  type: string;
}

export interface NodeMetadata {
  type: string;
  fields: FieldMetadata[];
  /** Edge name → address of that edge of this node. */
  connections: Record<string, string>;
}

/** `connectionUrl` knows the node's shown id, the base URL and the caller's token; the schema knows none. */
export function renderMetadata(schema: Schema, version: ApiVersion, type: NodeTypeDef, connectionUrl: (edge: string) => string): NodeMetadata {
  const connections: Record<string, string> = {};
  for (const edge of schema.edgesIn(type, version)) connections[edge.name] = connectionUrl(edge.name);
  return {
    type: type.name,
    fields: schema.fieldsIn(type, version).map((field) => ({ name: field.name, description: field.description, type: field.type })),
    connections,
  };
}
