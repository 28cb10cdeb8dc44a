import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Random } from '../../src/seed/random.js';
import type { Fixture } from '../helpers/fixture.js';
import { rawRequest } from '../helpers/raw-http.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type TestServer } from '../helpers/server.js';

/** Requests per run: enough to reach every error path below, few enough for a quick test. */
const REQUESTS = 400;
const SECRET = 'EAAfuzzTokenThatMustNeverComeBack';

const METHODS = ['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'get', 'BREW'];
const SEGMENTS = ['me', 'feed', 'friends', 'likes', 'comments', 'photos', '%ZZ', '%', '%00', '..', '', 'x'.repeat(300), '%E2%82', '1', '0_0', '9'.repeat(20), 'oauth', 'access_token', 'debug_token', '~', 'ü', '%2F'];
// Not `callback`: a JSONP answer wraps the envelope by design.
const PARAMS = ['fields', 'limit', 'after', 'before', 'since', 'summary', 'method', 'pretty', 'ids', 'metadata', 'suppress_http_code', 'batch', 'q'];
const VALUES = ['id,name', 'friends.limit(2){name}', '{', '((', '-1', 'abc', '1e400', '%ZZ', '', 'true', '[', 'x'.repeat(2000), 'post', 'delete', 'me,%ZZ', 'friends.as(f).limit(5)'];
const TYPES = [
  undefined,
  'application/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=zz',
  'text/plain',
  'application/octet-stream',
  ';;;',
];
const BODIES = ['', '{', '{"a":1}', 'a=1&b', '[1,2', '--zz\r\nContent-Disposition: form-data; name="m"\r\n\r\nhi\r\n--zz--\r\n', '--zz\r\n\r\n', 'null', '\u0000\u0001', `access_token=${SECRET}&message=hi`];

/** One random request, as raw bytes: sometimes without Host, with a garbled path or body. */
function randomRequest(random: Random, host: string, token: string): string {
  const method = random.pick(METHODS);
  const depth = random.int(0, 3);
  const path = `${random.chance(0.8) ? '/v2.4' : ''}/${Array.from({ length: depth }, () => random.pick(SEGMENTS)).join('/')}`;
  const params = [`access_token=${random.chance(0.5) ? token : random.chance(0.7) ? SECRET : random.pick(VALUES)}`];
  for (let i = random.int(0, 3); i > 0; i--) params.push(`${random.pick(PARAMS)}=${random.pick(VALUES)}`);
  const headers = [`${method} ${path}?${params.join('&')} HTTP/1.1`];
  if (random.chance(0.9)) headers.push(`Host: ${random.chance(0.95) ? host : ''}`);
  headers.push('Connection: close');
  const type = random.pick(TYPES);
  if (type !== undefined) headers.push(`Content-Type: ${type}`);
  const body = method === 'GET' && random.chance(0.7) ? '' : random.pick(BODIES);
  if (body !== '' || random.chance(0.5)) headers.push(`Content-Length: ${Buffer.byteLength(body)}`);
  if (random.chance(0.05)) headers.push(`Authorization: OAuth ${SECRET}`);
  return `${headers.join('\r\n')}\r\n\r\n${body}`;
}

describe('every error answer is in the Graph envelope', () => {
  const served = useFixtureServer();
  let server: TestServer;
  let fixture: Fixture;

  before(() => ({ fixture, server } = served));

  it(`for ${REQUESTS} varied and malformed requests (fixed seed)`, async () => {
    const random = new Random('envelope-fuzz');
    const host = new URL(server.url).host;
    const seen = new Set<string>();
    for (let n = 0; n < REQUESTS; n++) {
      const request = randomRequest(random, host, fixture.aliceToken);
      const answer = await rawRequest(server.url, request);
      const label = `#${n}: ${JSON.stringify(request.slice(0, 300))} → ${answer.status} ${answer.body.slice(0, 200)}`;
      assert.ok(answer.status >= 200, label);
      assert.equal(answer.headers['facebook-api-version'], 'v2.4', label);
      if (answer.status < 400) continue;
      assert.equal(answer.headers['content-type'], 'application/json; charset=UTF-8', label);
      const body = JSON.parse(answer.body);
      assert.deepEqual(Object.keys(body), ['error'], label);
      assert.equal(typeof body.error.message, 'string', label);
      assert.equal(typeof body.error.code, 'number', label);
      assert.equal(typeof body.error.fbtrace_id, 'string', label);
      seen.add(`${answer.status} #${body.error.code}`);
      assert.equal(answer.body.includes(SECRET), false, `the token is echoed: ${label}`);
      assert.equal(answer.body.includes(fixture.aliceToken), false, label);
    }
    // The run reached many kinds of failure, so the checks above had something to check.
    assert.ok(seen.size >= 5, [...seen].join(', '));
  });
});
