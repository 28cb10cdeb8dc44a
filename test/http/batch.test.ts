import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { before, describe, it } from 'node:test';
import type { Fixture } from '../helpers/fixture.js';
import { pngBytes } from '../helpers/images.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type Reply, type TestServer } from '../helpers/server.js';

type Item = { code: number; headers?: { name: string; value: string }[]; body?: string } | null | undefined;

const header = (item: Item, name: string) => item?.headers?.find((entry) => entry.name.toLowerCase() === name.toLowerCase())?.value;

describe('batch requests over HTTP', () => {
  let fixture: Fixture;
  let server: TestServer;
  let token: string;
  const served = useFixtureServer();
  before(() => {
    ({ fixture, server } = served);
    token = fixture.aliceToken;
  });

  const batch = (operations: unknown[], extra: Record<string, string> = {}, path = '/v2.4/') =>
    server.form(path, { access_token: token, batch: JSON.stringify(operations), ...extra });
  const items = (reply: Reply): Item[] => {
    assert.equal(reply.status, 200, reply.text);
    assert.ok(Array.isArray(reply.body), reply.text);
    return reply.body as Item[];
  };
  const bodyOf = (item: Item) => JSON.parse(item!.body!);

  it('answers each operation as it would be answered alone, in order, on / and /vX.Y/', async () => {
    const operations = [
      { method: 'GET', relative_url: 'me?fields=id,name' },
      { method: 'get', relative_url: '/v2.4/me/friends?limit=1' },
      { method: 'POST', relative_url: 'me/feed', body: 'message=Batched+hello' },
      { method: 'GET', relative_url: '404404' },
    ];
    for (const path of ['/', '/v2.4/']) {
      const answer = items(await batch(operations, {}, path));
      assert.equal(answer.length, 4);
      const alone = await server.get('/v2.4/me', { access_token: token, fields: 'id,name' });
      assert.equal(answer[0]!.code, 200);
      assert.equal(answer[0]!.body, alone.text, 'the body is the JSON text of the answer alone');
      assert.equal(header(answer[0], 'ETag'), alone.headers.get('etag'));
      assert.match(header(answer[0], 'Content-Type')!, /^application\/json/);
      assert.equal(bodyOf(answer[1]).data.length, 1);
      assert.match(bodyOf(answer[2]).id, /^\d+_\d+$/);
      const read = await server.get(`/v2.4/${bodyOf(answer[2]).id}`, { access_token: token, fields: 'message' });
      assert.equal(read.body.message, 'Batched hello');
      const missing = await server.get('/v2.4/404404', { access_token: token });
      assert.equal(answer[3]!.code, 400);
      assert.deepEqual({ ...bodyOf(answer[3]).error, fbtrace_id: 0 }, { ...missing.body.error, fbtrace_id: 0 });
    }
  });

  it('runs the 50-operation scenario: reads, writes, an upload, a depends_on chain feeding ids=, a failure and its dependant', async () => {
    const image = pngBytes(4, 3, 7);
    const operations: Record<string, unknown>[] = [
      { method: 'GET', relative_url: 'me/friends?limit=3', name: 'friends' },
      { method: 'GET', relative_url: '?ids={result=friends:$.data.*.id}&fields=name', depends_on: 'friends' },
      { method: 'POST', relative_url: 'me/photos', attached_files: 'picture', body: 'caption=From+a+batch' },
      { method: 'POST', relative_url: 'me/feed', body: 'message=Chained', name: 'post' },
      { method: 'GET', relative_url: '{result=post:$.id}?fields=message', omit_response_on_success: false },
      { method: 'GET', relative_url: 'no_such_alias', name: 'broken' },
      { method: 'GET', relative_url: 'me?fields=name', depends_on: 'broken' },
      { method: 'POST', relative_url: 'me/photos?fields=width,height', attached_files: 'second' },
    ];
    while (operations.length < 50) operations.push({ method: 'GET', relative_url: `me?fields=id&n=${operations.length}` });
    const form = new FormData();
    form.append('access_token', token);
    form.append('batch', JSON.stringify(operations));
    form.append('picture', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'picture.png');
    form.append('second', new Blob([new Uint8Array(pngBytes(2, 5, 9))], { type: 'image/png' }), 'second.png');
    const answer = items(await server.fetch(`${server.url}/v2.4/`, { method: 'POST', body: form }));
    assert.equal(answer.length, 50);

    assert.equal(answer[0], null, 'a named read that a later operation depends on is left out');
    const friends = await server.get('/v2.4/me/friends', { access_token: token, limit: '3' });
    const friendIds = friends.body.data.map((friend: { id: string }) => friend.id);
    assert.equal(answer[1]!.code, 200);
    assert.deepEqual(Object.keys(bodyOf(answer[1])), friendIds);
    assert.deepEqual(bodyOf(answer[1])[friendIds[0]], { name: friends.body.data[0].name, id: friendIds[0] });

    assert.equal(answer[2]!.code, 200, answer[2]!.body);
    const photo = await server.get(`/v2.4/${bodyOf(answer[2]).id}`, { access_token: token, fields: 'name,width,height' });
    assert.deepEqual(photo.body, { name: 'From a batch', width: 4, height: 3, id: bodyOf(answer[2]).id });

    assert.equal(answer[3], null, 'the post is referenced, so its answer is left out');
    assert.equal(bodyOf(answer[4]).message, 'Chained');

    assert.equal(answer[5]!.code, 404);
    assert.equal(bodyOf(answer[5]).error.code, 803);
    assert.equal(answer[6], null, 'an operation whose dependency failed answers null');
    assert.deepEqual({ ...bodyOf(answer[7]), id: 'x' }, { width: 2, height: 5, id: 'x' }, 'a second file, attached to another operation');
    for (let index = 8; index < 50; index++) {
      assert.equal(answer[index]!.code, 200);
      assert.deepEqual(bodyOf(answer[index]), { id: fixture.scoped(fixture.users.alice) });
    }
  });

  it('refuses 51 operations, malformed batches and references to unknown or later names as a whole', async () => {
    const many = Array.from({ length: 51 }, () => ({ method: 'GET', relative_url: 'me' }));
    const tooMany = await batch(many);
    assert.equal(tooMany.status, 400);
    assert.deepEqual(
      { ...tooMany.body.error, fbtrace_id: undefined },
      { message: 'Too many requests in batch message. Maximum batch size is 50', type: 'GraphBatchException', code: 1, fbtrace_id: undefined },
    );
    const later = await batch([
      { method: 'GET', relative_url: 'me', depends_on: 'f' },
      { method: 'GET', relative_url: 'me', name: 'f' },
    ]);
    assert.equal(later.status, 400);
    assert.equal(later.body.error.type, 'GraphBatchException');
    assert.equal(
      later.body.error.message,
      'Request 0 cannot depend on an  unresolved request with  name f. Requests can only depend on preceding requests',
    );
    const unknown = await batch([{ method: 'GET', relative_url: '{result=nobody:$.id}' }]);
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.error.message, /^Request 0 cannot depend on an {2}unresolved request with {2}name nobody\./);
    for (const text of ['not json', '{"method":"GET"}', '[1]', '[{"method":"GET"}]', '[{"method":"PUT","relative_url":"me"}]']) {
      const malformed = await server.form('/v2.4/', { access_token: token, batch: text });
      assert.equal(malformed.status, 400, text);
      assert.equal(malformed.body.error.type, 'GraphBatchException', text);
    }
  });

  it('lets an operation carry its own token, of another user, in its URL or body, and checks appsecret_proof per token', async () => {
    const bobToken = await fixture.tokenFor(fixture.users.bob, ['public_profile', 'user_posts']);
    const answer = items(
      await batch([
        { method: 'GET', relative_url: 'me?fields=name' },
        { method: 'GET', relative_url: `me?fields=name&access_token=${bobToken}` },
        { method: 'POST', relative_url: 'me?method=get', body: `fields=name&access_token=${bobToken}` },
        { method: 'GET', relative_url: 'me?fields=name&access_token=not-a-token' },
      ]),
    );
    assert.equal(bodyOf(answer[0]).name, 'Alice Arden');
    assert.equal(bodyOf(answer[1]).name, 'Bob Brook');
    assert.equal(bodyOf(answer[2]).name, 'Bob Brook');
    assert.equal(answer[3]!.code, 400);
    assert.equal(bodyOf(answer[3]).error.code, 190);
    assert.match(header(answer[3], 'WWW-Authenticate')!, /^OAuth "Facebook Platform" "invalid_token"/);

    const proofed = await batch([{ method: 'GET', relative_url: 'me?fields=name' }], { appsecret_proof: 'f'.repeat(64) });
    assert.equal(proofed.status, 400, 'the batch token is checked with the batch proof, failing the whole call');
    assert.equal(proofed.body.error.code, 100);
    assert.match(proofed.body.error.message, /appsecret_proof/);
    const badToken = await server.form('/v2.4/', { access_token: 'nonsense', batch: '[{"method":"GET","relative_url":"me"}]' });
    assert.equal(badToken.status, 400);
    assert.equal(badToken.body.error.code, 190);
    const ownOnly = await server.form('/v2.4/', { batch: JSON.stringify([{ method: 'GET', relative_url: `me?fields=name&access_token=${bobToken}` }, { method: 'GET', relative_url: 'me' }]) });
    const [withOwn, without] = items(ownOnly);
    assert.equal(bodyOf(withOwn).name, 'Bob Brook');
    assert.equal(bodyOf(without).error.code, 2500, 'no token at all: the error the request gets alone');
  });

  it('honours headers as an array or an object, If-None-Match with a 304 item, include_headers=false and 302 items', async () => {
    const first = items(await batch([{ method: 'GET', relative_url: 'me?fields=name' }]));
    const etag = header(first[0], 'ETag')!;
    assert.match(etag, /^"[0-9a-f]{40}"$/);
    const answer = items(
      await batch([
        { method: 'GET', relative_url: 'me?fields=name', headers: [`If-None-Match: ${etag}`] },
        { method: 'GET', relative_url: 'me?fields=name', headers: { 'If-None-Match': '"other", *' } },
        { method: 'GET', relative_url: 'me?fields=name', headers: { 'If-None-Match': '"0000000000000000000000000000000000000000"' } },
        { method: 'GET', relative_url: 'me/picture' },
      ]),
    );
    assert.deepEqual({ code: answer[0]!.code, body: answer[0]!.body, etag: header(answer[0], 'ETag') }, { code: 304, body: undefined, etag });
    assert.equal(answer[1]!.code, 304);
    assert.equal(answer[2]!.code, 200);
    assert.equal(answer[3]!.code, 302);
    assert.equal(answer[3]!.body, undefined);
    assert.match(header(answer[3], 'Location')!, /^http/);

    const bare = items(await batch([{ method: 'GET', relative_url: 'me?fields=name' }], { include_headers: 'false' }));
    assert.deepEqual(Object.keys(bare[0]!), ['code', 'body']);
  });

  it('walks JSONPath references without evaluating scripts, and refuses batches inside batches', async () => {
    const answer = items(
      await batch([
        { method: 'GET', relative_url: 'me/friends?limit=2', name: 'two', omit_response_on_success: false },
        { method: 'GET', relative_url: '{result=two:$.data[1].id}?fields=name' },
        { method: 'GET', relative_url: '{result=two:$..[?(@.id)]}' },
        { method: 'POST', relative_url: '/', body: 'batch=[]' },
      ]),
    );
    const friends = bodyOf(answer[0]).data;
    assert.equal(friends.length, 2);
    assert.deepEqual(bodyOf(answer[1]), { name: friends[1].name, id: friends[1].id });
    assert.equal(answer[2]!.code, 400);
    assert.equal(bodyOf(answer[2]).error.code, 100);
    assert.equal(answer[3]!.code, 400);
    assert.equal(bodyOf(answer[3]).error.type, 'GraphBatchException');
  });

  it('reads references whose characters are percent-encoded, as koala sends them, in the query, the path and the body', async () => {
    const friends = await server.get('/v2.4/me/friends', { access_token: token, limit: '5' });
    const friendIds = friends.body.data.map((friend: { id: string }) => friend.id);
    assert.ok(friendIds.length > 1);
    // koala's own batch specs ("relating requests"), with every query value encoded as koala's get_objects does.
    const referring = { method: 'get', relative_url: '?ids=%7Bresult%3Dget-friends%3A%24.data.*.id%7D' };
    const omitted = items(await batch([{ method: 'get', relative_url: 'me/friends?limit=5', name: 'get-friends' }, referring]));
    assert.equal(omitted[0], null, 'the operation a reference reads is left out');
    assert.equal(omitted[1]!.code, 200, omitted[1]!.body);
    assert.deepEqual(Object.keys(bodyOf(omitted[1])), friendIds);
    const kept = items(await batch([{ method: 'get', relative_url: 'me/friends?limit=5', name: 'get-friends', omit_response_on_success: false }, referring]));
    assert.deepEqual(bodyOf(kept[0]).data.map((friend: { id: string }) => friend.id), friendIds);
    assert.deepEqual(Object.keys(bodyOf(kept[1])), friendIds);
    const unresolved = await batch([
      { method: 'get', relative_url: 'me/friends?limit=5' },
      { method: 'get', relative_url: '?ids=%7Bresult%3Di-dont-exist%3A%24.data.%2A.id%7D' },
    ]);
    assert.equal(unresolved.status, 400, unresolved.text);
    assert.equal(unresolved.body.error.type, 'GraphBatchException');
    assert.match(unresolved.body.error.message, /name i-dont-exist\./);

    const answer = items(
      await batch([
        { method: 'POST', relative_url: 'me/feed', body: 'message=Encoded', name: 'post' },
        { method: 'GET', relative_url: '%7Bresult%3Dpost%3A%24.id%7D?fields=message' },
        { method: 'POST', relative_url: '%7bresult%3dpost%3a%24.id%7d/comments', body: 'message=On+%7Bresult%3Dpost%3A%24.id%7D' },
        { method: 'POST', relative_url: 'me/feed', body: { message: 'Object {result=post:$.id}' } },
        { method: 'POST', relative_url: 'me/feed', body: 'message=%7Bresult%3Dnot+a+reference' },
      ]),
    );
    assert.equal(answer[0], null);
    const postId = bodyOf(answer[1]).id;
    assert.deepEqual(bodyOf(answer[1]), { message: 'Encoded', id: postId });
    const comment = await server.get(`/v2.4/${bodyOf(answer[2]).id}`, { access_token: token, fields: 'message' });
    assert.equal(comment.body.message, `On ${postId}`);
    const fromObject = await server.get(`/v2.4/${bodyOf(answer[3]).id}`, { access_token: token, fields: 'message' });
    assert.equal(fromObject.body.message, `Object ${postId}`, 'a body given as an object is encoded, and its references still read');
    const literal = await server.get(`/v2.4/${bodyOf(answer[4]).id}`, { access_token: token, fields: 'message' });
    assert.equal(literal.body.message, '{result=not a reference', 'text that only starts like a reference is kept as sent');
  });

  it('takes the batch from a form with no Content-Type, a JSON body and the query string', async () => {
    const operations = JSON.stringify([{ method: 'GET', relative_url: 'me?fields=name' }]);
    const untyped = await new Promise<string>((resolve, reject) => {
      const body = new URLSearchParams({ access_token: token, batch: operations }).toString();
      const outgoing = httpRequest(`${server.url}/`, { method: 'POST', headers: { 'content-length': Buffer.byteLength(body) } }, (incoming) => {
        let text = '';
        incoming.on('data', (chunk) => (text += chunk));
        incoming.on('end', () => resolve(text));
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
    assert.equal(JSON.parse(JSON.parse(untyped)[0].body).name, 'Alice Arden');
    const json = await server.fetch(`${server.url}/v2.4/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ access_token: token, batch: JSON.parse(operations) }),
    });
    assert.equal(bodyOf(items(json)[0]).name, 'Alice Arden');
    const query = await server.fetch(`${server.url}/?access_token=${token}&batch=${encodeURIComponent(operations)}`, { method: 'POST' });
    assert.equal(bodyOf(items(query)[0]).name, 'Alice Arden');
  });
});
