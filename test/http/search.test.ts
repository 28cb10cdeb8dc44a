import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { graphSchema } from '../../src/graph/graph-schema.js';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type Reply, type TestServer } from '../helpers/server.js';

/** The path and query of an absolute paging link, to follow it on the test server. */
function pathOf(link: string): [string, Record<string, string>] {
  const url = new URL(link);
  return [url.pathname, Object.fromEntries(url.searchParams)];
}

function ok(reply: Reply): any {
  assert.equal(reply.status, 200, reply.text);
  return reply.body;
}

describe('GET /search', () => {
  const served = useFixtureServer();
  let fixture: Fixture;
  let server: TestServer;
  let appToken: string;
  const ids: Record<string, string> = {};

  before(async () => {
    ({ fixture, server } = served);
    appToken = `${fixture.app.id}|${fixture.app.secret}`;
    const page = (name: string, category: string, location?: Record<string, unknown>) => ({
      op: 'createObject' as const,
      object: { type: 'page', owner: null, createdTime: fixture.now - 1000, data: { name, category, ...(location ? { location } : {}) } },
    });
    // Harbour Coffee and Harbour Books lie about 3.3 km apart; Harbour Fans has no position.
    const [coffee, books, fans, parent, topic] = (
      await fixture.store.write([
        page('Harbour Coffee', 'Coffee Shop', { street: '1 Pier Road', city: 'San Francisco', country: 'United States', latitude: 37.7749, longitude: -122.4194 }),
        page('Harbour Books', 'Bookshop', { city: 'San Francisco', country: 'United States', latitude: 37.8049, longitude: -122.4194 }),
        page('Harbour Fans', 'Community'),
        { op: 'createObject', object: { type: 'placetopic', owner: null, createdTime: fixture.now - 1000, data: { name: 'Food & Beverage', plural_name: 'Food & Beverage' } } },
        { op: 'createObject', object: { type: 'placetopic', owner: null, createdTime: fixture.now - 1000, data: { name: 'Coffee Shop', plural_name: 'Coffee Shops' } } },
      ])
    ).results as number[];
    await fixture.store.write([{ op: 'updateObject', id: topic!, data: { parent_ids: [String(parent)] }, updatedTime: fixture.now }]);
    Object.assign(ids, { coffee: String(coffee), books: String(books), fans: String(fans), parent: String(parent), topic: String(topic) });
  });

  const search = (params: Record<string, string>, token = fixture.aliceToken) => server.get('/v2.4/search', { access_token: token, ...params });

  it('finds people by the words of their name, in the v2.4 shape', async () => {
    assert.deepEqual(ok(await search({ q: 'alice', type: 'user' })), { data: [{ name: 'Alice Arden', id: fixture.scoped(fixture.users.alice) }] });
    // Every word must start a word of the name, in any case.
    assert.deepEqual(ok(await search({ q: 'ARD ali', type: 'user' })).data.map((u: any) => u.name), ['Alice Arden']);
    assert.deepEqual(ok(await search({ q: 'alice brook', type: 'user' })), { data: [] });
    assert.deepEqual(ok(await search({ q: 'bob', type: 'user', fields: 'first_name,last_name' })), {
      data: [{ first_name: 'Bob', last_name: 'Brook', id: fixture.scoped(fixture.users.bob) }],
    });
  });

  it('never lists people who do not use the app, and fills pages with those who do', async () => {
    // Carol never used the app; the thousand likers did.
    assert.deepEqual(ok(await search({ q: 'carol', type: 'user' })), { data: [] });
    assert.equal(ok(await search({ q: 'liker', type: 'user', limit: '5' })).data.length, 5);
    const friends = ok(await search({ q: 'friend', type: 'user', limit: '10' }));
    assert.equal(friends.data.length, 10);
  });

  it('pages people by offset, the same pages every time, forwards and back', async () => {
    const first = ok(await search({ q: 'friend', type: 'user', limit: '10' }));
    assert.deepEqual(first.data.map((u: any) => u.name), Array.from({ length: 10 }, (_, i) => `Friend ${String(i).padStart(2, '0')}`));
    assert.equal(first.paging.cursors, undefined);
    assert.equal(first.paging.previous, undefined);
    const next = new URL(first.paging.next);
    assert.equal(next.pathname, '/v2.4/search');
    assert.equal(next.searchParams.get('offset'), '10');
    assert.equal(next.searchParams.get('q'), 'friend');
    assert.ok(next.searchParams.get('__after_id'));
    const second = ok(await server.get(...pathOf(first.paging.next)));
    assert.deepEqual(second.data.map((u: any) => u.name), Array.from({ length: 10 }, (_, i) => `Friend ${String(i + 10).padStart(2, '0')}`));
    const third = ok(await server.get(...pathOf(second.paging.next)));
    assert.deepEqual(third.data.map((u: any) => u.name), ['Friend 20', 'Friend 21', 'Friend 22', 'Friend 23']);
    assert.equal(third.paging.next, undefined);
    const back = ok(await server.get(...pathOf(second.paging.previous)));
    assert.deepEqual(back.data, first.data);
    assert.deepEqual(ok(await search({ q: 'friend', type: 'user', limit: '10' })), first);
  });

  it('finds pages by name or category, with an app token too', async () => {
    const expected = { data: [{ name: 'Harbour Coffee', id: ids.coffee }, { name: 'Harbour Books', id: ids.books }, { name: 'Harbour Fans', id: ids.fans }] };
    assert.deepEqual(ok(await search({ q: 'harbour', type: 'page' })), expected);
    assert.deepEqual(ok(await search({ q: 'harbour', type: 'page' }, appToken)), expected);
    assert.deepEqual(ok(await search({ q: 'bookshop', type: 'page', fields: 'name,category' })), {
      data: [{ name: 'Harbour Books', category: 'Bookshop', id: ids.books }],
    });
  });

  it('finds places: located pages, within a distance of a centre, paged by cursor', async () => {
    const all = ok(await search({ q: 'harbour', type: 'place' }));
    assert.deepEqual(all.data, [{ name: 'Harbour Coffee', id: ids.coffee }, { name: 'Harbour Books', id: ids.books }]);
    // Cursor paging shows the cursors of every page, and `next` only when more follow.
    assert.deepEqual(Object.keys(all.paging), ['cursors']);
    const near = { q: 'harbour', type: 'place', center: '37.775,-122.4195' };
    assert.deepEqual(ok(await search({ ...near, distance: '1000', fields: 'name,location{city,latitude}' })).data, [
      { name: 'Harbour Coffee', location: { city: 'San Francisco', latitude: 37.7749 }, id: ids.coffee },
    ]);
    assert.deepEqual(ok(await search({ ...near, distance: '5000' })).data.map((p: any) => p.id), [ids.coffee, ids.books]);
    const first = ok(await search({ ...near, distance: '5000', limit: '1' }, appToken));
    assert.deepEqual(first.data.map((p: any) => p.id), [ids.coffee]);
    assert.ok(first.paging.cursors.after);
    assert.equal(first.paging.previous, undefined);
    assert.equal(new URL(first.paging.next).searchParams.get('after'), first.paging.cursors.after);
    const second = ok(await server.get(...pathOf(first.paging.next)));
    assert.deepEqual(second.data.map((p: any) => p.id), [ids.books]);
    assert.equal(second.paging.next, undefined);
    assert.deepEqual(ok(await server.get(...pathOf(second.paging.previous))).data, first.data);
  });

  it('sends the fields of the version asked for when the request names none', async () => {
    const v23 = (params: Record<string, string>) => server.get('/v2.3/search', { access_token: fixture.aliceToken, ...params });
    assert.deepEqual(ok(await v23({ q: 'bookshop', type: 'page' })).data, [{ name: 'Harbour Books', category: 'Bookshop', id: ids.books }]);
    assert.deepEqual(ok(await v23({ q: 'harbour coffee', type: 'place' })).data, [{
      category: 'Coffee Shop',
      location: { street: '1 Pier Road', city: 'San Francisco', country: 'United States', latitude: 37.7749, longitude: -122.4194 },
      name: 'Harbour Coffee',
      id: ids.coffee,
    }]);
    assert.deepEqual(ok(await v23({ q: 'alice', type: 'user' })).data, [{ name: 'Alice Arden', id: fixture.scoped(fixture.users.alice) }]);
  });

  it('finds place topics', async () => {
    assert.deepEqual(ok(await search({ q: 'coffee', type: 'placetopic', fields: 'name,plural_name,parent_ids' }, appToken)).data, [
      { name: 'Coffee Shop', plural_name: 'Coffee Shops', parent_ids: [ids.parent], id: ids.topic },
    ]);
  });

  it('reads a place topic as a node, with any token, and describes it with metadata=1', async () => {
    for (const token of [fixture.aliceToken, appToken, await fixture.tokenFor(fixture.users.bob, ['public_profile'])]) {
      assert.deepEqual(ok(await server.get(`/v2.4/${ids.topic}`, { access_token: token })), { name: 'Coffee Shop', id: ids.topic });
    }
    const described = ok(await server.get(`/v2.4/${ids.topic}`, { access_token: fixture.aliceToken, fields: 'name,parent_ids', metadata: '1' }));
    assert.equal(described.metadata.type, 'placetopic');
    assert.deepEqual(described.metadata.fields.map((field: { name: string }) => field.name), ['id', 'name', 'plural_name', 'parent_ids', 'top_subtopic_names', 'icon_url']);
    assert.deepEqual(described.metadata.connections, {});
    assert.deepEqual(described.parent_ids, [ids.parent]);
  });

  it('answers the errors of the real service', async () => {
    const missingQ = await search({ type: 'user' });
    assert.equal(missingQ.status, 400);
    assert.deepEqual([missingQ.body.error.code, missingQ.body.error.type], [100, 'OAuthException']);
    assert.equal(missingQ.body.error.message, '(#100) No node specified');
    for (const type of ['post', 'bogus', '']) {
      const unknown = await search({ q: 'alice', type });
      assert.equal(unknown.status, 400, type);
      assert.deepEqual(Object.keys(unknown.body.error), ['message', 'type', 'code', 'fbtrace_id']);
      assert.deepEqual([unknown.body.error.code, unknown.body.error.type, unknown.body.error.message], [
        100, 'GraphMethodException', 'Unsupported get request. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api',
      ]);
    }
    // People, events and groups need a person's token; an app's is refused.
    for (const type of ['user', 'event', 'group']) {
      const refused = await search({ q: 'alice', type }, appToken);
      assert.equal(refused.status, 403, type);
      assert.deepEqual([refused.body.error.code, refused.body.error.message], [200, '(#200) Must have a valid access_token to access this endpoint']);
    }
    const noToken = await server.get('/v2.4/search', { q: 'alice', type: 'user' });
    assert.equal(noToken.body.error.code, 104);
    const badCentre = await search({ q: 'harbour', type: 'place', center: 'north' });
    assert.equal(badCentre.body.error.code, 100);
    const tooFar = await search({ q: 'harbour', type: 'place', center: '37.7,-122.4', distance: '50001' });
    assert.match(tooFar.body.error.message, /distance/);
    const tooManyWords = await search({ q: Array.from({ length: 17 }, (_, i) => `w${i}`).join(' '), type: 'page' });
    assert.match(tooManyWords.body.error.message, /at most 16 words/);
    const badCursor = await search({ q: 'harbour', type: 'place', after: 'bm90LWEtY3Vyc29y' });
    assert.equal(badCursor.status, 400);
    assert.equal(badCursor.body.error.code, 100);
  });

  it('is answered inside a batch like any other request', async () => {
    const reply = await server.form('/v2.4/', {
      access_token: fixture.aliceToken,
      batch: JSON.stringify([{ method: 'GET', relative_url: 'search?q=alice&type=user' }, { method: 'GET', relative_url: 'search?q=harbour&type=place&fields=name' }]),
    });
    const [people, places] = ok(reply).map((item: { code: number; body: string }) => {
      assert.equal(item.code, 200);
      return JSON.parse(item.body);
    });
    assert.deepEqual(people.data.map((u: any) => u.name), ['Alice Arden']);
    assert.deepEqual(places.data.map((p: any) => p.name), ['Harbour Coffee', 'Harbour Books']);
    // The ids found are the ids every other read takes, ids= among them.
    const found = places.data.map((p: any) => p.id);
    const read = ok(await server.get('/v2.4/', { access_token: fixture.aliceToken, ids: found.join(','), fields: 'name' }));
    assert.deepEqual(Object.values(read).map((p: any) => p.name), ['Harbour Coffee', 'Harbour Books']);
  });

  it('finds names written in any script and case', async () => {
    const [page] = (await fixture.store.write([{ op: 'createObject', object: { type: 'page', owner: null, createdTime: fixture.now, data: { name: 'Zoë Ångström Café' } } }])).results as number[];
    assert.deepEqual(ok(await search({ q: 'ÅNGSTRÖM zoë', type: 'page' })).data, [{ name: 'Zoë Ångström Café', id: String(page) }]);
  });

  it('finds what a write adds, changes and removes at once', async () => {
    const created = ok(await server.form('/v2.4/me/feed', { access_token: fixture.aliceToken, message: 'no search for posts' }));
    assert.ok(created.id);
    const [page] = (await fixture.store.write([{ op: 'createObject', object: { type: 'page', owner: null, createdTime: fixture.now, data: { name: 'Quayside Gallery' } } }])).results as number[];
    assert.deepEqual(ok(await search({ q: 'quayside', type: 'page' })).data.map((p: any) => p.id), [String(page)]);
    await fixture.store.write([{ op: 'deleteObject', id: page! }]);
    assert.deepEqual(ok(await search({ q: 'quayside', type: 'page' })), { data: [] });
  });

  // An open event or group owned by Alice is found by Alice's search.
  for (const word of ['event', 'group']) {
    const target = graphSchema().searchTarget(word);
    assert.ok(target, `a node type is found as ${word}`);
    it(`finds ${word}s`, async () => {
      const [id] = (
        await fixture.store.write([
          { op: 'createObject', object: { type: target.type.name, owner: fixture.users.alice, createdTime: fixture.now, data: { name: `Lantern ${word} night`, privacy: 'OPEN' } } },
        ])
      ).results as number[];
      assert.deepEqual(ok(await search({ q: 'lantern night', type: word, fields: 'name' })).data, [{ name: `Lantern ${word} night`, id: String(id) }]);
    });
    it(`answers ${word} searches with a person's token`, async () => {
      const found = ok(await search({ q: 'nothing like this', type: word }));
      assert.deepEqual(found, { data: [] });
    });
  }
});
