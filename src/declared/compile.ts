/**
 * Turns a declaration into the NodeTypeDefs the engine serves, exactly as it serves the built-in
 * types: one Schema, one engine, one store path. Names are resolved to storage keys here (the
 * pinned ones of the applied record first), so the engine only ever sees storage keys.
 */
import type { AppWrites, WritePolicy } from '../schema/behaviours.js';
import type { AccessRule, Counter, EdgeDef, FieldDef, FieldSource, IdForm, NodeTypeDef, SummaryKind } from '../schema/definition.js';
import type { Permissions } from '../schema/permissions.js';
import { publishedVersion, VERSION_RULES, type ApiVersion, type RuleName, type VersionBounds } from '../schema/versions.js';
import { graphTime } from '../clock/graph-time.js';
import { DeclarationError, type DeclarationProblem } from './load.js';
import type { CodeModule, Declaration, EdgeDecl, FieldDecl, RuleDecl, StorageKeys, TypeDecl } from './model.js';
import { codeEntry } from './code-names.js';
import { compilePermissions } from './compile-permissions.js';
import { compileFullDefaults } from './compile-defaults.js';
import { compilePost } from './compile-post.js';
import { storageKeysOf } from './storage-keys.js';
import { dataChecker, fieldKind, paramLength } from './validate.js';

export interface CompiledDeclaration {
  types: NodeTypeDef[];
  /** Storage key of the type user tokens stand for (`me`). */
  principal: string | undefined;
  /** The permissions apps of this schema may ask a person for. */
  permissions: Permissions;
  /** The storage key of every type, field and edge (pinned ones kept, new ones defaulted). */
  storage: StorageKeys;
  /** What the code module lets an app token change or delete. */
  appWrites: AppWrites | undefined;
  /** The code module's own rules for people's writes where a type declares none. */
  writePolicy: WritePolicy | undefined;
}

/** Where a problem of a declaration key is reported; line 0 when only the key is known. */
export type Locate = (key: string) => { file: string; line: number };

/**
 * Builds the node types. Every reference (edge targets, inverses, rule fields, code names) is
 * checked here and all problems are thrown together as one DeclarationError.
 */
export function compileDeclaration(
  declaration: Declaration,
  code?: CodeModule,
  pinned?: StorageKeys,
  locate: Locate = () => ({ file: declaration.name, line: 0 }),
): CompiledDeclaration {
  const problems: DeclarationProblem[] = [];
  const problem = (key: string, message: string) => problems.push({ ...locate(key), key, message });
  const storage = storageKeysOf(declaration, pinned);
  const compiler = new Compiler(declaration, code, storage, problem);
  const types = Object.entries(declaration.types).map(([name, type]) => compiler.type(name, type));
  if (declaration.principal !== undefined) {
    const principal = declaration.types[declaration.principal];
    if (!principal) problem('principal', `names no declared type`);
    else if ((principal.id ?? 'app_scoped') !== 'app_scoped') problem(`types.${declaration.principal}.id`, 'the principal type has app-scoped ids');
  }
  if (problems.length > 0) throw new DeclarationError(problems);
  const principal = declaration.principal === undefined ? undefined : storage.types[declaration.principal];
  return { types, principal, permissions: compiler.permissions, storage, appWrites: code?.appWrites, writePolicy: code?.writePolicy };
}

const ID_FORMS: Record<string, IdForm> = { app_scoped: 'user', compound: 'post', plain: 'plain' };

class Compiler {
  /** The built-in Graph types: plain storage keys, data written by the code module's POST behaviours. */
  private readonly graph: boolean;
  /** Compiled first: every scope a type names must be one of them. */
  readonly permissions: Permissions;

  constructor(
    readonly declaration: Declaration,
    private readonly code: CodeModule | undefined,
    readonly storage: StorageKeys,
    readonly problem: (key: string, message: string) => void,
  ) {
    this.graph = declaration.data === 'graph';
    this.permissions = compilePermissions(this);
  }

