import { updateApp, type AppUpdate } from '../../auth/app-admin.js';
import { GraphError } from '../../errors.js';
import { rules, type BooleanResult } from '../../schema/versions.js';
import type { ReadContext } from '../request/context.js';
import type { Json } from '../../ids.js';

/** Settings an app changes for itself with `POST /<app id>` and its app token; the rest is `loom app update`'s. */
const TEXT_SETTINGS = ['namespace', 'category', 'description'] as const;

/** `POST /<app id>` (or `/app`) with the app's own token: `restrictions` (JSON), `namespace`, `category`, `description`. */
export async function updateAppSettings(context: ReadContext, params: Record<string, string>): Promise<Json | BooleanResult> {
  const update: AppUpdate = {};
  for (const name of TEXT_SETTINGS) if (params[name] !== undefined) update[name] = params[name];
  if (params.restrictions !== undefined) update.restrictions = readRestrictions(params.restrictions);
  if (Object.keys(update).length === 0) {
    throw GraphError.invalidParameter(`Nothing to update: give restrictions, ${TEXT_SETTINGS.join(', ')}`);
  }
  await updateApp(context.store, context.viewer.app.id, update, context.now);
  return rules.booleanResult(context.version);
}

function readRestrictions(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = text === '' ? {} : JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw GraphError.invalidParameter('The parameter restrictions must be a JSON object');
  }
  return value as Record<string, unknown>;
}
