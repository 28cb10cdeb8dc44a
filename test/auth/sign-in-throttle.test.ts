import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_SIGN_IN_LIMITS, SignInThrottle, type Attempt } from '../../src/auth/sign-in-throttle.js';
import { Clock } from '../../src/clock/clock.js';

const MINUTE = 60;

function fail(throttle: SignInThrottle, email: string, address: string, times = 1): void {
  for (let i = 0; i < times; i++) assert.equal(throttle.attempt(email, address).allowed, true, `attempt ${i + 1} for ${email} from ${address}`);
}

function retryAfter(attempt: Attempt): number {
  assert.equal(attempt.allowed, false);
  return attempt.allowed ? 0 : attempt.retryAfter;
}

describe('the sign-in throttle', () => {
  it('by default allows 10 failures per email and 50 per address in 15 minutes', () => {
    assert.deepEqual(DEFAULT_SIGN_IN_LIMITS, { perEmail: 10, perAddress: 50, window: 15 * MINUTE });
  });

  it('refuses an email after its limit of failures, whatever the case, until the oldest leaves the window', () => {
    let now = 1_000;
    const clock = Clock.frozenAt(now);
    const throttle = new SignInThrottle({ perEmail: 3, perAddress: 100, window: 15 * MINUTE }, clock);
    fail(throttle, 'Ann@Example.com', '10.0.0.1');
    now += 5 * MINUTE; clock.freeze(now);
    fail(throttle, 'ann@example.com', '10.0.0.2', 2);
    assert.equal(retryAfter(throttle.attempt(' ANN@example.com ', '10.0.0.3')), 10 * MINUTE, 'the first failure leaves in 10 minutes');
    assert.equal(throttle.attempt('bob@example.com', '10.0.0.1').allowed, true, 'other emails are not affected');

    now += 10 * MINUTE - 1; clock.freeze(now);
    assert.equal(retryAfter(throttle.attempt('ann@example.com', '10.0.0.1')), 1);
    now += 1; clock.freeze(now);
    assert.equal(throttle.attempt('ann@example.com', '10.0.0.1').allowed, true);
    assert.equal(retryAfter(throttle.attempt('ann@example.com', '10.0.0.1')), 5 * MINUTE, 'full again: the next oldest leaves in 5 minutes');
  });

  it('refuses an address after its limit of failures, for every email', () => {
    let now = 1_000;
    const clock = Clock.frozenAt(now);
    const throttle = new SignInThrottle({ perEmail: 100, perAddress: 4, window: 15 * MINUTE }, clock);
    for (const email of ['a@x.example', 'b@x.example', 'c@x.example', 'd@x.example']) fail(throttle, email, '192.0.2.7');
    assert.equal(retryAfter(throttle.attempt('new@x.example', '192.0.2.7')), 15 * MINUTE);
    assert.equal(throttle.attempt('new@x.example', '192.0.2.8').allowed, true, 'other addresses are not affected');
    now += 15 * MINUTE; clock.freeze(now);
    assert.equal(throttle.attempt('new@x.example', '192.0.2.7').allowed, true);
  });

  it("forgets the email's failures on success and does not count the successful attempt against the address", () => {
    const throttle = new SignInThrottle({ perEmail: 3, perAddress: 4, window: 15 * MINUTE }, Clock.frozenAt(1_000));
    fail(throttle, 'ann@example.com', '10.0.0.1', 2);
    const right = throttle.attempt('ann@example.com', '10.0.0.1');
    assert.ok(right.allowed);
    right.succeeded();
    fail(throttle, 'ann@example.com', '10.0.0.1', 2);
    assert.equal(retryAfter(throttle.attempt('ann@example.com', '10.0.0.1')), 15 * MINUTE, 'four failures from the address, not five');
    assert.equal(retryAfter(throttle.attempt('bob@example.com', '10.0.0.1')), 15 * MINUTE);
  });

  it('counts attempts at once, so attempts sent together cannot all pass before any has failed', () => {
    const throttle = new SignInThrottle({ perEmail: 3, perAddress: 100, window: 15 * MINUTE }, Clock.frozenAt(1_000));
    const started = Array.from({ length: 5 }, () => throttle.attempt('ann@example.com', '10.0.0.1'));
    assert.deepEqual(started.map((attempt) => attempt.allowed), [true, true, true, false, false]);
  });

  it('remembers a bounded number of emails and addresses, forgetting the least recently failed', () => {
    const throttle = new SignInThrottle({ perEmail: 1, perAddress: 100, window: 15 * MINUTE }, Clock.frozenAt(1_000), 3);
    for (const email of ['a@x', 'b@x', 'c@x']) fail(throttle, email, `addr-${email}`);
    assert.equal(throttle.attempt('a@x', 'elsewhere').allowed, false);
    fail(throttle, 'd@x', 'addr-d');
    assert.equal(throttle.attempt('b@x', 'elsewhere').allowed, false, 'b is still remembered');
    assert.equal(throttle.attempt('a@x', 'elsewhere').allowed, true, 'a, the oldest, was forgotten');
  });

  it('refuses limits that are not positive whole numbers', () => {
    for (const limits of [{ perEmail: 0 }, { perAddress: -1 }, { window: 1.5 }]) {
      assert.throws(() => new SignInThrottle({ ...DEFAULT_SIGN_IN_LIMITS, ...limits }, Clock.frozenAt(0)), RangeError);
    }
  });
});
