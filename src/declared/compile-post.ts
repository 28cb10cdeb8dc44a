/**
 * What a declared write does (`write: {create | link, …}` of an edge), as the engine's EdgePost:
 * the parameters a created node takes, the links written with it in the same transaction (this
 * edge, its inverse, and every list a field of the created node backs).
 */
import type { AccessRule, EdgePost, ParamDef, Party } from '../schema/definition.js';
import type { Declaration, EdgeDecl, EdgeWriteDecl, RuleDecl, StorageKeys } from './model.js';
import { paramLength } from './validate.js';

/** The parts of the compiler a write needs. */
export interface PostCompiler {
  readonly declaration: Declaration;
  readonly storage: StorageKeys;
  problem(key: string, message: string): void;
  scope(name: string, at: string): string;
  rule(typeName: string, decl: RuleDecl, at: string, write: boolean): AccessRule;
  isRefField(typeName: string, field: string, target?: string): boolean;
}

export function compilePost(c: PostCompiler, typeName: string, name: string, decl: EdgeDecl, write: EdgeWriteDecl, at: string): EdgePost {
  const post: EdgePost = { links: [] };
  post.scope = write.scope === undefined ? undefined : c.scope(write.scope, `${at}.write.scope`);
  if (post.scope === undefined) c.problem(`${at}.write.scope`, 'a write names the permission it needs');
  if (write.allow !== undefined) post.allow = c.rule(typeName, write.allow, `${at}.write.allow`, true);
  const assoc = c.storage.edges[`${typeName}.${name}`]!;
  const inverse = decl.inverse === undefined ? undefined : c.storage.edges[`${decl.to}.${decl.inverse}`];
  if (write.create === undefined) {
    if (write.link !== 'viewer') c.problem(`${at}.write`, 'a write either creates a node (create) or links the viewer (link: viewer)');
    if (decl.backed_by !== undefined) c.problem(`${at}.write.link`, 'a backed_by edge follows its field; it cannot be linked');
    if (write.not_self) post.notSelf = true;
    post.links.push({ assoc, from: 'parent', to: 'viewer' });
    if (inverse) post.links.push({ assoc: inverse, from: 'viewer', to: 'parent' });
    return post;
  }
  const created = c.declaration.types[write.create];
  if (!created) {
    c.problem(`${at}.write.create`, `"${write.create}" is not a declared type`);
    return post;
  }
  if (write.create !== decl.to) c.problem(`${at}.write.create`, `the edge lists ${decl.to} nodes; it cannot create a ${write.create}`);
  post.creates = c.storage.types[write.create];
  const set = write.set ?? {};
  for (const field of Object.keys(set)) {
    if (!c.isRefField(write.create, field)) c.problem(`${at}.write.set.${field}`, `"${field}" is not a ref field of ${write.create}`);
  }
  post.params = Object.entries(created.fields ?? {})
    .filter(([field, fieldDecl]) => (fieldDecl.write === 'owner' || fieldDecl.write === 'create_only') && !Object.hasOwn(set, field))
    .map(([field, fieldDecl]): ParamDef => ({ name: field, maxLength: paramLength(fieldDecl) }));
  const oneOf = created.one_of;
  if (oneOf) post.oneOf = oneOf;
  post.derive = (params, parties) => {
    const data: Record<string, unknown> = { ...params };
    for (const [field, party] of Object.entries(set)) data[field] = parties[party];
    return data;
  };
  // Links: this edge unless a field backs it, every backed_by edge whose field a party fills, and inverses.
  const ownerField = created.owner;
  const filled = new Map<string, Party>(Object.entries(set));
  if (ownerField !== undefined && !filled.has(ownerField)) filled.set(ownerField, 'viewer');
  if (decl.backed_by === undefined) {
    post.links.push({ assoc, from: 'parent', to: 'created' });
    if (inverse) post.links.push({ assoc: inverse, from: 'created', to: 'parent' });
  }
  for (const [otherType, other] of Object.entries(c.declaration.types)) {
    for (const [otherEdge, edgeDecl] of Object.entries(other.edges ?? {})) {
      if (edgeDecl.backed_by === undefined) continue;
      const [backingType, backingField] = edgeDecl.backed_by.split('.') as [string, string];
      const party = filled.get(backingField);
      if (backingType === write.create && party !== undefined) post.links.push({ assoc: c.storage.edges[`${otherType}.${otherEdge}`]!, from: party, to: 'created' });
    }
  }
  return post;
}
