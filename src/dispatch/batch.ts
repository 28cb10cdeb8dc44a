import { GraphError } from '../errors.js';
import { referencedNames, substituteReferences } from './batch-references.js';
import { presentError, type GraphResponse } from './graph-response.js';
import { buildGraphRequest, type GraphRequest, type UploadedFile } from './graph-request.js';
import { outputOptions } from './output-options.js';

/** The real service's limit, which client libraries build in. */
const MAX_BATCH_OPERATIONS = 50;

interface Operation {
  method: string;
  relativeUrl: string;
  body: string;
  name: string | undefined;
  dependsOn: string[];
  /** Names of earlier operations whose answers `{result=…}` references read. */
  references: string[];
  omitResponseOnSuccess: boolean;
  attachedFiles: string[];
  headers: Record<string, string>;
}

/** One item of the batch answer; `null` stands for an answer left out. */
export interface BatchItem {
  code: number;
  headers?: { name: string; value: string }[];
  body?: string;
}

type Dispatch = (request: GraphRequest) => Promise<GraphResponse>;

/**
 * Runs the operations of `batch` in order, each through `dispatch` exactly as a request sent
 * alone, and answers their results as one array. A malformed batch, one too large, or a reference
 * to a name no earlier operation has fails the whole call before any operation runs.
 */
export async function runBatch(request: GraphRequest, dispatch: Dispatch): Promise<(BatchItem | null)[]> {
  const operations = parseBatch(request.params.batch!);
  const includeHeaders = request.params.include_headers !== 'false';
  const answers = new Map<string, unknown>();
  /** Names of operations that failed, or were skipped because something they need failed. */
  const failed = new Set<string>();
  const items: (BatchItem | null)[] = [];
  for (const operation of operations) {
    const needs = [...operation.dependsOn, ...operation.references];
    if (needs.some((name) => failed.has(name))) {
      if (operation.name !== undefined) failed.add(operation.name);
      items.push(null);
      continue;
    }
    const response = await runOperation(request, operation, answers, dispatch);
    if (operation.name !== undefined) {
      if (response.status >= 400) failed.add(operation.name);
      answers.set(operation.name, parseAnswer(response.body));
    }
    items.push(toItem(response, includeHeaders));
  }
  // A successful answer that a later operation used is left out unless the operation asked to keep it.
  const used = new Set(operations.flatMap((operation) => [...operation.dependsOn, ...operation.references]));
  return items.map((item, index) => {
    const operation = operations[index]!;
    const omitted = item !== null && item.code < 400 && operation.name !== undefined && used.has(operation.name) && operation.omitResponseOnSuccess;
    return omitted ? null : item;
  });
}

async function runOperation(
  batch: GraphRequest,
  operation: Operation,
  answers: ReadonlyMap<string, unknown>,
  dispatch: Dispatch,
): Promise<GraphResponse> {
  try {
    const url = substituteReferences(operation.relativeUrl, answers);
    const body = Object.fromEntries(new URLSearchParams(substituteReferences(operation.body, answers)));
    const own = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
    // The batch's token (and its proof) serve every operation that names no token of its own.
    const ownToken = own.has('access_token') || body.access_token !== undefined;
    if (!ownToken && batch.params.appsecret_proof !== undefined && body.appsecret_proof === undefined && !own.has('appsecret_proof')) {
      body.appsecret_proof = batch.params.appsecret_proof;
    }
    if (!ownToken && batch.params.access_token !== undefined) body.access_token = batch.params.access_token;
    const operationRequest = buildGraphRequest({
      verb: operation.method,
      url: `/${url.replace(/^\/+/, '')}`,
      body,
      headers: operation.headers,
      defaultToken: batch.accessToken,
      files: attachedFiles(batch.files, operation.attachedFiles),
      linkBase: batch.linkBase,
      traceId: batch.traceId,
    });
    return await dispatch({ ...operationRequest, inBatch: true });
  } catch (error) {
    if (error instanceof GraphError) return presentError(outputOptions({}), error, batch.traceId);
    throw error;
  }
}

function attachedFiles(files: readonly UploadedFile[], names: readonly string[]): UploadedFile[] {
  return names.map((name) => {
    const file = files.find((candidate) => candidate.name === name);
    if (!file) throw GraphError.invalidParameter(`File ${name.slice(0, 100)} has not been attached`);
    return file;
  });
}

