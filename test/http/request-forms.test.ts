import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { before, describe, it } from 'node:test';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type TestServer } from '../helpers/server.js';

/** A POST with no Content-Type header at all, as npm `fbgraph` sends every form. */
function postWithoutType(url: string, body: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method: 'POST', headers: { 'content-length': Buffer.byteLength(body) } }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

describe('request forms over HTTP', () => {
  let fixture: Fixture;
  let server: TestServer;
  let token: string;
  const served = useFixtureServer();
  before(() => {
    ({ fixture, server } = served);
    token = fixture.aliceToken;
  });

  it('reads a body with no Content-Type, and one sent as text/plain, as a form', async () => {
    const untyped = await postWithoutType(`${server.url}/v2.4/me/feed`, new URLSearchParams({ access_token: token, message: 'No type at all' }).toString());
    assert.equal(untyped.status, 200, JSON.stringify(untyped.body));
    const read = await server.get(`/v2.4/${untyped.body.id}`, { access_token: token, fields: 'message' });
    assert.equal(read.body.message, 'No type at all');

    const plain = await server.fetch(`${server.url}/v2.4/me/feed`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain; charset=UTF-8' },
      body: new URLSearchParams({ access_token: token, message: 'Plain text form' }).toString(),
    });
    assert.equal(plain.status, 200, plain.text);
    assert.equal((await server.get(`/v2.4/${plain.body.id}`, { access_token: token, fields: 'message' })).body.message, 'Plain text form');

    const other = await server.fetch(`${server.url}/v2.4/me/feed`, { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<x/>' });
    assert.equal(other.status, 400);
    assert.equal(other.body.error.code, 100);
  });

  it('takes parameters from the query and the body, the body winning, for form, JSON and multipart bodies', async () => {
    const query = `?access_token=${token}&message=from+the+query&fields=message`;
    const form = await server.fetch(`${server.url}/v2.4/me/feed${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'message=from+the+form',
    });
    assert.equal(form.body.message, 'from the form', form.text);
    const json = await server.fetch(`${server.url}/v2.4/me/feed${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'from JSON' }),
    });
    assert.equal(json.body.message, 'from JSON', json.text);
    const parts = new FormData();
    parts.append('message', 'from multipart');
    const multipart = await server.fetch(`${server.url}/v2.4/me/feed${query}`, { method: 'POST', body: parts });
    assert.equal(multipart.body.message, 'from multipart', multipart.text);
    const queryOnly = await server.fetch(`${server.url}/v2.4/me/feed${query}`, { method: 'POST' });
    assert.equal(queryOnly.body.message, 'from the query', queryOnly.text);
  });

  it('accepts fields as a JSON array, nested expressions included, and refuses other JSON', async () => {
    const post = fixture.postId(fixture.posts.popular, fixture.users.alice);
    const asArray = await server.get(`/v2.4/${post}`, { access_token: token, fields: JSON.stringify(['message', 'likes.limit(2){name}']) });
    const asText = await server.get(`/v2.4/${post}`, { access_token: token, fields: 'message,likes.limit(2){name}' });
    assert.equal(asArray.status, 200, asArray.text);
    assert.deepEqual(asArray.body, asText.body);
    assert.equal(asArray.body.likes.data.length, 2);
    const me = await server.get('/v2.4/me', { access_token: token, fields: '["id","name"]' });
    assert.deepEqual(Object.keys(me.body), ['id', 'name']);

    for (const fields of ['[1,2]', '{"a":1}', '["id",', '[']) {
      const bad = await server.get('/v2.4/me', { access_token: token, fields });
      assert.equal(bad.status, 400, fields);
      assert.equal(bad.body.error.code, 100, fields);
    }
  });

  it('lets method= override the verb: a GET creates, a POST deletes, a POST reads', async () => {
    const created = await server.get('/v2.4/me/feed', { access_token: token, method: 'post', message: 'Made by a GET' });
    assert.equal(created.status, 200, created.text);
    const id = created.body.id as string;
    const read = await server.form(`/v2.4/${id}`, { access_token: token, method: 'get', fields: 'message' });
    assert.deepEqual(read.body, { message: 'Made by a GET', id });
    const deleted = await server.form(`/v2.4/${id}`, { access_token: token, method: 'DELETE' });
    assert.deepEqual(deleted.body, { success: true });
    assert.equal((await server.get(`/v2.4/${id}`, { access_token: token })).status, 400);
  });

  it('never fails on format, locale, transport, sdk or parameters it does not know', async () => {
    const reply = await server.get('/v2.4/me', {
      access_token: token,
      fields: 'name',
      format: 'json',
      locale: 'fr_FR',
      transport: 'cors',
      sdk: 'joey',
      suppress_http_code: '0',
      something_new: 'x',
    });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body.name, 'Alice Arden');
  });
});