  type(name: string, decl: TypeDecl): NodeTypeDef {
    const at = `types.${name}`;
    const fieldDecls = decl.fields ?? {};
    const fields: FieldDef[] = [];
    if (!Object.hasOwn(fieldDecls, 'id')) fields.push({ name: 'id', type: 'numeric string', description: `The ${name}'s id.`, source: { kind: 'id' } });
    for (const [fieldName, field] of Object.entries(fieldDecls)) {
      const compiled = this.field(name, fieldName, field, decl.write?.update !== undefined);
      fields.push(compiled, ...(field.aliases ?? []).map((alias) => ({ ...compiled, name: alias })));
    }
    const edges: EdgeDef[] = [];
    for (const [edgeName, edge] of Object.entries(decl.edges ?? {})) {
      const compiled = this.edge(name, edgeName, edge);
      edges.push(compiled, ...(edge.aliases ?? []).map((alias) => ({ ...compiled, name: alias })));
    }
    const defaults = decl.default_fields ?? [];
    defaults.forEach((field, index) => {
      if (!Object.hasOwn(fieldDecls, field)) this.problem(`${at}.default_fields.${index}`, `"${field}" is not a field of ${name}`);
    });
    if (decl.key !== undefined && !Object.hasOwn(fieldDecls, decl.key)) this.problem(`${at}.key`, `"${decl.key}" is not a field of ${name}`);
    if (decl.owner !== undefined && !this.isRefField(name, decl.owner)) this.problem(`${at}.owner`, `"${decl.owner}" is not a ref field of ${name}`);
    for (const [index, validator] of (decl.validate ?? []).entries()) {
      if (typeof this.code?.validators?.[validator] !== 'function') this.problem(`${at}.validate.${index}`, `the code module has no validator "${validator}"`);
    }
    const cascade = decl.write?.delete?.cascade ?? [];
    cascade.forEach((edge, index) => {
      if (!decl.edges?.[edge]) this.problem(`${at}.write.delete.cascade.${index}`, `"${edge}" is not an edge of ${name}`);
    });
    const writeRules: NodeTypeDef['writeRules'] = {};
    if (decl.write?.update) writeRules.update = this.rule(name, decl.write.update, `${at}.write.update`, true);
    if (decl.write?.delete) writeRules.delete = this.rule(name, decl.write.delete.allow, `${at}.write.delete.allow`, true);
    const validators = (decl.validate ?? []).flatMap((validator) => {
      const fn = this.code?.validators?.[validator];
      return fn ? [fn] : [];
    });
    const deletesWith = [...cascade.map((edge) => this.storage.edges[`${name}.${edge}`]!), ...(decl.deletes_with ?? [])];
    const checkData = this.checkData(name, decl, validators);
    return {
      name: this.storage.types[name]!,
      label: decl.label ?? name.charAt(0).toUpperCase() + name.slice(1),
      idForm: ID_FORMS[decl.id ?? (name === this.declaration.principal ? 'app_scoped' : 'plain')]!,
      ...this.visibility(name, decl),
      ...(decl.scope !== undefined ? { scope: this.scope(decl.scope, `${at}.scope`) } : {}),
      ...(decl.owns_media ? { ownsMedia: true } : {}),
      ...(deletesWith.length > 0 ? { deletesWith } : {}),
      defaultFields: defaults,
      ...(decl.full_default_fields ? { fullDefaultFields: compileFullDefaults(this, name, decl.full_default_fields, `${at}.full_default_fields`) } : {}),
      fields,
      edges,
      writeRules,
      ...(this.countersOf(name).length > 0 ? { counters: this.countersOf(name) } : {}),
      ...(checkData ? { checkData } : {}),
      ...(decl.search ? { search: searchOf(decl.search) } : {}),
    };
  }

