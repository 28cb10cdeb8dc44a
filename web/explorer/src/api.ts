/** Talking to the server the page came from. */
import type { PreparedCall } from './graph-call.js';

export interface Answer {
  /** HTTP status; 0 when no answer arrived at all. */
  status: number;
  statusText: string;
  /** Milliseconds from sending to the whole body read. */
  ms: number;
  traceId: string | null;
  /** The response headers the page may read, as the server sent them (lower-case names, in order). */
  headers: Array<[string, string]>;
  text: string;
  /** The body parsed, or undefined when it is not JSON. */
  json: unknown;
  /** Set when the request never got an answer (server down, offline). */
  networkError?: string;
}

export async function send(prepared: PreparedCall): Promise<Answer> {
  const started = performance.now();
  const init: RequestInit = { method: prepared.method, cache: 'no-store', credentials: 'omit' };
  if (prepared.body) init.body = new URLSearchParams(prepared.body);
  try {
    const response = await fetch(prepared.url, init);
    const text = await response.text();
    return {
      status: response.status,
      statusText: response.statusText,
      ms: performance.now() - started,
      traceId: response.headers.get('x-fb-trace-id'),
      headers: [...response.headers],
      text,
      json: parseJson(text),
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { status: 0, statusText: '', ms: performance.now() - started, traceId: null, headers: [], text: '', json: undefined, networkError: message };
  }
}

/** A GET whose JSON body is all that matters; undefined when the request fails in any way. */
export async function getJson(url: string): Promise<unknown> {
  try {
    const response = await fetch(url, { cache: 'no-store', credentials: 'omit' });
    return response.ok ? parseJson(await response.text()) : undefined;
  } catch {
    return undefined;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
