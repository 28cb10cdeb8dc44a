import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { scopedIdsFor } from '../../src/auth/viewer.js';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type Reply, type TestServer } from '../helpers/server.js';

const TAIL =
  'does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api';

/** The real service's answer for an object it cannot serve: exactly these five keys, in this order. */
function assertUnsupported(reply: Reply, method: 'get' | 'post' | 'delete', id: string) {
  assert.equal(reply.status, 400, reply.text);
  assert.deepEqual(Object.keys(reply.body.error), ['message', 'type', 'code', 'error_subcode', 'fbtrace_id']);
  const { fbtrace_id, ...rest } = reply.body.error;
  assert.deepEqual(rest, {
    message: `Unsupported ${method} request. Object with ID '${id}' ${TAIL}`,
    type: 'GraphMethodException',
    code: 100,
    error_subcode: 33,
  });
  assert.match(fbtrace_id, /^[A-Za-z0-9_-]{11}$/);
}

describe('objects the viewer cannot reach', () => {
  let fixture: Fixture;
  let server: TestServer;
  const served = useFixtureServer();
  before(() => ({ fixture, server } = served));

  it('answers GET, POST and DELETE of an id that does not exist with subcode 33', async () => {
    const token = fixture.aliceToken;
    assertUnsupported(await server.get('/v2.4/404', { access_token: token }), 'get', '404');
    assertUnsupported(await server.form('/v2.4/404', { access_token: token, message: 'x' }), 'post', '404');
    assertUnsupported(await server.form('/v2.4/404', { access_token: token }, 'DELETE'), 'delete', '404');
    assertUnsupported(await server.get('/404', { access_token: token }), 'get', '404');
    // Before v2.4 the same error had no subcode (the unknown-object-subcode rule).
    const old = await server.get('/v2.0/404', { access_token: token });
    assert.equal(old.status, 400);
    assert.deepEqual(Object.keys(old.body.error), ['message', 'type', 'code', 'fbtrace_id']);
    assert.equal(old.body.error.type, 'GraphMethodException');
  });

  it('answers the same for an object that exists but is not visible', async () => {
    const hidden = fixture.postId(fixture.posts.daves, fixture.users.dave);
    assertUnsupported(await server.get(`/v2.4/${hidden}`, { access_token: fixture.aliceToken }), 'get', hidden);
  });

  it("answers the same for another app's id of a person", async () => {
    const other = await fixture.store.createApp({
      name: 'Other App',
      secret: randomBytes(16).toString('hex'),
      idKey: randomBytes(16).toString('hex'),
      createdTime: fixture.now,
    });
    const foreign = scopedIdsFor(other).scope(fixture.users.bob);
    assertUnsupported(await server.get(`/v2.4/${foreign}`, { access_token: fixture.aliceToken }), 'get', foreign);
  });
});
