import type { JournalEntry } from './journal.js';
import { describeSystemError } from '../errors.js';

/**
 * A client of one server's control API (`/_loom/`), for test suites and `loom ctl`: each method
 * is one call, and a failure is thrown with the Graph error's message.
 */
export class ControlClient {
  constructor(
    readonly url: string,
    private readonly adminKey?: string,
  ) {}

  async call<T = unknown>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {};
    if (this.adminKey !== undefined) headers.authorization = `Bearer ${this.adminKey}`;
    if (method === 'POST') headers['content-type'] = 'application/json';
    const base = this.url.replace(/\/+$/, '');
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${base}/_loom${path}`, { method, headers, ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}) });
      text = await response.text();
    } catch (error) {
      throw new Error(`could not reach ${base}: ${describeSystemError(error)}; is Loom serving there?`, { cause: error });
    }
    let parsed: (T & { error?: { message?: string } }) | undefined;
    try {
      parsed = text === '' ? undefined : (JSON.parse(text) as T & { error?: { message?: string } });
    } catch {
      throw new Error(`${method} ${base}/_loom${path} answered HTTP ${response.status} with something that is not JSON; is ${base} a Loom server?`);
    }
    if (!response.ok) throw new Error(`${method} ${base}/_loom${path}: ${parsed?.error?.message ?? `HTTP ${response.status}`}`);
    return parsed as T;
  }

  reset(): Promise<unknown> {
    return this.call('POST', '/reset');
  }

  snapshot(name: string): Promise<unknown> {
    return this.call('POST', '/snapshots', { name });
  }

  restore(name: string): Promise<unknown> {
    return this.call('POST', `/snapshots/${encodeURIComponent(name)}/restore`);
  }

  readonly clock = {
    get: () => this.call<ClockState>('GET', '/clock'),
    /** Stops the clock at a time: Unix seconds or `2026-01-01T00:00:00+0000`. */
    set: (now: number | string) => this.call<ClockState>('POST', '/clock', { now }),
    /** Moves the clock on: seconds, or `"90s"`, `"15m"`, `"2h"`, `"1d"`. */
    advance: (by: number | string) => this.call<ClockState>('POST', '/clock', { advance: by }),
    /** Back to real time. */
    real: () => this.call<ClockState>('DELETE', '/clock'),
  };

  readonly faults = {
    add: (fault: Record<string, unknown>) => this.call<{ id: string }>('POST', '/faults', fault),
    list: async () => (await this.call<{ data: Array<Record<string, unknown>> }>('GET', '/faults')).data,
    /** Removes one fault, or every fault without an id. */
    clear: (id?: string) => this.call('DELETE', id === undefined ? '/faults' : `/faults/${encodeURIComponent(id)}`),
  };

  readonly requests = {
    list: async (filter: Record<string, string | number> = {}) => {
      const query = new URLSearchParams(Object.entries(filter).map(([key, value]) => [key, String(value)])).toString();
      return (await this.call<{ data: JournalItem[] }>('GET', `/requests${query ? `?${query}` : ''}`)).data;
    },
    clear: () => this.call('DELETE', '/requests'),
  };
}

export interface ClockState {
  now: string;
  unix: number;
  frozen: boolean;
  /** Seconds a running clock is ahead of real time (negative: behind; 0: real time); absent while frozen. */
  offset?: number;
}

/** A journal entry as the control API answers it: the time as an ISO 8601 string. */
export type JournalItem = Omit<JournalEntry, 'time'> & { time: string };
