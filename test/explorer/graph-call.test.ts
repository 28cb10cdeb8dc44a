import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { curlCommand, pathOfGraphLink, prepareCall, splitPath, withoutSecrets } from '../../web/explorer/src/graph-call.js';

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
    assert.equal(pathOfGraphLink(next, BASE), '1001/friends?fields=name&limit=2&after=QUJD');
    assert.equal(pathOfGraphLink('https://loom.example/v2.4/1001/feed?access_token=T&appsecret_proof=abc', BASE), '1001/feed');
    assert.equal(pathOfGraphLink('https://example.com/photo.jpg', BASE), undefined);
    assert.equal(pathOfGraphLink(`${BASE}/explorer`, BASE), undefined);
    assert.equal(pathOfGraphLink('not a url', BASE), undefined);
  });

  it('drops credentials from what history keeps', () => {
    assert.deepEqual(withoutSecrets({ method: 'GET', path: 'me?access_token=T&fields=id', params: [['appsecret_proof', 'p'], ['limit', '2']] }), {
      method: 'GET', path: 'me?fields=id', params: [['limit', '2']],
    });
    assert.deepEqual(splitPath(' /v2.4/me/feed?limit=2 '), { path: 'me/feed', query: [['limit', '2']] });
  });
});