  private visibility(name: string, decl: TypeDecl): Pick<NodeTypeDef, 'visibility' | 'nonUsers'> {
    const read = decl.read ?? 'token';
    if (typeof read === 'object' && 'behavior' in read) {
      const entry = codeEntry(this.code, 'visibilities', read.behavior, `types.${name}.read.behavior`, this.problem) ?? 'owner';
      return typeof entry === 'object' && 'sees' in entry ? { visibility: entry.sees, nonUsers: entry.nonUsers } : { visibility: entry };
    }
    return { visibility: { rule: this.rule(name, read, `types.${name}.read`, false) } };
  }

  /** A named check; else, for declared data, the checker made from the field types (Graph data is kept as its POST behaviour wrote it). */
  private checkData(name: string, decl: TypeDecl, validators: Parameters<typeof dataChecker>[3]): NodeTypeDef['checkData'] {
    if (decl.check !== undefined) return codeEntry(this.code, 'checks', decl.check, `types.${name}.check`, this.problem);
    return this.graph ? undefined : dataChecker(name, decl, this.storage, validators);
  }

  /** `updatable`: the type declares who may update it, so its `write: owner` fields take `POST /<id>`. */
  private field(typeName: string, name: string, decl: FieldDecl, updatable: boolean): FieldDef {
    const at = `types.${typeName}.fields.${name}`;
    const key = this.storage.fields[`${typeName}.${name}`]!;
    const kind = fieldKind(decl.type);
    if (decl.type === undefined && decl.metadata_type === undefined) this.problem(`${at}.type`, 'is required');
    if (kind.ref !== undefined && !this.declaration.types[kind.ref]) this.problem(`${at}.type`, `refers to "${kind.ref}", which is not a declared type`);
    if (kind.base === 'enum' && !decl.values) this.problem(`${at}.values`, 'an enum lists its values');
    const type = decl.metadata_type ?? this.metadataType(decl.type!);
    const field: FieldDef = { name, type, description: decl.description ?? '', source: this.source(typeName, name, decl, key, kind) };
    if (decl.scope !== undefined) field.scope = this.scope(decl.scope, `${at}.scope`);
    if (decl.read !== undefined) field.read = this.rule(typeName, decl.read, `${at}.read`, false);
    // Graph types have no update rule: the built-in "what you wrote" decides who may change a node.
    if (decl.write === 'owner' && (updatable || this.graph)) field.writable = { maxLength: paramLength(decl) };
    const versions = this.versions(decl, at);
    if (versions) field.versions = versions;
    return field;
  }

