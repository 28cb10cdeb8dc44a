import { GraphError } from '../errors.js';
import type { Store } from '../store/store.js';
import type { ObjectId } from '../ids.js';
import type { Clock } from '../clock/clock.js';

/**
 * Rate limits as the real service counts them: calls over a rolling hour, per app and per user
 * of an app, against a budget of 200 calls per hour for each of the app's users (or the app's
 * own `calls_per_hour`). Counts live in the store, so they survive restarts and every process
 * shares them. Off unless the server is started with them.
 */

/** The real service's formula: 200 calls per hour for each user of the app. */
const CALLS_PER_USER_PER_HOUR = 200;
const MINUTE = 60;
const WINDOW_MINUTES = 60;

/** What one call's accounting decided: the usage headers of its answer, and its error when over budget. */
export interface Accounting {
  headers: Record<string, string>;
  error: GraphError | undefined;
}

export class RateLimits {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /**
   * Counts one call of the app (and of its user, for a user token, or of its page, for a page
   * token) and checks both budgets. A page's calls are answered in `X-Page-Usage` besides the
   * app's `X-App-Usage`, and a page over its budget gets the page limit's own error.
   */
  async account(appId: ObjectId, caller: { id: ObjectId; kind: 'user' | 'page' } | null): Promise<Accounting> {
    const minute = Math.floor(this.clock.now() / MINUTE);
    const appSubject = `app:${appId}`;
    const callerSubject = caller && `${caller.kind}:${appId}:${caller.id}`;
    const [calls, users, objects] = await Promise.all([
      this.store.countCalls(callerSubject === null ? [appSubject] : [appSubject, callerSubject], minute, minute - WINDOW_MINUTES + 1),
      this.store.countAppUsers(appId),
      this.store.getObjects([appId]),
    ]);
    const own = objects.get(appId)?.data.calls_per_hour;
    const appBudget = typeof own === 'number' && own > 0 ? own : CALLS_PER_USER_PER_HOUR * Math.max(1, users);
    const appCalls = calls.get(appSubject)!;
    const headers: Record<string, string> = { 'X-App-Usage': usage(appCalls, appBudget) };
    if (caller !== null) {
      const callerBudget = Math.min(appBudget, CALLS_PER_USER_PER_HOUR);
      const callerCalls = calls.get(callerSubject!)!;
      if (caller.kind === 'page') headers['X-Page-Usage'] = usage(callerCalls, callerBudget);
      if (callerCalls > callerBudget) return { headers, error: CALLER_LIMITS[caller.kind]() };
    }
    if (appCalls > appBudget) {
      return { headers, error: new GraphError(4, '(#4) Application request limit reached', { status: 403, transient: true }) };
    }
    return { headers, error: undefined };
  }
}

/** What a person or a page over its own budget is answered; "limited reached" is the real service's wording. */
const CALLER_LIMITS = {
  user: () => new GraphError(17, '(#17) User request limit reached', { status: 403, transient: true }),
  page: () => new GraphError(32, '(#32) Page request limited reached', { status: 403, transient: true }),
};

/** Whole-number percentages of the budget, always valid JSON; Loom budgets no CPU or time. */
function usage(calls: number, budget: number): string {
  return JSON.stringify({ call_count: Math.floor((calls * 100) / budget), total_cputime: 0, total_time: 0 });
}
