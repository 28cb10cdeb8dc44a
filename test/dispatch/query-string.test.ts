import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseQueryString } from '../../src/dispatch/graph-request.js';
import { startServer } from '../helpers/server.js';
import { openScratchStore } from '../helpers/test-store.js';

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

describe('the query string parser handed to the framework', () => {
  it('is given where the framework asks for it, so building a server warns of nothing', async () => {
    // The framework reports options it has deprecated (FSTDEP022 for a router option given at
    // the top level) as process warnings, emitted a tick after the server is built.
    const warnings: Error[] = [];
    const record = (warning: Error) => warnings.push(warning);
    process.on('warning', record);
    const store = await openScratchStore();
    try {
      const server = await startServer(store);
      try {
        const reply = await server.get('/v2.4/me', { access_token: 'not a token' });
        assert.equal(reply.status, 400, reply.text);
      } finally {
        await server.close();
      }
    } finally {
      process.off('warning', record);
      await store.close();
    }
    assert.deepEqual(warnings.map((warning) => `${warning.name}: ${warning.message}`), []);
  });
});