  private source(typeName: string, name: string, decl: FieldDecl, key: string, kind: ReturnType<typeof fieldKind>): FieldSource {
    const at = `types.${typeName}.fields.${name}`;
    if (decl.computed !== undefined) {
      const compute = codeEntry(this.code, 'computed', decl.computed, `${at}.computed`, this.problem);
      if (typeof compute !== 'function') return { kind: 'computed', compute: () => undefined };
      // Graph code reads the stored object itself; a declared schema's code sees its field names only.
      if (this.graph) return { kind: 'computed', compute };
      return { kind: 'computed', compute: (object, context) => compute({ ...object, data: this.byName(typeName, object.data) }, context) };
    }
    const source = decl.source;
    if (source === 'id') return { kind: 'id' };
    if (source === 'created_time') return { kind: 'createdTime' };
    if (source === 'updated_time') return { kind: 'updatedTime' };
    if (source === 'owner') return { kind: 'owner' };
    if (source === 'page_token') return { kind: 'pageToken' };
    if (source !== undefined && 'count' in source) {
      const edge = this.storage.edges[`${typeName}.${source.count}`];
      // Graph counts may name an association no edge of the type lists (a page's fans).
      const assoc = edge || (this.graph ? source.count : undefined);
      if (!assoc) this.problem(`${at}.source.count`, `"${source.count}" is not an edge of ${typeName}`);
      return { kind: 'count', assoc: assoc ?? '', ...(source.wrap !== undefined ? { wrap: source.wrap } : {}) };
    }
    if (source !== undefined && 'viewer_linked' in source) return { kind: 'viewerLinked', assoc: source.viewer_linked };
    if (source !== undefined && 'ref' in source) {
      const { many, fields, target, id_while: idWhile } = source.ref;
      if (target !== undefined && !this.declaration.types[target]) this.problem(`${at}.source.ref.target`, `"${target}" is not a declared type`);
      if (idWhile !== undefined && many) this.problem(`${at}.source.ref.id_while`, 'a list of nodes is never shown as one id');
      return {
        kind: 'ref',
        key,
        ...(many ? { many: true } : {}),
        ...(fields !== undefined ? { fields } : {}),
        ...(target !== undefined ? { target: this.storage.types[target] ?? target } : {}),
        ...(idWhile !== undefined ? { idWhile: this.ruleName(idWhile, `${at}.source.ref.id_while`) } : {}),
      };
    }
    if (source !== undefined) {
      const [how, of] = 'average' in source ? (['average', source.average] as const) : (['sum', source.sum] as const);
      const counter = this.counterOf(typeName, of.edge, of.field);
      if (!counter) {
        this.problem(`${at}.source.${how}`, `needs an edge of ${typeName} backed by a ref field (backed_by) and an int field of its items`);
        return { kind: 'computed', compute: () => undefined };
      }
      return how === 'average' ? { kind: 'counter', sum: counter.sum, per: this.storage.edges[`${typeName}.${of.edge}`]! } : { kind: 'counter', sum: counter.sum };
    }
    if (kind.ref !== undefined) return { kind: 'ref', key, target: this.storage.types[kind.ref] ?? kind.ref, ...(kind.list ? { many: true } : {}) };
    if (kind.base === 'datetime' && !kind.list) {
      // Stored as unix seconds, shown as the Graph API shows every time.
      return { kind: 'computed', compute: (object) => (typeof object.data[key] === 'number' ? graphTime(object.data[key]) : undefined) };
    }
    return { kind: 'data', key, ...(decl.default !== undefined ? { default: decl.default } : {}) };
  }

  /**
   * The sum of an int field of an edge's items, kept on the node the items' backing field names.
   * Undefined when the edge is not backed by a field (only then does an item know its parent).
   */
  counterOf(typeName: string, edgeName: string, field: string): (Counter & { itemType: string }) | undefined {
    const edge = this.declaration.types[typeName]?.edges?.[edgeName];
    if (!edge?.backed_by) return undefined;
    const [itemType, backingField] = edge.backed_by.split('.') as [string, string];
    const valueDecl = this.declaration.types[itemType]?.fields?.[field];
    if (!valueDecl || valueDecl.type !== 'int' || valueDecl.source !== undefined) return undefined;
    const valueKey = this.storage.fields[`${itemType}.${field}`]!;
    const assoc = this.storage.edges[`${typeName}.${edgeName}`]!;
    const ownerBacked = this.declaration.types[itemType]?.fields?.[backingField]?.source === 'owner';
    return { itemType, sum: `${assoc}:sum:${valueKey}`, valueKey, ...(ownerBacked ? {} : { parentKey: this.storage.fields[`${itemType}.${backingField}`]! }) };
  }

  /** The counters a type's nodes add to: every average or sum declared over an edge they back. */
  countersOf(itemType: string): Counter[] {
    const counters: Counter[] = [];
    for (const [typeName, type] of Object.entries(this.declaration.types)) {
      for (const field of Object.values(type.fields ?? {})) {
        const source = field.source;
        if (source === undefined || typeof source !== 'object' || !('average' in source || 'sum' in source)) continue;
        const of = 'average' in source ? source.average : source.sum;
        const counter = this.counterOf(typeName, of.edge, of.field);
        if (counter && counter.itemType === itemType && !counters.some((known) => known.sum === counter.sum)) {
          const { itemType: _item, ...kept } = counter;
          counters.push(kept);
        }
      }
    }
    return counters;
  }

