/**
 * Pages that visibility thins out are filled from the rows beyond them: a page is never empty
 * while it links to another, paging reaches every item the viewer may see, and the rows read to
 * fill the pages of a level go in one store call a round, however many pages it fills.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { WriteOp } from '../../src/store/write-ops.js';
import { useCallCountingServer } from '../helpers/counted-server.js';
import type { Fixture } from '../helpers/fixture.js';
import type { TestServer } from '../helpers/server.js';

/** Each timeline, newest first: two posts Alice may see, a long run only its author sees, then more she may see. */
const PATTERN = [...'vv', ...'h'.repeat(25), ...'vhvhhvvvhv'];

describe('pages filled past what visibility hides', () => {
  /** Hana's and Ivo's internal ids. */
  const ids: number[] = [];
  const counted = useCallCountingServer(async (fixture) => {
    const { store, now, users } = fixture;
    const created = async (ops: WriteOp[]) => (await store.write(ops)).results as number[];
    const people = await created(['Hana Hale', 'Ivo Ives'].map((name) => ({
      op: 'createObject' as const,
      object: { type: 'user', owner: null, createdTime: now - 1000, data: { name } },
    })));
    for (const person of people) {
      await store.write([
        { op: 'addAssoc', type: 'friends', id1: users.alice, id2: person, time: now - 900 },
        { op: 'addAssoc', type: 'friends', id1: person, id2: users.alice, time: now - 900 },
      ]);
      await fixture.tokenFor(person, ['public_profile', 'user_posts']);
      const posts = await created(PATTERN.map((kind, index) => ({
        op: 'createObject' as const,
        object: { type: 'post', owner: person, createdTime: now - 100 - index, data: { message: `${kind}${index}`, privacy: { value: kind === 'v' ? 'ALL_FRIENDS' : 'SELF' } } },
      })));
      await store.write(posts.flatMap((post, index): WriteOp[] => [
        { op: 'addAssoc', type: 'posts', id1: person, id2: post, time: now - 100 - index },
        { op: 'addAssoc', type: 'feed', id1: person, id2: post, time: now - 100 - index },
      ]));
    }
    ids.push(...people);
  });
  let fixture: Fixture;
  let server: TestServer;
  let hana: string;
  let ivo: string;
  const expected = PATTERN.flatMap((kind, index) => (kind === 'v' ? [`v${index}`] : []));

  before(() => {
    ({ fixture, server } = counted);
    hana = fixture.scoped(ids[0]!);
    ivo = fixture.scoped(ids[1]!);
  });

  const fetchPage = async (url: string) => {
    const reply = await server.fetch(url);
    assert.equal(reply.status, 200, reply.text);
    return reply.body;
  };

  it('shows the first post of a timeline whose newest only its author sees, with no link to an empty page', async () => {
    const bob = fixture.scoped(fixture.users.bob);
    const reply = await server.get(`/v2.4/${bob}/posts`, { access_token: fixture.aliceToken, limit: '1', fields: 'message' });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.body.data.map((post: { message: string }) => post.message), ["Bob's news"]);
    assert.equal(reply.body.paging.next, undefined, 'nothing more she may see');
  });

  it('reaches every post the viewer may see, forwards and back, with no empty page on the way', async () => {
    const forwards: string[][] = [];
    let url: string | undefined = `${server.url}/v2.4/${hana}/posts?${new URLSearchParams({ access_token: fixture.aliceToken, limit: '2', fields: 'message' })}`;
    let last: any;
    while (url !== undefined) {
      last = await fetchPage(url);
      assert.ok(last.data.length > 0, `a page is never empty: ${JSON.stringify(last)}`);
      if (last.paging.next !== undefined) assert.equal(last.data.length, 2, 'a page with more beyond it is full');
      forwards.push(last.data.map((post: { message: string }) => post.message));
      url = last.paging.next;
    }
    assert.deepEqual(forwards.flat(), expected);
    // Back from the last page: the same pages, each full, in turn.
    const backwards: string[][] = [];
    url = last.paging.previous;
    while (url !== undefined) {
      const page = await fetchPage(url);
      assert.ok(page.data.length > 0, `a page is never empty: ${JSON.stringify(page)}`);
      backwards.unshift(page.data.map((post: { message: string }) => post.message));
      url = page.paging.previous;
    }
    assert.deepEqual([...backwards.flat(), ...forwards.at(-1)!], expected);
  });

  it('fills the nested pages of every node of a level, one store call a round for all of them', async () => {
    const read = async (people: string[]) => {
      await counted.countFromCold();
      const reply = await server.get('/v2.4/', { access_token: fixture.aliceToken, ids: people.join(','), fields: 'posts.limit(3){message}' });
      assert.equal(reply.status, 200, reply.text);
      return { body: reply.body, pageReads: counted.calls.filter((call) => call === 'getPagesWithObjects').length };
    };
    const both = await read([hana, ivo]);
    for (const person of [hana, ivo]) {
      assert.deepEqual(both.body[person].posts.data.map((post: { message: string }) => post.message), expected.slice(0, 3));
      assert.ok(both.body[person].posts.paging.next);
    }
    const one = await read([hana]);
    assert.ok(one.pageReads > 1, 'the run of hidden posts took rounds to read past');
    assert.equal(both.pageReads, one.pageReads, 'as many page reads for two timelines as for one');
  });
});