function parseAnswer(body: string): unknown {
  try {
    return body === '' ? undefined : JSON.parse(body);
  } catch {
    return undefined;
  }
}

function toItem(response: GraphResponse, includeHeaders: boolean): BatchItem {
  const item: BatchItem = { code: response.status };
  if (includeHeaders) item.headers = Object.entries(response.headers).map(([name, value]) => ({ name, value }));
  // A redirect and a 304 carry no body at all, not an empty one.
  if (response.status !== 302 && response.status !== 304) item.body = response.body;
  return item;
}

function batchError(message: string): GraphError {
  return new GraphError(1, message, { type: 'GraphBatchException' });
}

function parseBatch(text: string): Operation[] {
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch {
    throw batchError('The batch parameter must be a JSON array of requests');
  }
  if (!Array.isArray(list)) throw batchError('The batch parameter must be a JSON array of requests');
  if (list.length > MAX_BATCH_OPERATIONS) {
    throw batchError(`Too many requests in batch message. Maximum batch size is ${MAX_BATCH_OPERATIONS}`);
  }
  const operations = list.map((entry, index) => parseOperation(entry, index));
  const earlier = new Set<string>();
  operations.forEach((operation, index) => {
    for (const name of [...operation.dependsOn, ...operation.references]) {
      if (!earlier.has(name)) {
        throw batchError(
          `Request ${index} cannot depend on an  unresolved request with  name ${name.slice(0, 100)}. Requests can only depend on preceding requests`,
        );
      }
    }
    if (operation.name !== undefined) earlier.add(operation.name);
  });
  return operations;
}

function parseOperation(entry: unknown, index: number): Operation {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw batchError(`Request ${index} of the batch is not an object`);
  const fields = entry as Record<string, unknown>;
  const text = (key: string): string | undefined => {
    const value = fields[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') throw batchError(`The ${key} of request ${index} must be a string`);
    return value;
  };
  const relativeUrl = text('relative_url');
  if (relativeUrl === undefined) throw batchError(`Request ${index} of the batch has no relative_url`);
  const method = text('method') ?? 'GET';
  if (!['get', 'post', 'delete'].includes(method.toLowerCase())) throw batchError(`The method of request ${index} must be GET, POST or DELETE`);
  const body = typeof fields.body === 'object' && fields.body !== null ? new URLSearchParams(stringValues(fields.body)).toString() : (text('body') ?? '');
  const dependsOn = (text('depends_on') ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '');
  const omit = fields.omit_response_on_success;
  return {
    method,
    relativeUrl,
    body,
    name: text('name'),
    dependsOn,
    references: [...new Set([...referencedNames(relativeUrl), ...referencedNames(body)])],
    omitResponseOnSuccess: !(omit === false || omit === 'false' || omit === 0 || omit === '0'),
    attachedFiles: (text('attached_files') ?? '').split(',').map((name) => name.trim()).filter((name) => name !== ''),
    headers: parseHeaders(fields.headers, index),
  };
}

/** Headers as `["If-None-Match: \"…\""]` or `{"If-None-Match": "\"…\""}`; names in lower case. */
function parseHeaders(value: unknown, index: number): Record<string, string> {
  // No prototype: a header named `__proto__` stays a plain key.
  const headers = Object.create(null) as Record<string, string>;
  if (value === undefined || value === null) return headers;
  if (Array.isArray(value)) {
    for (const line of value) {
      const colon = typeof line === 'string' ? line.indexOf(':') : -1;
      if (colon <= 0) throw batchError(`The headers of request ${index} must be "Name: value" strings`);
      headers[(line as string).slice(0, colon).trim().toLowerCase()] = (line as string).slice(colon + 1).trim();
    }
    return headers;
  }
  if (typeof value !== 'object') throw batchError(`The headers of request ${index} must be an array or an object`);
  for (const [name, inner] of Object.entries(stringValues(value))) headers[name.toLowerCase()] = inner;
  return headers;
}

function stringValues(value: object): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const [key, inner] of Object.entries(value)) {
    if (inner !== undefined && inner !== null) out[key] = typeof inner === 'string' ? inner : JSON.stringify(inner);
  }
  return out;
}
