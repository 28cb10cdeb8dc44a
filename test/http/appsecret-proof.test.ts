import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { registerApp } from '../../src/auth/apps.js';
import { appSecretProof } from '../../src/auth/appsecret-proof.js';
import { recordConsent } from '../../src/auth/grants.js';
import { issueUserToken } from '../../src/auth/tokens.js';
import { scopedIdsFor } from '../../src/auth/viewer.js';
import { graphSchema } from '../../src/graph/graph-schema.js';
import type { AppRecord } from '../../src/store/auth-store.js';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type Reply, type TestServer } from '../helpers/server.js';

const proofOf = (secret: string, token: string) => createHmac('sha256', secret).update(token).digest('hex');

function assertProofError(reply: Reply, message: string): void {
  assert.equal(reply.status, 400);
  const { fbtrace_id, ...error } = reply.body.error;
  assert.deepEqual(error, { message, type: 'GraphMethodException', code: 100 });
}

const WRONG = 'Invalid appsecret_proof provided in the API argument';
const MISSING = 'API calls from the server require an appsecret_proof argument';

describe('appsecret_proof', () => {
  const served = useFixtureServer();
  let fixture: Fixture;
  let server: TestServer;
  let strict: AppRecord;
  let strictToken: string;

  before(async () => {
    ({ fixture, server } = served);
    strict = await registerApp(fixture.store, { name: 'Strict App', requireProof: true, now: fixture.now });
    const scopes = ['public_profile', 'user_friends'];
    await recordConsent(fixture.store, graphSchema().permissions, strict.id, fixture.users.alice, { granted: scopes, declined: [] });
    // The likers use this app too, so its likes lists show them.
    await fixture.store.setGrants(strict.id, fixture.likers.map((liker) => ({ userId: liker, grants: [{ scope: 'public_profile', status: 'granted' as const }] })));
    strictToken = (await issueUserToken(fixture.store, { appId: strict.id, userId: fixture.users.alice, scopes, expiresIn: 3600, now: fixture.now })).accessToken;
  });

  it('is the lowercase hex HMAC-SHA256 of the token keyed by the app secret', () => {
    assert.equal(appSecretProof('app-secret', 'EAALexample'), '2efd9ac86c97514dbb09a128d6e3cd797e68f79ac96342af8ff14fc01cf85a30');
  });

  it('is optional for an app that does not require it, but a wrong one is always refused', async () => {
    const token = fixture.aliceToken;
    assert.equal((await server.get('/v2.4/me', { access_token: token })).status, 200);
    assert.equal((await server.get('/v2.4/me', { access_token: token, appsecret_proof: proofOf(fixture.app.secret, token) })).status, 200);
    assertProofError(await server.get('/v2.4/me', { access_token: token, appsecret_proof: 'deadbeef' }), WRONG);
    assertProofError(await server.get('/v2.4/me', { access_token: token, appsecret_proof: proofOf(strict.secret, token) }), WRONG);
    assertProofError(await server.get('/v2.4/me', { access_token: token, appsecret_proof: proofOf(fixture.app.secret, `${token}x`) }), WRONG);
  });

  it('is required by an app created with requireProof, for user and app tokens alike', async () => {
    assertProofError(await server.get('/v2.4/me', { access_token: strictToken }), MISSING);
    assertProofError(await server.get('/v2.4/me', { access_token: strictToken, appsecret_proof: '' }), MISSING);
    assertProofError(await server.get('/v2.4/me', { access_token: strictToken, appsecret_proof: proofOf(fixture.app.secret, strictToken) }), WRONG);
    const me = await server.get('/v2.4/me', { access_token: strictToken, appsecret_proof: proofOf(strict.secret, strictToken) });
    assert.equal(me.status, 200);
    assert.equal(me.body.name, 'Alice Arden');

    const appToken = `${strict.id}|${strict.secret}`;
    assertProofError(await server.get(`/v2.4/${strict.id}`, { access_token: appToken }), MISSING);
    assert.equal((await server.get(`/v2.4/${strict.id}`, { access_token: appToken, appsecret_proof: proofOf(strict.secret, appToken) })).status, 200);
  });

  it('is read from a form body and from the Authorization header’s token', async () => {
    const form = await server.fetch(`${server.url}/v2.4/me`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ method: 'get', access_token: strictToken, appsecret_proof: proofOf(strict.secret, strictToken) }).toString(),
    });
    assert.equal(form.status, 200, form.text);
    const header = await server.fetch(`${server.url}/v2.4/me?appsecret_proof=${proofOf(strict.secret, strictToken)}`, {
      headers: { authorization: `OAuth ${strictToken}` },
    });
    assert.equal(header.status, 200);
    const unproven = await server.fetch(`${server.url}/v2.4/me`, { headers: { authorization: `OAuth ${strictToken}` } });
    assertProofError(unproven, MISSING);
  });

  it('travels in paging links, which work as they stand', async () => {
    const proof = proofOf(strict.secret, strictToken);
    const post = `${scopedIdsFor(strict).scope(fixture.users.alice)}_${fixture.posts.popular}`;
    const first = await server.get(`/v2.4/${post}/likes`, { access_token: strictToken, appsecret_proof: proof, limit: '1' });
    assert.equal(first.status, 200, first.text);
    const next = new URL(first.body.paging.next);
    assert.equal(next.searchParams.get('appsecret_proof'), proof);
    const second = await server.fetch(next.toString().replace(/^https?:\/\/[^/]+/, server.url));
    assert.equal(second.status, 200);
    assert.equal(second.body.data.length, 1);
    assert.notEqual(second.body.data[0].id, first.body.data[0].id);
  });

  it('guards debug_token like every other call', async () => {
    const appToken = `${strict.id}|${strict.secret}`;
    assertProofError(await server.get('/v2.4/debug_token', { access_token: appToken, input_token: strictToken }), MISSING);
    const proven = await server.get('/v2.4/debug_token', { access_token: appToken, input_token: strictToken, appsecret_proof: proofOf(strict.secret, appToken) });
    assert.equal(proven.status, 200);
    assert.equal(proven.body.data.is_valid, true);
  });
});