  /** A stored object's data keyed by field name, as code modules see it. */
  private byName(typeName: string, data: Record<string, unknown>): Record<string, unknown> {
    const named: Record<string, unknown> = {};
    for (const name of Object.keys(this.declaration.types[typeName]!.fields ?? {})) {
      const value = data[this.storage.fields[`${typeName}.${name}`]!];
      if (value !== undefined) named[name] = value;
    }
    return named;
  }

  private metadataType(type: string): string {
    const kind = fieldKind(type);
    const one = kind.ref ?? ({ int: 'int32', float: 'float', bool: 'bool', datetime: 'datetime', enum: 'enum', json: 'object' } as Record<string, string>)[kind.base] ?? 'string';
    return kind.list ? `list<${one}>` : one;
  }

  private edge(typeName: string, name: string, decl: EdgeDecl): EdgeDef {
    const at = `types.${typeName}.edges.${name}`;
    const target = this.declaration.types[decl.to];
    if (!target) this.problem(`${at}.to`, `"${decl.to}" is not a declared type`);
    const assoc = this.storage.edges[`${typeName}.${name}`]!;
    const edge: EdgeDef = { name, description: decl.description ?? '', target: this.storage.types[decl.to] ?? decl.to, ...(assoc !== '' ? { assoc } : {}) };
    if (decl.inverse !== undefined) {
      const inverse = target?.edges?.[decl.inverse];
      if (!inverse) this.problem(`${at}.inverse`, `"${decl.inverse}" is not an edge of ${decl.to}`);
      else if (inverse.to !== typeName || (inverse.inverse !== undefined && inverse.inverse !== name)) this.problem(`${at}.inverse`, `${decl.to}.${decl.inverse} does not lead back to ${typeName}.${name}`);
    }
    if (decl.backed_by !== undefined) {
      const [backingType, backingField] = decl.backed_by.split('.') as [string, string];
      if (backingType !== decl.to || !this.isRefField(backingType, backingField, typeName)) {
        this.problem(`${at}.backed_by`, `${decl.backed_by} is not a field of ${decl.to} referring to a ${typeName}`);
      }
    }
    if (decl.time !== undefined && decl.time !== 'link') this.problem(`${at}.time`, 'only link times are served yet');
    if (decl.scope !== undefined) edge.scope = this.scope(decl.scope, `${at}.scope`);
    if (decl.read !== undefined) edge.read = this.rule(typeName, decl.read, `${at}.read`, false);
    const order = decl.order ?? ['reverse_chronological'];
    if (order.length > 1 || order[0] === 'chronological') {
      edge.ordered = true;
      if (order[0] === 'reverse_chronological') edge.defaultOrder = 'reverse_chronological';
    }
    const summary = decl.summary;
    if (typeof summary === 'string') edge.summary = summary;
    else if (summary && (summary.viewer !== undefined || summary.can_write !== undefined || summary.order)) {
      const kind: SummaryKind = {};
      if (summary.viewer !== undefined) kind.viewer = summary.viewer;
      if (summary.can_write !== undefined) kind.canWrite = summary.can_write;
      if (summary.order) kind.order = true;
      edge.summary = kind;
    }
    if (decl.write && 'behavior' in decl.write) {
      const post = codeEntry(this.code, 'posts', decl.write.behavior, `${at}.write.behavior`, this.problem);
      if (post) edge.post = post;
    } else if (decl.write) edge.post = compilePost(this, typeName, name, decl, decl.write, at);
    const versions = this.versions(decl, at);
    if (versions) edge.versions = versions;
    Object.assign(edge, this.edgeExtras(decl, at));
    return edge;
  }

