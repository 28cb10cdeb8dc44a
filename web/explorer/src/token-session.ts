/**
 * The token the Explorer queries with, and what is known about it. Kept for the tab only
 * (sessionStorage), so it survives a reload or the same-tab sign-in, but not the tab.
 */
import { isRecord } from './guards.js';
import { readStored, writeStored } from './storage.js';

export interface TokenState {
  token: string;
  appId?: string;
  /** Browser clock, in milliseconds; 0 when it never expires; absent when unknown. */
  expiresAt?: number;
  scopes?: string[];
  userId?: string;
  userName?: string;
  /** The test user it belongs to, when it came from the app's list of test users. */
  testUser?: string;
  /** Set once the server refused it, with the server's words. */
  refused?: string;
}

const KEY = 'loom.explorer.token';

function isTokenState(value: unknown): value is TokenState {
  return isRecord(value) && typeof value.token === 'string' && value.token !== '';
}

export class TokenSession {
  private state: TokenState | undefined = readStored(sessionStorage, KEY, isTokenState);
  private readonly listeners: Array<(state: TokenState | undefined, tokenChanged: boolean) => void> = [];

  get current(): TokenState | undefined {
    return this.state;
  }

  /** Milliseconds left, 0 once expired; undefined when the token never expires or it is not known when. */
  remaining(now = Date.now()): number | undefined {
    const expiresAt = this.state?.expiresAt;
    return expiresAt === undefined || expiresAt === 0 ? undefined : Math.max(0, expiresAt - now);
  }

  isUsable(now = Date.now()): boolean {
    return this.state !== undefined && this.state.refused === undefined && this.remaining(now) !== 0;
  }

  onChange(listener: (state: TokenState | undefined, tokenChanged: boolean) => void): void {
    this.listeners.push(listener);
  }

  replace(state: TokenState | undefined): void {
    const tokenChanged = state?.token !== this.state?.token;
    this.state = state;
    this.save(tokenChanged);
  }

  /** Adds what was learnt about the token, unless it was replaced meanwhile. */
  update(token: string, facts: Partial<TokenState>): void {
    if (this.state?.token !== token) return;
    this.state = { ...this.state, ...facts, token };
    this.save(false);
  }

  private save(tokenChanged: boolean): void {
    writeStored(sessionStorage, KEY, this.state);
    for (const listener of this.listeners) listener(this.state, tokenChanged);
  }
}
