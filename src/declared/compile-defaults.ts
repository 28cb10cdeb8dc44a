/** A type's rich default names (`full_default_fields`), as the schema holds them. */
import type { AccessRule, NodeTypeDef } from '../schema/definition.js';
import type { RuleName } from '../schema/versions.js';
import type { RuleDecl, TypeDecl } from './model.js';

/** The parts of the compiler the default names need. */
export interface DefaultsCompiler {
  problem(key: string, message: string): void;
  ruleName(name: string, at: string): RuleName;
  rule(typeName: string, decl: RuleDecl, at: string, write: boolean): AccessRule;
}

/** Each name `versions` or `shown_to` keys must be one of the default names. */
export function compileFullDefaults(
  c: DefaultsCompiler,
  typeName: string,
  full: NonNullable<TypeDecl['full_default_fields']>,
  at: string,
): NonNullable<NodeTypeDef['fullDefaultFields']> {
  const { names, listed, reference } = full;
  const defaultName = (name: string, where: string) => {
    if (![...names, ...(listed ?? [])].includes(name)) c.problem(`${at}.${where}.${name}`, `"${name}" is not one of the default names`);
  };
  const versions = Object.fromEntries(Object.entries(full.versions ?? {}).map(([name, rule]) => {
    defaultName(name, 'versions');
    return [name, c.ruleName(rule, `${at}.versions.${name}`)];
  }));
  const shownTo = Object.fromEntries(Object.entries(full.shown_to ?? {}).map(([name, rule]) => {
    defaultName(name, 'shown_to');
    return [name, c.rule(typeName, rule, `${at}.shown_to.${name}`, false)];
  }));
  return { names, ...(listed ? { listed } : {}), ...(reference ? { reference } : {}), ...(full.versions ? { versions } : {}), ...(full.shown_to ? { shownTo } : {}) };
}