  /** The keys the built-in Graph edges use beyond plain lists. */
  private edgeExtras(decl: EdgeDecl, at: string): Partial<EdgeDef> {
    const extras: Partial<EdgeDef> = {};
    if (decl.always_summary) extras.alwaysSummary = true;
    if (decl.items_granted !== undefined) extras.itemsGranted = this.scope(decl.items_granted, `${at}.items_granted`);
    if (decl.stream_storage !== undefined) extras.streamAssoc = decl.stream_storage;
    if (decl.through !== undefined) extras.through = decl.through;
    if (decl.readers !== undefined) extras.readers = decl.readers;
    if (decl.alias !== undefined) extras.alias = decl.alias;
    if (decl.item_flag) {
      const { name, storage, of, versions } = decl.item_flag;
      extras.itemFlag = { name, assoc: storage, of, ...(versions === undefined ? {} : { versions: this.ruleName(versions, `${at}.item_flag.versions`) }) };
    }
    const itemTime = decl.item_time;
    if (itemTime) extras.itemTime = { name: itemTime.name, ...(itemTime.versions ? { versions: this.ruleName(itemTime.versions, `${at}.item_time.versions`) } : {}) };
    const itemData = decl.item_data;
    if (itemData) extras.itemData = { name: itemData.name, ...(itemData.versions ? { versions: this.ruleName(itemData.versions, `${at}.item_data.versions`) } : {}) };
    if (decl.by_type) {
      const { default: fallback, storage, item_field: itemField } = decl.by_type;
      if (!Object.hasOwn(storage, fallback)) this.problem(`${at}.by_type.default`, `"${fallback}" is not one of the lists under by_type.storage`);
      const itemVersions = itemField?.versions === undefined ? {} : { versions: this.ruleName(itemField.versions, `${at}.by_type.item_field.versions`) };
      extras.byType = { default: fallback, assocs: storage, ...(itemField ? { itemField: { name: itemField.name, values: itemField.values, ...itemVersions } } : {}) };
    }
    if (decl.behavior !== undefined) Object.assign(extras, codeEntry(this.code, 'behaviors', decl.behavior, `${at}.behavior`, this.problem));
    if (decl.served_while !== undefined) extras.servedWhile = this.ruleName(decl.served_while, `${at}.served_while`);
    if (decl.offset_paging !== undefined) extras.offsetPaging = this.ruleName(decl.offset_paging, `${at}.offset_paging`);
    if (decl.offset_link !== undefined) extras.offsetLink = decl.offset_link;
    if (decl.time_paging !== undefined) extras.timePaging = this.ruleName(decl.time_paging, `${at}.time_paging`);
    return extras;
  }

  ruleName(name: string, at: string): RuleName {
    if (!Object.hasOwn(VERSION_RULES, name)) this.problem(at, `"${name}" is not a rule of the version table`);
    return name as RuleName;
  }

  /** Whether the field is a ref (stored, or the owner) to `target` (any type when absent). */
  isRefField(typeName: string, field: string, target?: string): boolean {
    const decl = this.declaration.types[typeName]?.fields?.[field];
    if (!decl) return false;
    const ref = fieldKind(decl.type).ref;
    return ref !== undefined && (target === undefined || ref === target);
  }

  scope(name: string, at: string): string {
    if (!this.permissions.get(name)) this.problem(at, `"${name}" is not one of the declared permissions`);
    return name;
  }

  versions(decl: { since?: string; until?: string; versions?: string }, at: string): RuleName | VersionBounds | undefined {
    if (decl.versions !== undefined) {
      if (decl.since !== undefined || decl.until !== undefined) this.problem(`${at}.versions`, 'a rule of the version table replaces since and until');
      return this.ruleName(decl.versions, `${at}.versions`);
    }
    if (decl.since === undefined && decl.until === undefined) return undefined;
    const bounds: VersionBounds = {};
    for (const end of ['since', 'until'] as const) {
      const text = decl[end];
      if (text === undefined) continue;
      const version: ApiVersion | undefined = publishedVersion(text);
      if (!version) this.problem(`${at}.${end}`, `"${text}" is not a published API version`);
      else bounds[end] = version;
    }
    return bounds;
  }

