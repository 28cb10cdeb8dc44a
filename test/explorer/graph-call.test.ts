import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { curlCommand, graphOrigins, pathOfGraphLink, prepareCall, sharedCall, splitPath, withMethodResolved, withoutSecrets } from '../../web/explorer/src/graph-call.js';

const BASE = 'http://127.0.0.1:8080';

describe('a query of the Explorer as the HTTP request it sends', () => {
  it('puts the path under the version and every parameter and the token in the query string of a GET', () => {
    const prepared = prepareCall({ method: 'GET', path: 'me?fields=id,friends.limit(2){name}', params: [['pretty', '1']] }, BASE, 'T0k+n');
    assert.deepEqual(prepared, { method: 'GET', url: `${BASE}/v2.4/me?fields=id,friends.limit(2){name}&pretty=1&access_token=T0k%2Bn` });
    assert.equal(new URL(prepared.url).searchParams.get('fields'), 'id,friends.limit(2){name}');
  });

  it('sends the parameters and the token of a POST in its body, keeping the typed query in the address', () => {
    const prepared = prepareCall({ method: 'POST', path: '/v2.4/me/feed', params: [['message', "Hello & it's me"]] }, BASE, 'T');
    assert.deepEqual(prepared, { method: 'POST', url: `${BASE}/v2.4/me/feed`, body: [['message', "Hello & it's me"], ['access_token', 'T']] });
  });

  it('keeps a token the query names itself, and sends none when there is none', () => {
    assert.equal(prepareCall({ method: 'DELETE', path: '1_2?access_token=mine', params: [] }, BASE, 'T').url, `${BASE}/v2.4/1_2?access_token=mine`);
    assert.equal(prepareCall({ method: 'GET', path: 'me', params: [] }, BASE, undefined).url, `${BASE}/v2.4/me`);
  });

  it('writes the same request as a curl command, quoted for the shell', () => {
    const get = prepareCall({ method: 'GET', path: 'me?fields=name', params: [] }, BASE, 'T');
    assert.equal(curlCommand(get), `curl -g '${BASE}/v2.4/me?fields=name&access_token=T'`);
    const post = prepareCall({ method: 'POST', path: 'me/feed', params: [['message', "it's"]] }, BASE, 'T');
    assert.equal(curlCommand(post), `curl -g -X POST '${BASE}/v2.4/me/feed' --data-urlencode 'message=it'\\''s' --data-urlencode 'access_token=T'`);
  });

  it('turns a paging link into a path for the path box, without origin, version or credentials', () => {
    const next = `${BASE}/v2.4/1001/friends?access_token=T&fields=name&limit=2&after=QUJD`;
    assert.equal(pathOfGraphLink(next, [BASE]), '1001/friends?fields=name&limit=2&after=QUJD');
    assert.equal(pathOfGraphLink('https://example.com/photo.jpg', [BASE]), undefined);
    assert.equal(pathOfGraphLink(`${BASE}/explorer`, [BASE]), undefined);
    assert.equal(pathOfGraphLink('not a url', [BASE]), undefined);
  });

  it('follows links to Loom only: the page\'s origin or the configured public URL, whatever the link carries', () => {
    const origins = graphOrigins(BASE, 'https://loom.example/base/');
    assert.deepEqual(origins, [BASE, 'https://loom.example']);
    assert.equal(pathOfGraphLink('https://loom.example/v2.4/1001/feed?access_token=T&appsecret_proof=abc', origins), '1001/feed');
    assert.equal(pathOfGraphLink('https://elsewhere.example/v2.4/1_2?method=delete&access_token=x', origins), undefined);
    assert.equal(pathOfGraphLink('https://loom.example.evil/v2.4/1_2?access_token=x', origins), undefined);
    assert.equal(pathOfGraphLink('http://loom.example/v2.4/1_2', origins), undefined, 'another scheme is another origin');
    assert.deepEqual(graphOrigins(BASE, undefined), [BASE]);
    assert.deepEqual(graphOrigins(BASE, 'not a url'), [BASE]);
    assert.deepEqual(graphOrigins(BASE, `${BASE}/`), [BASE]);
  });

  it('drops the method override and parameters that reshape the answer from a link, so following one only reads', () => {
    const link = `${BASE}/v2.4/1_2?METHOD=x&method=delete&suppress_http_code=1&callback=steal&fields=id`;
    assert.equal(pathOfGraphLink(link, [BASE]), '1_2?METHOD=x&fields=id', 'names are matched as the server matches them, case and all');
    assert.equal(pathOfGraphLink(`${BASE}/v2.4/1_2?method=post&message=hi`, [BASE]), '1_2?message=hi');
  });

  it('drops credentials and whatever exchanges for one from what history and the address keep', () => {
    assert.deepEqual(withoutSecrets({ method: 'GET', path: 'me?access_token=T&fields=id', params: [['appsecret_proof', 'p'], ['limit', '2']] }), {
      method: 'GET', path: 'me?fields=id', params: [['limit', '2']],
    });
    assert.deepEqual(withoutSecrets({ method: 'GET', path: 'debug_token?input_token=EAAsecret', params: [] }), { method: 'GET', path: 'debug_token', params: [] });
    const exchange = withoutSecrets({
      method: 'GET',
      path: 'oauth/access_token?client_id=1&client_secret=S&code=C&redirect_uri=x',
      params: [['fb_exchange_token', 'F'], ['password', 'P'], ['grant_type', 'fb_exchange_token']],
    });
    assert.deepEqual(exchange, { method: 'GET', path: 'oauth/access_token?client_id=1&redirect_uri=x', params: [['grant_type', 'fb_exchange_token']] });
    assert.deepEqual(splitPath(' /v2.4/me/feed?limit=2 '), { path: 'me/feed', query: [['limit', '2']] });
  });

  it('takes a method override as the server does: it becomes the method, from the path or a row, the last one winning', () => {
    assert.deepEqual(withMethodResolved({ method: 'GET', path: '1_2?method=delete', params: [] }), { method: 'DELETE', path: '1_2', params: [] });
    assert.deepEqual(withMethodResolved({ method: 'GET', path: 'me/feed?method=get', params: [['message', 'hi'], ['method', 'POST']] }), {
      method: 'POST', path: 'me/feed', params: [['message', 'hi']],
    });
    assert.deepEqual(withMethodResolved({ method: 'DELETE', path: '1_2?method=put', params: [] }), { method: 'DELETE', path: '1_2', params: [] }, 'one the server ignores');
    const plain = { method: 'GET' as const, path: 'me?fields=id', params: [] };
    assert.equal(withMethodResolved(plain), plain, 'a call without an override is left as it is');
  });

  it('reads a shared address as a call that says its method and carries no credentials or answer-reshaping parameters', () => {
    assert.deepEqual(sharedCall({ method: 'GET', path: '1_2?method=post&suppress_http_code=1&fields=id', params: [['callback', 'f'], ['access_token', 'A']] }), {
      method: 'POST', path: '1_2?fields=id', params: [],
    });
    assert.deepEqual(sharedCall({ method: 'GET', path: 'me?fields=id', params: [['limit', '2']] }), { method: 'GET', path: 'me?fields=id', params: [['limit', '2']] });
  });
});
