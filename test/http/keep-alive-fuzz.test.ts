import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { runFuzz } from '../../bench/fuzz-client.js';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import type { TestServer } from '../helpers/server.js';

/** A short run of the fuzz (`npm run fuzz` sends 60,000). */
const REQUESTS = 2000;

describe('random requests over kept-alive connections', () => {
  const served = useFixtureServer();
  let fixture: Fixture;
  let server: TestServer;

  before(() => ({ fixture, server } = served));

  it(`answers ${REQUESTS} of them without a connection reset, a server error or an error outside the envelope`, async () => {
    const { users, posts } = fixture;
    const ids = [
      fixture.scoped(users.alice),
      fixture.scoped(users.bob),
      fixture.postId(posts.popular, users.alice),
      fixture.postId(posts.bobs, users.bob),
      String(fixture.album),
      ...fixture.photos.map(String),
    ];
    const counts = await runFuzz(server.url, { token: fixture.aliceToken, ids }, { requests: REQUESTS, concurrency: 8, seed: 'keep-alive-fuzz' });
    const report = JSON.stringify(counts, null, 1);
    assert.equal(counts.requests, REQUESTS, report);
    assert.equal(counts.resets, 0, report);
    assert.deepEqual(counts.errors, {}, report);
    assert.equal(counts.statuses['5xx'] ?? 0, 0, report);
    assert.equal(counts.outsideEnvelope, 0, report);
    // The run reached the kinds of answer it is about: successes, refusals, and early answers that closed.
    assert.ok((counts.statuses['2xx'] ?? 0) > 0 && (counts.statuses['4xx'] ?? 0) > 0 && counts.closing > 0, report);
  });
});
