import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseQueryString } from '../../src/http/graph-request.js';

describe('query strings as routes see them', () => {
  it('decodes values, lists a repeated name and keeps odd names as plain keys', () => {
    const query = parseQueryString('next=%2Fexplorer%3Fa%3D1&scope=email&scope=user_friends&scope=x&__proto__=p&flag&plus=a+b');
    assert.deepEqual(Object.entries(query), [
      ['next', '/explorer?a=1'],
      ['scope', ['email', 'user_friends', 'x']],
      ['__proto__', 'p'],
      ['flag', ''],
      ['plus', 'a b'],
    ]);
    assert.equal(Object.getPrototypeOf(query), null);
  });

  it('reads a long escaped fields expression whole', () => {
    const fields = Array.from({ length: 2000 }, (_, i) => `friends.as(f${i}).limit(25){id}`).join(',');
    assert.equal(parseQueryString(`fields=${encodeURIComponent(fields)}&access_token=t`).fields, fields);
  });
});
