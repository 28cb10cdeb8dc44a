/**
 * Random requests for the fuzz (bench/fuzz.ts): methods, paths, parameters and bodies as clients
 * send them, well-formed or not: `fields` expressions, batches, multipart uploads good and bad,
 * bodies over the limit, odd content types, bodies without a length. Nothing here resets the
 * server's state (no control-plane writes, no revoking the token's permissions), so every
 * request of a long run meets the same graph.
 */
import type { Random } from '../src/seed/random.js';

/** What the requests aim at: a token and ids of objects the token can read. */
export interface FuzzTarget {
  token: string;
  ids: string[];
}

export interface FuzzRequest {
  method: string;
  /** Path and query string. */
  path: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
  /** Sent without a length, in chunks. */
  chunked: boolean;
  /** Whether an error answer must be in the Graph error envelope (a Graph path, no JSONP). */
  graph: boolean;
}

const MiB = 1024 * 1024;
/** A 2×2 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFElEQVR4nGP4z8DAAMIM/////w8AH+4F+7C4l8kAAAAASUVORK5CYII=', 'base64');

const METHODS: ReadonlyArray<readonly [string, number]> = [
  ['GET', 45],
  ['POST', 30],
  ['DELETE', 8],
  ['HEAD', 4],
  ['PUT', 3],
  ['PATCH', 3],
  ['OPTIONS', 3],
];
const VERSIONS = ['/v2.4', '/v2.4', '/v2.0', '/v2.3', '/v19.0', '', '/v9.9'];
const NODES = ['me', 'me', '%ZZ', '%', '%00', '..', '', '0_0', '9'.repeat(20), 'x'.repeat(300), '%E2%82', '%C3%BC', 'search', 'debug_token', 'oauth', '~'];
// No `permissions`: deleting it would take the token's grants away for the rest of the run.
const EDGES = ['feed', 'posts', 'friends', 'likes', 'comments', 'photos', 'albums', 'picture', 'accounts', 'videos', 'events', 'groups', 'tagged', 'home', 'sharedposts', 'nope', '%ZZ', ''];
const OTHER_PATHS = [
  '/explorer',
  '/explorer/apps.json',
  '/explorer/permissions.json',
  '/explorer/config.json',
  '/dialog/oauth',
  '/v2.4/dialog/oauth',
  '/oauth/access_token',
  '/v2.4/oauth/access_token',
  '/media/photos/0123456789abcdef',
  '/media/placeholders/x.png',
  '/media/silhouette.svg',
  '/_loom/requests',
  '/_loom/clock',
  '/_loom/faults',
  '/logout',
  '/checkpoint/test-user-login/1/',
  '/favicon.ico',
  '/a//b',
];
const PARAMS = ['fields', 'limit', 'after', 'before', 'since', 'until', 'summary', 'ids', 'metadata', 'pretty', 'suppress_http_code', 'method', 'batch', 'q', 'type', 'date_format', 'locale', 'include_headers', 'redirect', 'callback'];
const FIELDS = [
  'id,name',
  'friends.limit(2){name,birthday}',
  'likes.summary(true).limit(0)',
  'comments{from,message,like_count}',
  'feed.limit(3){message,likes.limit(1){name}}',
  'picture.type(large)',
  'id,name,,,',
  'friends.as(f1).limit(2),friends.as(f2).limit(2)',
  '{',
  '((',
  'name{',
  'a'.repeat(500),
  'feed.limit(99999)',
  'friends.limit(-1)',
];
const VALUES = ['1', '-1', '0', '25', '101', 'abc', '1e400', '%ZZ', '', 'true', 'false', '[', '{}', 'x'.repeat(2000), 'post', 'delete', 'get', 'U', 'me,%ZZ', '2015-01-01', 'cb'];
const BATCHES = [
  '[{"method":"GET","relative_url":"me"},{"method":"GET","relative_url":"me/friends?limit=2"}]',
  '[{"method":"POST","relative_url":"me/feed","body":"message=from%20a%20batch"}]',
  '[{"method":"GET","name":"f","relative_url":"me/friends?limit=2"},{"method":"GET","relative_url":"?ids={result=f:$.data.*.id}"}]',
  `[${Array.from({ length: 60 }, () => '{"method":"GET","relative_url":"me"}').join(',')}]`,
  '[{',
  '[]',
  '{"method":"GET"}',
];
const ODD_TYPES = ['application/octet-stream', 'multipart/mixed; boundary=q', ';;;', 'application/json; charset=utf-16', 'text/html', 'application/xml', 'image/png', 'multipart/form-data; boundary=', 'application/x-www-form-urlencoded; charset=latin1'];

export function fuzzRequest(random: Random, target: FuzzTarget): FuzzRequest {
  let method = random.weighted(METHODS);
  const graph = random.chance(0.8);
  let path = graph ? graphPath(random, target) : random.pick(OTHER_PATHS);
  // The control plane's writes (reset, clock, faults) would change every later answer.
  if (path.startsWith('/_loom') && method !== 'HEAD') method = 'GET';
  const query = queryParams(random, target);
  if (query.length > 0) path += `?${query.join('&')}`;
  const headers: Record<string, string> = {};
  if (random.chance(0.05)) headers.authorization = `OAuth ${random.chance(0.5) ? target.token : 'EAAnotAtoken'}`;
  if (random.chance(0.05)) headers['if-none-match'] = random.pick(['"abc"', '*', 'W/"x"']);
  const wantsBody = method !== 'HEAD' && (method === 'GET' ? random.chance(0.1) : random.chance(0.85));
  const body = wantsBody ? randomBody(random, target) : undefined;
  if (body?.type !== undefined) headers['content-type'] = body.type;
  const chunked = body !== undefined && body.bytes.length < 64 * 1024 && random.chance(0.15);
  return { method, path, headers, body: body?.bytes, chunked, graph: graph && !query.some((param) => param.startsWith('callback=')) };
}

function graphPath(random: Random, target: FuzzTarget): string {
  const version = random.pick(VERSIONS);
  const node = random.chance(0.5) ? random.pick(target.ids) : random.pick(NODES);
  const segments = [node];
  if (random.chance(0.6)) segments.push(random.pick(EDGES));
  if (random.chance(0.05)) segments.push(random.pick(EDGES));
  return `${version}/${segments.join('/')}`;
}

function queryParams(random: Random, target: FuzzTarget): string[] {
  const params: string[] = [];
  if (random.chance(0.6)) params.push(`access_token=${target.token}`);
  else if (random.chance(0.4)) params.push(`access_token=${random.pick(['EAAbogus', '', '%ZZ', `${target.token}x`, '1|secret'])}`);
  for (let n = random.int(0, 3); n > 0; n--) {
    const name = random.pick(PARAMS);
    const value = name === 'fields' ? random.pick(FIELDS) : name === 'batch' ? random.pick(BATCHES) : name === 'ids' ? random.sample(target.ids, 3).join(',') : random.pick(VALUES);
    params.push(`${name}=${encodeURIComponent(value)}`);
  }
  if (random.chance(0.03)) params.push('%ZZ=1', 'a=%');
  return params;
}

interface Body {
  type: string | undefined;
  bytes: Buffer;
}

function randomBody(random: Random, target: FuzzTarget): Body {
  const kind = random.weighted([
    ['form', 30],
    ['json', 12],
    ['photo', 8],
    ['bad multipart', 14],
    ['oversized', 2],
    ['odd type', 10],
    ['untyped', 8],
    ['empty', 6],
  ] as const);
  const fields = bodyFields(random, target);
  switch (kind) {
    case 'form':
      return { type: random.pick(['application/x-www-form-urlencoded', 'text/plain', 'application/x-www-form-urlencoded; charset=UTF-8']), bytes: Buffer.from(new URLSearchParams(fields).toString()) };
    case 'json':
      return { type: 'application/json', bytes: Buffer.from(random.chance(0.8) ? JSON.stringify(fields) : random.pick(['{', '{"a":tru', 'null', '[1,2', '"text"', ''])) };
    case 'photo':
      return multipart(random, fields, [{ name: 'source', file: PNG }]);
    case 'bad multipart':
      return badMultipart(random, fields);
    case 'oversized':
      return oversized(random, fields);
    case 'odd type':
      return { type: random.pick(ODD_TYPES), bytes: random.chance(0.5) ? Buffer.from(new URLSearchParams(fields).toString()) : random.bytes(random.int(1, 2000)) };
    case 'untyped':
      return { type: undefined, bytes: Buffer.from(new URLSearchParams(fields).toString()) };
    case 'empty':
      return { type: random.pick(['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=e']), bytes: Buffer.alloc(0) };
  }
}

function bodyFields(random: Random, target: FuzzTarget): Record<string, string> {
  const fields: Record<string, string> = {};
  if (random.chance(0.5)) fields.access_token = random.chance(0.9) ? target.token : 'EAAbogus';
  if (random.chance(0.6)) fields.message = random.pick(['hello', 'ü ünïcode ✓', 'x'.repeat(70_000), '', 'a&b=c']);
  if (random.chance(0.1)) fields.link = random.pick(['https://example.com/', 'not a url', 'javascript:alert(1)']);
  if (random.chance(0.05)) fields.batch = random.pick(BATCHES);
  if (random.chance(0.1)) fields.fields = random.pick(FIELDS);
  if (random.chance(0.05)) fields.method = random.pick(['post', 'delete', 'get']);
  return fields;
}

function multipart(random: Random, fields: Record<string, string>, files: { name: string; file: Buffer }[], boundary = `b${random.alphanumeric(12)}`): Body {
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (const { name, file } of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="f.png"\r\nContent-Type: image/png\r\n\r\n`), file, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { type: `multipart/form-data; boundary=${boundary}`, bytes: Buffer.concat(parts) };
}

function badMultipart(random: Random, fields: Record<string, string>): Body {
  const good = multipart(random, fields, [{ name: 'source', file: PNG }], 'zz');
  switch (random.int(0, 6)) {
    case 0: // no boundary at all
      return { type: 'multipart/form-data', bytes: good.bytes };
    case 1: // the body's boundary is not the declared one
      return { type: 'multipart/form-data; boundary=other', bytes: good.bytes };
    case 2: // cut off half way
      return { type: good.type, bytes: good.bytes.subarray(0, Math.floor(good.bytes.length / 2)) };
    case 3: // garbage where a part's headers belong, then a long tail
      return { type: good.type, bytes: Buffer.concat([Buffer.from('--zz\r\n\r\n'), random.bytes(random.int(10, 200_000))]) };
    case 4: // more parts than a form may have
      return multipart(random, Object.fromEntries(Array.from({ length: 60 }, (_, n) => [`f${n}`, 'v'])), []);
    case 5: // more files than a request may carry
      return multipart(random, fields, Array.from({ length: 11 }, () => ({ name: 'source', file: PNG })));
    default: // a file that is not an image
      return multipart(random, fields, [{ name: 'source', file: random.bytes(random.int(1, 50_000)) }]);
  }
}

/** A body over Loom's limit (1 MiB for forms and JSON), as a client with a large message sends it. */
function oversized(random: Random, fields: Record<string, string>): Body {
  const size = random.int(MiB + 1, 3 * MiB);
  if (random.chance(0.5)) return { type: 'application/x-www-form-urlencoded', bytes: Buffer.from(new URLSearchParams({ ...fields, message: 'm'.repeat(size) }).toString()) };
  return { type: 'application/json', bytes: Buffer.from(JSON.stringify({ ...fields, message: 'j'.repeat(size) })) };
}