  /** A rule of the vocabulary, its field names resolved to storage keys. `reader` is for write rules only. */
  rule(typeName: string, decl: RuleDecl, at: string, write: boolean): AccessRule {
    if (typeof decl === 'string') {
      if (decl === 'reader') {
        if (!write) this.problem(at, '"reader" is a write rule; a read rule names who reads');
        // A write reaches only nodes the viewer could load, so whoever holds a token and got here reads it.
        return { kind: 'token' };
      }
      return { kind: decl };
    }
    if ('any' in decl) return { kind: 'any', rules: decl.any.map((inner, index) => this.rule(typeName, inner, `${at}.any.${index}`, write)) };
    if ('follows' in decl) {
      if (this.ownerSourced(typeName, decl.follows)) this.problem(`${at}.follows`, `"${decl.follows}" is the owner; use owner or related`);
      return { kind: 'follows', key: this.refKey(typeName, decl.follows, `${at}.follows`) };
    }
    if ('written_as_viewer' in decl) return { kind: 'nodeWroteOf', key: this.refKey(typeName, decl.written_as_viewer, `${at}.written_as_viewer`) };
    if ('owner_of' in decl) {
      if (this.ownerSourced(typeName, decl.owner_of)) return { kind: 'owner' };
      return { kind: 'ownerOf', key: this.refKey(typeName, decl.owner_of, `${at}.owner_of`) };
    }
    if ('related' in decl) {
      const assoc = this.storage.edges[decl.related.edge];
      if (!assoc) this.problem(`${at}.related.edge`, `"${decl.related.edge}" is not a declared edge (type.edge)`);
      const of = decl.related.of ?? 'owner';
      const ofKey = of === 'owner' || of === 'self' || this.ownerSourced(typeName, of) ? (of === 'self' ? 'self' : 'owner') : { key: this.refKey(typeName, of, `${at}.related.of`) };
      return { kind: 'related', assoc: assoc ?? '', of: ofKey };
    }
    const field = this.declaration.types[typeName]?.fields?.[decl.by_field];
    const key = this.storage.fields[`${typeName}.${decl.by_field}`];
    if (!field || !key || fieldKind(field.type).base !== 'enum' || fieldKind(field.type).list) {
      this.problem(`${at}.by_field`, `"${decl.by_field}" is not an enum field of ${typeName}`);
      return { kind: 'never' };
    }
    const cases: Record<string, AccessRule> = {};
    for (const [value, inner] of Object.entries(decl.cases)) {
      if (!field.values?.includes(value)) this.problem(`${at}.cases.${value}`, `"${value}" is not a value of ${typeName}.${decl.by_field}`);
      cases[value] = this.rule(typeName, inner, `${at}.cases.${value}`, write);
    }
    // An unset field reads as its default, so its case applies; anything else falls to `default`, else nobody.
    const fallback = typeof field.default === 'string' ? cases[field.default] : undefined;
    const otherwise = decl.default !== undefined ? this.rule(typeName, decl.default, `${at}.default`, write) : (fallback ?? { kind: 'never' as const });
    return { kind: 'byField', key, cases, otherwise };
  }

  private ownerSourced(typeName: string, field: string): boolean {
    return this.declaration.types[typeName]?.fields?.[field]?.source === 'owner';
  }

  /** A rule's ref field: a `ref<T>` field, or one whose stored id shows as one node (`source: {ref}`, as Graph fields declare it). */
  private refKey(typeName: string, field: string, at: string): string {
    const source = this.declaration.types[typeName]?.fields?.[field]?.source;
    const storedRef = typeof source === 'object' && 'ref' in source && source.ref.many !== true;
    if (!this.isRefField(typeName, field) && !storedRef) this.problem(at, `"${field}" is not a ref field of ${typeName}`);
    return this.storage.fields[`${typeName}.${field}`] ?? field;
  }
}


function searchOf(search: NonNullable<TypeDecl['search']>): NonNullable<NodeTypeDef['search']> {
  return {
    as: search.as.map((as) => ({ type: as.type, ...(as.located ? { located: true } : {}), ...(as.full_default_fields ? { fullDefaultFields: as.full_default_fields } : {}) })),
    fields: search.fields,
    ...(search.point ? { point: search.point } : {}),
  };
}
