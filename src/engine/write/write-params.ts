import { GraphError } from '../../errors.js';
import type { ParamDef } from '../../schema/definition.js';
import type { ReadContext } from '../request/context.js';

/** The declared parameters, bounded and decoded; anything undeclared is ignored, as the real service does. */
export function readParams(defs: readonly ParamDef[], params: Record<string, string>, context: ReadContext): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const def of defs) {
    const value = params[def.name];
    if (value === undefined || value === '') continue;
    if (value.length > def.maxLength) {
      throw GraphError.invalidParameter(`The parameter ${def.name} is longer than ${def.maxLength} characters`);
    }
    if (def.people) {
      data[def.name] = readPeople(context, def.name, value);
      continue;
    }
    const decoded = def.decode ? def.decode(value, def.name) : value;
    if (decoded !== undefined) data[def.name] = decoded;
  }
  return data;
}

/** Most people one parameter may name. */
const MAX_PEOPLE = 50;

/** A comma-separated list of people's app-scoped ids, as internal ids; an id the app does not know is an error. */
function readPeople(context: ReadContext, name: string, value: string): number[] {
  const texts = value.split(',').map((text) => text.trim()).filter((text) => text !== '');
  if (texts.length > MAX_PEOPLE) throw GraphError.invalidParameter(`The parameter ${name} names more than ${MAX_PEOPLE} people`);
  return [...new Set(texts.map((text) => {
    const id = context.viewer.ids.unscope(text);
    if (id === undefined) throw GraphError.invalidParameter(`The parameter ${name} names an unknown person: ${text.slice(0, 32)}`);
    return id;
  }))];
}
