import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { recordKey, type RecordKey, type RecordKind, type StoreRecord } from '../../src/store/records.js';
import type { Store } from '../../src/store/store.js';
import { CountLimitError, type WriteOp } from '../../src/store/write-ops.js';
import type { Association } from '../../src/store/graph-store.js';
import type { Grant, TokenRecord } from '../../src/store/auth-store.js';
import type { PageRequest, Position } from '../../src/store/page-request.js';
import type { ObjectId } from '../../src/ids.js';

/**
 * The behaviour every Store implementation owes its callers, written against the interface
 * alone so each implementation runs the same suite. `open` gives a ready store for one test.
 * Tests create their own objects and never assume the store starts empty, so a shared database
 * works as well as a fresh one.
 */
export function describeStoreContract(name: string, open: () => Promise<Store>): void {
  describe(`Store contract: ${name}`, () => {
    let store: Store;

    beforeEach(async () => {
      store = await open();
    });

    afterEach(async () => {
      await store.close();
    });

    async function createObject(type = 'user', data: Record<string, unknown> = {}, owner: ObjectId | null = null) {
      const { results } = await store.write([{ op: 'createObject', object: { type, owner, createdTime: 1000, data } }]);
      const id = results[0];
      assert.equal(typeof id, 'number');
      return id as ObjectId;
    }

    async function addAssociations(id1: ObjectId, type: string, entries: ReadonlyArray<{ id2: ObjectId; time: number }>) {
      const ops: WriteOp[] = entries.map(({ id2, time }) => ({ op: 'addAssoc', type, id1, id2, time }));
      await store.write(ops);
    }

    /** The page of one id1, which must be the same read alone and read with another list's (a level's read). */
    async function page(request: Omit<PageRequest, 'id1s'>, id1: ObjectId): Promise<Association[]> {
      const list = (await store.getPages({ ...request, id1s: [id1] })).get(id1);
      assert.ok(list, `the page of ${id1} is present`);
      const other = await createObject();
      await addAssociations(other, request.type, [{ id2: id1, time: 150 }]);
      const together = await store.getPages({ ...request, id1s: [other, id1] });
      assert.deepEqual(together.get(id1), list, `the page of ${id1} read with another list's`);
      return list;
    }

    const positions = (list: Association[]) => list.map(({ time, id2 }) => [time, id2]);

    describe('objects', () => {
      it('round-trips a created object', async () => {
        const owner = await createObject('user', { name: 'Ada' });
        const { results } = await store.write([
          {
            op: 'createObject',
            object: { type: 'post', owner, createdTime: 1500, updatedTime: 1600, data: { message: 'hi', tags: ['a'] } },
          },
        ]);
        const id = results[0] as ObjectId;
        const objects = await store.getObjects([id, owner]);
        assert.deepEqual(objects.get(id), {
          id,
          type: 'post',
          owner,
          createdTime: 1500,
          updatedTime: 1600,
          data: { message: 'hi', tags: ['a'] },
        });
        assert.equal(objects.get(owner)?.owner, null);
        assert.equal(objects.get(owner)?.updatedTime, 1000, 'updatedTime defaults to createdTime');
      });

      it('gives each object its own integer id', async () => {
        const ids = await Promise.all([createObject(), createObject(), createObject()]);
        assert.equal(new Set(ids).size, 3);
        for (const id of ids) assert.ok(Number.isSafeInteger(id) && id > 0 && id < 2 ** 40);
      });

      it('leaves unknown ids out of the result', async () => {
        const id = await createObject();
        const objects = await store.getObjects([id, id + 1_000_000]);
        assert.deepEqual([...objects.keys()], [id]);
      });

      it('merges updated data keys, removes keys set to null and sets updatedTime', async () => {
        const id = await createObject('post', { message: 'old', story: 'kept', place: 'Paris' });
        const { results } = await store.write([
          { op: 'updateObject', id, data: { message: 'new', place: null, link: 'https://example.com' }, updatedTime: 2000 },
        ]);
        assert.deepEqual(results, [true]);
        const stored = (await store.getObjects([id])).get(id);
        assert.deepEqual(stored?.data, { message: 'new', story: 'kept', link: 'https://example.com' });
        assert.equal(stored?.updatedTime, 2000);
        assert.equal(stored?.createdTime, 1000);
      });

      it('replaces a nested value as a whole rather than merging inside it', async () => {
        const id = await createObject('post', { privacy: { value: 'SELF', allow: '1' } });
        await store.write([{ op: 'updateObject', id, data: { privacy: { value: 'EVERYONE' } }, updatedTime: 2000 }]);
        assert.deepEqual((await store.getObjects([id])).get(id)?.data, { privacy: { value: 'EVERYONE' } });
      });

      it('keeps data keys in the order they were written, nested ones too', async () => {
        const id = await createObject('post', { zeta: 1, alpha: { y: 1, b: 2 }, mid: [3] });
        await store.write([{ op: 'updateObject', id, data: { beta: true, zeta: 2 }, updatedTime: 2000 }]);
        const data = (await store.getObjects([id])).get(id)?.data;
        assert.equal(JSON.stringify(data), '{"zeta":2,"alpha":{"y":1,"b":2},"mid":[3],"beta":true}');
      });

      it('rejects an update of a missing object', async () => {
        const id = await createObject();
        await store.write([{ op: 'deleteObject', id }]);
        await assert.rejects(store.write([{ op: 'updateObject', id, data: { name: 'x' }, updatedTime: 2000 }]));
      });

      it('deletes an object and reports whether it existed', async () => {
        const id = await createObject();
        assert.deepEqual((await store.write([{ op: 'deleteObject', id }])).results, [true]);
        assert.equal((await store.getObjects([id])).size, 0);
        assert.deepEqual((await store.write([{ op: 'deleteObject', id }])).results, [false]);
      });
    });

    describe('association pages', () => {
      it('lists newest first, breaking equal times by id2 descending', async () => {
        const id1 = await createObject();
        await addAssociations(id1, 'friends', [
          { id2: 11, time: 100 },
          { id2: 13, time: 300 },
          { id2: 12, time: 200 },
          { id2: 17, time: 200 },
          { id2: 15, time: 200 },
        ]);
        assert.deepEqual(positions(await page({ type: 'friends', limit: 10 }, id1)), [
          [300, 13],
          [200, 17],
          [200, 15],
          [200, 12],
          [100, 11],
        ]);
      });

      it('returns whole associations, with their data', async () => {
        const id1 = await createObject();
        await store.write([
          { op: 'addAssoc', type: 'likes', id1, id2: 5, time: 100, data: { reaction: 'LOVE' } },
          { op: 'addAssoc', type: 'likes', id1, id2: 6, time: 90 },
        ]);
        assert.deepEqual(await page({ type: 'likes', limit: 10 }, id1), [
          { id1, type: 'likes', id2: 5, time: 100, data: { reaction: 'LOVE' } },
          { id1, type: 'likes', id2: 6, time: 90, data: null },
        ]);
      });

      it('keeps association types and id1s apart', async () => {
        const a = await createObject();
        const b = await createObject();
        await addAssociations(a, 'friends', [{ id2: 1, time: 10 }]);
        await addAssociations(a, 'likes', [{ id2: 2, time: 20 }]);
        await addAssociations(b, 'friends', [{ id2: 3, time: 30 }]);
        assert.deepEqual(positions(await page({ type: 'friends', limit: 10 }, a)), [[10, 1]]);
        assert.deepEqual(positions(await page({ type: 'likes', limit: 10 }, a)), [[20, 2]]);
      });

      it('answers every id1 asked for, each with its own limit', async () => {
        const a = await createObject();
        const b = await createObject();
        const empty = await createObject();
        await addAssociations(a, 'friends', [1, 2, 3].map((id2) => ({ id2, time: id2 })));
        await addAssociations(b, 'friends', [4, 5, 6].map((id2) => ({ id2, time: id2 })));
        const pages = await store.getPages({ type: 'friends', id1s: [a, b, empty], limit: 2 });
        assert.deepEqual([...pages.keys()].sort((x, y) => x - y), [a, b, empty].sort((x, y) => x - y));
        assert.deepEqual(pages.get(a)?.map((x) => x.id2), [3, 2]);
        assert.deepEqual(pages.get(b)?.map((x) => x.id2), [6, 5]);
        assert.deepEqual(pages.get(empty), []);
      });

      it('pages after and before a position, including inside a run of equal times', async () => {
        const id1 = await createObject();
        await addAssociations(id1, 'friends', [
          { id2: 1, time: 100 },
          { id2: 2, time: 200 },
          { id2: 3, time: 200 },
          { id2: 4, time: 200 },
          { id2: 5, time: 300 },
        ]);
        const middle: Position = { time: 200, id2: 3 };
        assert.deepEqual(positions(await page({ type: 'friends', limit: 10, after: middle }, id1)), [
          [200, 2],
          [100, 1],
        ]);
        assert.deepEqual(positions(await page({ type: 'friends', limit: 1, after: middle }, id1)), [[200, 2]]);
        assert.deepEqual(positions(await page({ type: 'friends', limit: 10, before: middle }, id1)), [
          [300, 5],
          [200, 4],
        ]);
        assert.deepEqual(
          positions(await page({ type: 'friends', limit: 1, before: middle }, id1)),
          [[200, 4]],
          'a before page is the one just before the position, newest first',
        );
      });

      it('lists oldest first when asked, with after and before reversed along', async () => {
        const id1 = await createObject();
        await addAssociations(id1, 'comments', [
          { id2: 1, time: 100 },
          { id2: 2, time: 200 },
          { id2: 3, time: 200 },
          { id2: 4, time: 200 },
          { id2: 5, time: 300 },
        ]);
        const oldest = (request: Omit<PageRequest, 'id1s' | 'type' | 'order'>) =>
          page({ type: 'comments', order: 'oldest', ...request }, id1).then(positions);
        assert.deepEqual(await oldest({ limit: 10 }), [[100, 1], [200, 2], [200, 3], [200, 4], [300, 5]]);
        const middle: Position = { time: 200, id2: 3 };
        assert.deepEqual(await oldest({ limit: 10, after: middle }), [[200, 4], [300, 5]]);
        assert.deepEqual(await oldest({ limit: 1, before: middle }), [[200, 2]]);
        assert.deepEqual(await oldest({ limit: 10, before: middle }), [[100, 1], [200, 2]]);
        assert.deepEqual(await oldest({ limit: 10, since: 200, until: 200 }), [[200, 2], [200, 3], [200, 4]]);
      });

      it('bounds the time window with since and until, inclusively', async () => {
        const id1 = await createObject();
        await addAssociations(id1, 'posts', [100, 200, 300, 400, 500].map((time, i) => ({ id2: i + 1, time })));
        const ids = async (request: Omit<PageRequest, 'id1s' | 'type'>) =>
          (await page({ type: 'posts', ...request }, id1)).map((x) => x.time);
        assert.deepEqual(await ids({ limit: 10, since: 200 }), [500, 400, 300, 200]);
        assert.deepEqual(await ids({ limit: 10, until: 300 }), [300, 200, 100]);
        assert.deepEqual(await ids({ limit: 10, since: 200, until: 400 }), [400, 300, 200]);
        assert.deepEqual(await ids({ limit: 10, since: 200, after: { time: 400, id2: 4 } }), [300, 200]);
        assert.deepEqual(await ids({ limit: 1, until: 400, before: { time: 200, id2: 2 } }), [300]);
        assert.deepEqual(await ids({ limit: 10, since: 600 }), []);
      });

      it('merges the lists of id1 and of the nodes it lists through another type, each row keeping its own id1', async () => {
        const [me, ann, bob, stranger] = [await createObject(), await createObject(), await createObject(), await createObject()];
        await addAssociations(me, 'friends', [{ id2: ann, time: 1 }, { id2: bob, time: 1 }]);
        await addAssociations(me, 'posts', [{ id2: 101, time: 100 }, { id2: 104, time: 400 }]);
        await addAssociations(ann, 'posts', [{ id2: 102, time: 200 }, { id2: 105, time: 400 }, { id2: 107, time: 700 }]);
        await addAssociations(bob, 'posts', [{ id2: 103, time: 300 }, { id2: 106, time: 600 }]);
        await addAssociations(stranger, 'posts', [{ id2: 108, time: 500 }]);
        const feed = (request: Omit<PageRequest, 'id1s' | 'type' | 'through'>) =>
          page({ type: 'posts', through: { type: 'friends' }, ...request }, me).then((rows) => rows.map((row) => [row.id1, row.time, row.id2]));
        assert.deepEqual(await feed({ limit: 10 }), [
          [ann, 700, 107], [bob, 600, 106], [ann, 400, 105], [me, 400, 104], [bob, 300, 103], [ann, 200, 102], [me, 100, 101],
        ]);
        assert.deepEqual(await feed({ limit: 2, after: { time: 400, id2: 105 } }), [[me, 400, 104], [bob, 300, 103]]);
        assert.deepEqual(await feed({ limit: 2, before: { time: 400, id2: 104 } }), [[bob, 600, 106], [ann, 400, 105]]);
        assert.deepEqual(await feed({ limit: 10, since: 300, until: 600 }), [[bob, 600, 106], [ann, 400, 105], [me, 400, 104], [bob, 300, 103]]);
        assert.deepEqual(await feed({ limit: 2, order: 'oldest' }), [[me, 100, 101], [ann, 200, 102]]);
        assert.deepEqual(await feed({ limit: 2, order: 'oldest', before: { time: 400, id2: 104 } }), [[ann, 200, 102], [bob, 300, 103]]);
        const pages = await store.getPages({ type: 'posts', through: { type: 'friends' }, id1s: [me, stranger], limit: 1 });
        assert.deepEqual([...pages].map(([id1, rows]) => [id1, rows.map((row) => row.id2)]), [[me, [107]], [stranger, [108]]]);
        // Only the listed nodes that granted the app the scope; id1's own list whatever it granted.
        const app = await store.createApp({ name: 'Feed', secret: 's', idKey: 'k', createdTime: 1 });
        await store.setGrants(app.id, [{ userId: bob, grants: [{ scope: 'public_profile', status: 'granted' }] }]);
        const granted = await page({ type: 'posts', through: { type: 'friends', grantedTo: { appId: app.id, scope: 'public_profile' } }, limit: 10 }, me);
        assert.deepEqual(granted.map((row) => row.id2), [106, 104, 103, 101]);
      });

      it('answers a limit of 0 with empty pages', async () => {
        const id1 = await createObject();
        await addAssociations(id1, 'friends', [{ id2: 1, time: 1 }]);
        assert.deepEqual(await page({ type: 'friends', limit: 0 }, id1), []);
      });

      it('walks 1,000 associations with after, each exactly once, in order', async () => {
        const id1 = await createObject();
        // Few distinct times, so most page boundaries fall inside a run of equal times.
        const entries = Array.from({ length: 1000 }, (_, i) => ({ id2: 10_000 + i, time: 1_000 + (i % 7) }));
        await addAssociations(id1, 'friends', entries);
        const expected = [...entries].sort((x, y) => y.time - x.time || y.id2 - x.id2).map((x) => x.id2);

        const seen: ObjectId[] = [];
        let after: Position | undefined;
        for (let pages = 0; pages < 100; pages += 1) {
          const list = await page({ type: 'friends', limit: 37, after }, id1);
          seen.push(...list.map((x) => x.id2));
          if (list.length < 37) break;
          const last = list[list.length - 1]!;
          after = { time: last.time, id2: last.id2 };
        }
        assert.equal(seen.length, 1000);
        assert.deepEqual(seen, expected);
      });

      it('walks 1,000 associations backwards with before, each exactly once', async () => {
        const id1 = await createObject();
        const entries = Array.from({ length: 1000 }, (_, i) => ({ id2: 20_000 + i, time: 5_000 + (i % 11) }));
        await addAssociations(id1, 'friends', entries);
        const expected = [...entries].sort((x, y) => y.time - x.time || y.id2 - x.id2).map((x) => x.id2);

        // Start below the oldest association, as a client does when it has reached the end.
        const seen: ObjectId[] = [];
        let before: Position = { time: 0, id2: 0 };
        for (let pages = 0; pages < 100; pages += 1) {
          const list = await page({ type: 'friends', limit: 41, before }, id1);
          seen.unshift(...list.map((x) => x.id2));
          if (list.length < 41) break;
          before = { time: list[0]!.time, id2: list[0]!.id2 };
        }
        assert.equal(seen.length, 1000);
        assert.deepEqual(seen, expected);
      });

      it('keeps only id2s that granted the app the scope when asked', async () => {
        const user = await createObject();
        const [app, otherApp] = await Promise.all([
          store.createApp({ name: 'One', secret: 's1', idKey: 'k1', createdTime: 1 }),
          store.createApp({ name: 'Two', secret: 's2', idKey: 'k2', createdTime: 1 }),
        ]);
        const granted = await createObject();
        const declined = await createObject();
        const otherScope = await createObject();
        const otherAppOnly = await createObject();
        const nothing = await createObject();
        await store.setGrants(app.id, [{ userId: granted, grants: [{ scope: 'user_friends', status: 'granted' }] }]);
        await store.setGrants(app.id, [{ userId: declined, grants: [{ scope: 'user_friends', status: 'declined' }] }]);
        await store.setGrants(app.id, [{ userId: otherScope, grants: [{ scope: 'user_posts', status: 'granted' }] }]);
        await store.setGrants(otherApp.id, [{ userId: otherAppOnly, grants: [{ scope: 'user_friends', status: 'granted' }] }]);
        await addAssociations(user, 'friends', [granted, declined, otherScope, otherAppOnly, nothing].map((id2, i) => ({ id2, time: 100 + i })));

        const filtered = await page(
          { type: 'friends', limit: 10, id2GrantedTo: { appId: app.id, scope: 'user_friends' } },
          user,
        );
        assert.deepEqual(filtered.map((x) => x.id2), [granted]);
        const forOtherApp = await page(
          { type: 'friends', limit: 10, id2GrantedTo: { appId: otherApp.id, scope: 'user_friends' } },
          user,
        );
        assert.deepEqual(forOtherApp.map((x) => x.id2), [otherAppOnly]);
        assert.equal((await page({ type: 'friends', limit: 10 }, user)).length, 5);
      });

      it('brings the listed objects along, with what they and their owners granted, but for people the caller knows', async () => {
        const app = await store.createApp({ name: 'Along', secret: 's', idKey: 'k', createdTime: 1 });
        const [list, other, author, stranger] = await Promise.all([createObject(), createObject(), createObject(), createObject()]);
        const post = await createObject('post', { message: 'hi' }, author);
        await store.setGrants(app.id, [
          { userId: author, grants: [{ scope: 'public_profile', status: 'granted' }, { scope: 'user_posts', status: 'granted' }, { scope: 'user_likes', status: 'declined' }] },
        ]);
        await addAssociations(list, 'likes', [author, stranger, post].map((id2, i) => ({ id2, time: 100 + i })));
        await addAssociations(other, 'likes', [{ id2: author, time: 100 }]);
        const request: PageRequest = { type: 'likes', id1s: [list, other], limit: 10, grantsTo: app.id };
        const granted = (scopes: Map<ObjectId, string[]>, person: ObjectId) => [...(scopes.get(person) ?? [])].sort();

        const read = await store.getPagesWithObjects(request);
        assert.deepEqual(read.pages.get(list)!.map((row) => row.id2), [post, stranger, author]);
        assert.deepEqual(read.pages.get(other)!.map((row) => row.id2), [author]);
        assert.deepEqual([...read.objects.keys()].sort(), [author, stranger, post].sort());
        assert.deepEqual(read.objects.get(post)!.data, { message: 'hi' });
        assert.equal(read.objects.get(post)!.owner, author);
        assert.deepEqual(granted(read.grantedScopes, author), ['public_profile', 'user_posts']);
        assert.deepEqual(read.grantedScopes.get(stranger), []);

        // What the caller says it knows may be left out; everyone else's grants still come along.
        const knowing = await store.getPagesWithObjects({ ...request }, (person) => person === author);
        assert.deepEqual([...knowing.objects.keys()].sort(), [author, stranger, post].sort());
        assert.deepEqual(knowing.grantedScopes.get(stranger), []);
        assert.deepEqual(knowing.grantedScopes.get(post), []);
        if (knowing.grantedScopes.has(author)) assert.deepEqual(granted(knowing.grantedScopes, author), ['public_profile', 'user_posts']);

        // An owner listed on no page comes along too, once for all of its objects.
        const writer = await createObject();
        const drafts = [await createObject('post', { message: 'a' }, writer), await createObject('post', { message: 'b' }, writer)];
        await store.setGrants(app.id, [{ userId: writer, grants: [{ scope: 'user_posts', status: 'granted' }] }]);
        const shelf = await createObject();
        await addAssociations(shelf, 'likes', drafts.map((id2, i) => ({ id2, time: 200 + i })));
        const owned = await store.getPagesWithObjects({ type: 'likes', id1s: [shelf, list], limit: 10, grantsTo: app.id });
        assert.deepEqual(granted(owned.grantedScopes, writer), ['user_posts']);
        assert.deepEqual(granted(owned.grantedScopes, author), ['public_profile', 'user_posts']);
      });

      it('reads each id1 on from its own position when resumed, in either direction, merged lists too', async () => {
        const [a, b, me, ann] = [await createObject(), await createObject(), await createObject(), await createObject()];
        await addAssociations(a, 'friends', [1, 2, 3, 4, 5].map((id2) => ({ id2, time: id2 * 10 })));
        await addAssociations(b, 'friends', [6, 7, 8].map((id2) => ({ id2, time: 100 })));
        const ids = (pages: Map<ObjectId, Association[]>) => [...pages].map(([id1, rows]) => [id1, rows.map((row) => row.id2)]);
        const resumeAt = new Map<ObjectId, Position>([[a, { time: 40, id2: 4 }], [b, { time: 100, id2: 8 }]]);
        // Forwards (newest first): strictly after each position, whatever `after` said for all.
        const forwards = await store.getPages({ type: 'friends', id1s: [a, b], limit: 2, after: { time: 999, id2: 999 }, resumeAt });
        assert.deepEqual(ids(forwards), [[a, [3, 2]], [b, [7, 6]]]);
        // Backwards: the page just before each position, in the list's order.
        const backwards = await store.getPages({ type: 'friends', id1s: [a, b], limit: 2, before: { time: 0, id2: 0 }, resumeAt: new Map([[a, { time: 20, id2: 2 }], [b, { time: 100, id2: 6 }]]) });
        assert.deepEqual(ids(backwards), [[a, [4, 3]], [b, [8, 7]]]);
        const oldest = await store.getPages({ type: 'friends', id1s: [a], limit: 10, order: 'oldest', resumeAt: new Map([[a, { time: 30, id2: 3 }]]) });
        assert.deepEqual(ids(oldest), [[a, [4, 5]]]);
        // With the objects, through another list.
        await addAssociations(me, 'friends', [{ id2: ann, time: 1 }]);
        await addAssociations(me, 'posts', [{ id2: a, time: 100 }, { id2: b, time: 300 }]);
        await addAssociations(ann, 'posts', [{ id2: me, time: 200 }, { id2: ann, time: 400 }]);
        const merged = await store.getPagesWithObjects({ type: 'posts', through: { type: 'friends' }, id1s: [me], limit: 2, resumeAt: new Map([[me, { time: 300, id2: b }]]) });
        assert.deepEqual(merged.pages.get(me)!.map((row) => [row.id1, row.id2]), [[ann, me], [me, a]]);
        assert.deepEqual([...merged.objects.keys()].sort(), [me, a].sort());
        await assert.rejects(store.getPages({ type: 'friends', id1s: [a, b], limit: 2, resumeAt: new Map([[a, { time: 40, id2: 4 }]]) }), RangeError);
      });

      it('applies the grant filter before the limit', async () => {
        const user = await createObject();
        const app = await store.createApp({ name: 'Filter', secret: 's', idKey: 'k', createdTime: 1 });
        const friends = await Promise.all(Array.from({ length: 6 }, () => createObject()));
        await addAssociations(user, 'friends', friends.map((id2, i) => ({ id2, time: 100 + i })));
        const grantedFriends = friends.filter((_, i) => i % 2 === 0);
        await store.setGrants(
          app.id,
          grantedFriends.map((friend) => ({ userId: friend, grants: [{ scope: 'user_friends', status: 'granted' as const }] })),
        );
        const list = await page(
          { type: 'friends', limit: 2, id2GrantedTo: { appId: app.id, scope: 'user_friends' } },
          user,
        );
        assert.deepEqual(list.map((x) => x.id2), [grantedFriends[2], grantedFriends[1]]);
      });
    });

    describe('counts and existence', () => {
      it('keeps counts exact through adds, duplicate adds and removes', async () => {
        const id1 = await createObject();
        const first = await store.write([
          { op: 'addAssoc', type: 'likes', id1, id2: 1, time: 10 },
          { op: 'addAssoc', type: 'likes', id1, id2: 2, time: 20 },
          { op: 'addAssoc', type: 'likes', id1, id2: 1, time: 30 },
        ]);
        assert.deepEqual(first.results, [true, true, false]);
        assert.equal((await store.getCounts('likes', [id1])).get(id1), 2);
        assert.deepEqual(
          positions(await page({ type: 'likes', limit: 10 }, id1)),
          [
            [20, 2],
            [10, 1],
          ],
          'a duplicate add changes nothing, not even the time',
        );

        const removal = await store.write([
          { op: 'removeAssoc', type: 'likes', id1, id2: 1 },
          { op: 'removeAssoc', type: 'likes', id1, id2: 1 },
          { op: 'removeAssoc', type: 'likes', id1, id2: 99 },
        ]);
        assert.deepEqual(removal.results, [true, false, false]);
        assert.equal((await store.getCounts('likes', [id1])).get(id1), 1);
        await store.write([{ op: 'removeAssoc', type: 'likes', id1, id2: 2 }]);
        assert.equal((await store.getCounts('likes', [id1])).get(id1), 0);
      });

      it('answers 0 for id1s without associations of the type', async () => {
        const a = await createObject();
        const b = await createObject();
        await addAssociations(a, 'friends', [{ id2: 1, time: 1 }]);
        const counts = await store.getCounts('friends', [a, b, b + 1_000_000]);
        assert.deepEqual(counts, new Map([[a, 1], [b, 0], [b + 1_000_000, 0]]));
        assert.deepEqual(await store.getCounts('likes', [a]), new Map([[a, 0]]));
      });

      it('tells which pairs exist', async () => {
        const a = await createObject();
        const b = await createObject();
        await addAssociations(a, 'likes', [{ id2: 7, time: 1 }]);
        await addAssociations(b, 'likes', [{ id2: 8, time: 1 }]);
        const existing = await store.getExisting('likes', [
          [a, 7],
          [a, 8],
          [b, 8],
          [b, 7],
        ]);
        assert.deepEqual([...existing].sort(), [`${a}:7`, `${b}:8`].sort());
        assert.equal((await store.getExisting('friends', [[a, 7]])).size, 0);
      });

      it('cascades deleteObject to associations from and to the object and fixes counts', async () => {
        const post = await createObject('post');
        const liker = await createObject();
        const otherLiker = await createObject();
        const bystander = await createObject();
        await store.write([
          { op: 'addAssoc', type: 'likes', id1: post, id2: liker, time: 10 },
          { op: 'addAssoc', type: 'likes', id1: post, id2: otherLiker, time: 11 },
          { op: 'addAssoc', type: 'liked', id1: liker, id2: post, time: 10 },
          { op: 'addAssoc', type: 'liked', id1: otherLiker, id2: post, time: 11 },
          { op: 'addAssoc', type: 'liked', id1: otherLiker, id2: bystander, time: 12 },
          { op: 'addAssoc', type: 'tagged', id1: liker, id2: post, time: 13 },
          { op: 'addAssoc', type: 'self', id1: post, id2: post, time: 14 },
        ]);

        assert.deepEqual((await store.write([{ op: 'deleteObject', id: post }])).results, [true]);

        assert.deepEqual(await store.getCounts('likes', [post]), new Map([[post, 0]]));
        assert.deepEqual(await store.getCounts('self', [post]), new Map([[post, 0]]));
        assert.deepEqual(await store.getCounts('liked', [liker, otherLiker]), new Map([[liker, 0], [otherLiker, 1]]));
        assert.deepEqual(await store.getCounts('tagged', [liker]), new Map([[liker, 0]]));
        assert.deepEqual(await page({ type: 'likes', limit: 10 }, post), []);
        assert.deepEqual((await page({ type: 'liked', limit: 10 }, otherLiker)).map((x) => x.id2), [bystander]);
        assert.equal((await store.getExisting('liked', [[liker, post], [otherLiker, post]])).size, 0);
        assert.equal((await store.getObjects([liker, otherLiker, bystander])).size, 3);

        // Counts stay exact when the same pairs are written again later.
        await store.write([{ op: 'addAssoc', type: 'liked', id1: liker, id2: bystander, time: 20 }]);
        assert.deepEqual(await store.getCounts('liked', [liker]), new Map([[liker, 1]]));
      });
    });

    describe('write batches', () => {
      it('resolves refs to the ids created earlier in the batch', async () => {
        const owner = await createObject();
        const { results } = await store.write([
          { op: 'createObject', object: { type: 'post', owner, createdTime: 50, data: { message: 'a' } } },
          { op: 'createObject', object: { type: 'comment', owner, createdTime: 51, data: { message: 'b' } } },
          { op: 'addAssoc', type: 'feed', id1: owner, id2: { ref: 0 }, time: 50 },
          { op: 'addAssoc', type: 'comments', id1: { ref: 0 }, id2: { ref: 1 }, time: 51 },
        ]);
        const [post, comment] = results as [ObjectId, ObjectId, boolean, boolean];
        assert.equal(typeof post, 'number');
        assert.equal(typeof comment, 'number');
        assert.notEqual(post, comment);
        assert.deepEqual(results.slice(2), [true, true]);
        assert.equal((await store.getObjects([comment])).get(comment)?.type, 'comment');
        assert.deepEqual((await page({ type: 'feed', limit: 5 }, owner)).map((x) => x.id2), [post]);
        assert.deepEqual((await page({ type: 'comments', limit: 5 }, post)).map((x) => x.id2), [comment]);
      });

      it('fills refFields with the ids of objects created earlier in the batch', async () => {
        const { results } = await store.write([
          { op: 'createObject', object: { type: 'photo', owner: null, createdTime: 1, data: { name: 'p' } } },
          { op: 'createObject', object: { type: 'post', owner: null, createdTime: 1, data: { type: 'photo' } }, refFields: { object_id: { ref: 0 } } },
        ]);
        const [photo, post] = results as ObjectId[];
        assert.deepEqual((await store.getObjects([post!])).get(post!)?.data, { type: 'photo', object_id: String(photo) });
      });

      it('refuses refFields that name a later op', async () => {
        await assert.rejects(
          store.write([
            { op: 'createObject', object: { type: 'post', owner: null, createdTime: 1, data: {} }, refFields: { object_id: { ref: 1 } } },
            { op: 'createObject', object: { type: 'photo', owner: null, createdTime: 1, data: {} } },
          ]),
        );
      });

      it('rejects a ref that is not an earlier createObject, changing nothing', async () => {
        const owner = await createObject();
        await assert.rejects(
          store.write([
            { op: 'addAssoc', type: 'feed', id1: owner, id2: { ref: 1 }, time: 1 },
            { op: 'createObject', object: { type: 'post', owner, createdTime: 1, data: {} } },
          ]),
        );
        await assert.rejects(
          store.write([
            { op: 'addAssoc', type: 'feed', id1: owner, id2: 5, time: 1 },
            { op: 'addAssoc', type: 'feed', id1: owner, id2: { ref: 0 }, time: 1 },
          ]),
        );
        assert.deepEqual(await page({ type: 'feed', limit: 5 }, owner), []);
        assert.equal((await store.getCounts('feed', [owner])).get(owner), 0);
      });

      it('applies all ops of a batch or none of them', async () => {
        const user = await createObject('user', { name: 'Before' });
        const missing = await createObject();
        await store.write([{ op: 'deleteObject', id: missing }]);
        await store.write([{ op: 'addAssoc', type: 'friends', id1: user, id2: 500, time: 1 }]);

        await assert.rejects(
          store.write([
            { op: 'createObject', object: { type: 'post', owner: user, createdTime: 5, data: { message: 'lost' } } },
            { op: 'addAssoc', type: 'feed', id1: user, id2: { ref: 0 }, time: 5 },
            { op: 'updateObject', id: user, data: { name: 'After' }, updatedTime: 5 },
            { op: 'removeAssoc', type: 'friends', id1: user, id2: 500 },
            { op: 'updateObject', id: missing, data: { name: 'ghost' }, updatedTime: 5 },
          ]),
        );

        assert.deepEqual(await page({ type: 'feed', limit: 5 }, user), []);
        assert.equal((await store.getCounts('feed', [user])).get(user), 0);
        assert.deepEqual((await store.getObjects([user])).get(user)?.data, { name: 'Before' });
        assert.deepEqual((await page({ type: 'friends', limit: 5 }, user)).map((x) => x.id2), [500]);
        assert.equal((await store.getCounts('friends', [user])).get(user), 1);
      });

      it('deletes a person with all they own, the comments on it, and their auth records, fixing counts', async () => {
        const [person, friend, other] = [await createObject('user'), await createObject('user'), await createObject('user')];
        const othersPost = await createObject('post', { message: 'stays' }, other);
        const { results } = await store.write([
          { op: 'createObject', object: { type: 'post', owner: person, createdTime: 10, data: { message: 'mine' } } },
          { op: 'createObject', object: { type: 'comment', owner: other, createdTime: 11, data: { message: 'on mine' } } },
          { op: 'createObject', object: { type: 'comment', owner: person, createdTime: 12, data: { message: 'on theirs' } } },
          { op: 'createObject', object: { type: 'album', owner: person, createdTime: 13, data: {} } },
          { op: 'addAssoc', type: 'posts', id1: person, id2: { ref: 0 }, time: 10 },
          { op: 'addAssoc', type: 'comments', id1: { ref: 0 }, id2: { ref: 1 }, time: 11 },
          { op: 'addAssoc', type: 'comments', id1: othersPost, id2: { ref: 2 }, time: 12 },
          { op: 'addAssoc', type: 'likes', id1: othersPost, id2: person, time: 12 },
          { op: 'addAssoc', type: 'likes', id1: othersPost, id2: friend, time: 12 },
          { op: 'addAssoc', type: 'friends', id1: person, id2: friend, time: 13 },
          { op: 'addAssoc', type: 'friends', id1: friend, id2: person, time: 13 },
          { op: 'addAssoc', type: 'test_users', id1: other, id2: person, time: 13 },
        ]);
        const [mine, onMine, onTheirs, album] = results as ObjectId[];
        await store.setGrants(71, [{ userId: person, grants: [{ scope: 'public_profile', status: 'granted' }] }]);
        await store.setGrants(72, [
          { userId: person, grants: [{ scope: 'email', status: 'granted' }] },
          { userId: friend, grants: [{ scope: 'email', status: 'granted' }] },
        ]);
        const token = (hash: string, userId: ObjectId, appId: ObjectId): TokenRecord => ({
          hash, kind: 'user', appId, userId, scopes: [], issuedAt: 1, expiresAt: 0,
        });
        await store.saveTokens([token(`${person}`.padEnd(64, 'a'), person, 71)]);
        await store.saveTokens([token(`${person}`.padEnd(64, 'b'), person, 72)]);
        await store.saveTokens([token(`${friend}`.padEnd(64, 'c'), friend, 72)]);
        await store.saveTokens([token(`${person}`.padEnd(64, 'e'), person, 73)]);
        await store.revokeTokens(73, person, 1);
        await store.saveTokens([token(`${friend}`.padEnd(64, 'f'), friend, 73)]);
        await store.revokeTokens(73, friend, 1);
        assert.ok(await store.findRevokedToken(`${person}`.padEnd(64, 'e')));
        await store.setCredentials({ userId: person, email: `gone.${person}@example.com`, passwordHash: 'h' });
        const code = { hash: `${person}`.padEnd(64, 'd'), appId: 71, userId: person, redirectUri: 'https://a.example/', scopes: [], expiresAt: 9 };
        await store.saveAuthCodes([code]);

        assert.deepEqual((await store.write([{ op: 'deleteUser', id: person, cascade: ['comments'] }])).results, [true]);

        const left = await store.getObjects([person, mine!, onMine!, onTheirs!, album!, friend, other, othersPost]);
        assert.deepEqual([...left.keys()].sort(), [friend, other, othersPost].sort());
        assert.deepEqual((await page({ type: 'likes', limit: 5 }, othersPost)).map((x) => x.id2), [friend]);
        assert.equal((await store.getCounts('likes', [othersPost])).get(othersPost), 1);
        assert.deepEqual(await page({ type: 'comments', limit: 5 }, othersPost), []);
        assert.equal((await store.getCounts('comments', [othersPost])).get(othersPost), 0);
        assert.deepEqual(await page({ type: 'friends', limit: 5 }, friend), []);
        assert.equal((await store.getCounts('friends', [friend])).get(friend), 0);
        assert.equal((await store.getCounts('test_users', [other])).get(other), 0);
        assert.equal((await store.getGrants(71, [person])).size, 0);
        assert.equal((await store.getGrants(72, [person])).size, 0);
        assert.equal((await store.getGrants(72, [friend])).size, 1, "others' grants stay");
        assert.equal(await store.findToken(`${person}`.padEnd(64, 'a')), undefined);
        assert.equal(await store.findToken(`${person}`.padEnd(64, 'b')), undefined);
        assert.ok(await store.findToken(`${friend}`.padEnd(64, 'c')), "others' tokens stay");
        assert.equal(await store.findRevokedToken(`${person}`.padEnd(64, 'e')), undefined);
        assert.ok(await store.findRevokedToken(`${friend}`.padEnd(64, 'f')), "others' revoked tokens stay");
        assert.equal(await store.getCredentials(person), undefined);
        assert.equal(await store.takeAuthCode(code.hash), undefined);

        assert.deepEqual((await store.write([{ op: 'deleteUser', id: person, cascade: ['comments'] }])).results, [false]);
      });

      it('accepts an empty batch', async () => {
        assert.deepEqual(await store.write([]), { results: [] });
      });

      it("writes a new user's credentials, grants and token in the batch that creates them", async () => {
        const app = await createObject('application');
        const email = `batch.${app}@Example.com`;
        const hash = `${app}`.padEnd(64, 'e');
        const grants: Grant[] = [{ scope: 'public_profile', status: 'granted' }, { scope: 'email', status: 'declined' }];
        const { results } = await store.write([
          { op: 'createObject', object: { type: 'user', owner: null, createdTime: 7, data: { name: 'New' } } },
          { op: 'addAssoc', type: 'test_users', id1: app, id2: { ref: 0 }, time: 7 },
          { op: 'setCredentials', userId: { ref: 0 }, email, passwordHash: 'scrypt$new' },
          { op: 'setGrants', appId: app, userId: { ref: 0 }, grants },
          { op: 'saveToken', token: { hash, kind: 'user', appId: app, userId: { ref: 0 }, scopes: ['public_profile'], issuedAt: 7, expiresAt: 70 } },
        ]);
        const user = results[0] as ObjectId;
        assert.deepEqual(results.slice(1), [true, true, true, true]);
        assert.deepEqual(await store.getCredentials(user), { userId: user, email: email.toLowerCase(), passwordHash: 'scrypt$new' });
        assert.deepEqual(await store.getGrants(app, [user]), new Map([[user, [grants[1], grants[0]]]]));
        assert.deepEqual(await store.findToken(hash), { hash, kind: 'user', appId: app, userId: user, scopes: ['public_profile'], issuedAt: 7, expiresAt: 70 });

        await store.write([
          { op: 'setGrants', appId: app, userId: user, grants: [{ scope: 'user_friends', status: 'granted' }] },
          { op: 'setCredentials', userId: user, email, passwordHash: 'scrypt$changed' },
        ]);
        assert.deepEqual(await store.getGrants(app, [user]), new Map([[user, [{ scope: 'user_friends', status: 'granted' }]]]));
        assert.equal((await store.getCredentials(user))?.passwordHash, 'scrypt$changed');
      });

      it('writes none of the credentials, grants and token of a batch that fails', async () => {
        const app = await createObject('application');
        const missing = await createObject();
        await store.write([{ op: 'deleteObject', id: missing }]);
        const email = `failed.${app}@example.com`;
        const hash = `${app}`.padEnd(64, 'f');
        await assert.rejects(
          store.write([
            { op: 'createObject', object: { type: 'user', owner: null, createdTime: 7, data: {} } },
            { op: 'setCredentials', userId: { ref: 0 }, email, passwordHash: 'x' },
            { op: 'setGrants', appId: app, userId: { ref: 0 }, grants: [{ scope: 'public_profile', status: 'granted' }] },
            { op: 'saveToken', token: { hash, kind: 'user', appId: app, userId: { ref: 0 }, scopes: [], issuedAt: 7, expiresAt: 0 } },
            { op: 'updateObject', id: missing, data: { name: 'ghost' }, updatedTime: 7 },
          ]),
        );
        assert.equal(await store.findCredentialsByEmail(email), undefined);
        assert.equal(await store.findToken(hash), undefined);
      });

      it("refuses a batch whose adds take a list past checkCount's max, changing nothing", async () => {
        const [owner, a, b, c] = [await createObject(), await createObject(), await createObject(), await createObject()];
        await addAssociations(owner, 'members', [{ id2: a, time: 1 }, { id2: b, time: 2 }]);
        const add = (id2: ObjectId): WriteOp[] => [
          { op: 'addAssoc', type: 'members', id1: owner, id2, time: 3 },
          { op: 'checkCount', type: 'members', id1: owner, max: 3 },
        ];
        assert.deepEqual((await store.write(add(c))).results, [true, true]);
        const refused = store.write([{ op: 'createObject', object: { type: 'user', owner: null, createdTime: 4, data: {} } }, ...add(4_000_000_000)]);
        await assert.rejects(refused, (error) => error instanceof CountLimitError && error.max === 3 && error.id1 === owner);
        assert.equal((await store.getCounts('members', [owner])).get(owner), 3);
        assert.deepEqual((await page({ type: 'members', limit: 5 }, owner)).map((x) => x.id2), [c, b, a]);
        assert.deepEqual((await store.write([{ op: 'checkCount', type: 'nothing', id1: owner, max: 0 }])).results, [true]);
      });

      it('lets simultaneous batches add to a list only up to the max their checkCount names', async () => {
        const owner = await createObject();
        const join = (): WriteOp[] => [
          { op: 'createObject', object: { type: 'user', owner: null, createdTime: 5, data: {} } },
          { op: 'addAssoc', type: 'members', id1: owner, id2: { ref: 0 }, time: 5 },
          { op: 'checkCount', type: 'members', id1: owner, max: 3 },
        ];
        const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => store.write(join())));
        assert.equal(outcomes.filter((outcome) => outcome.status === 'fulfilled').length, 3);
        for (const outcome of outcomes) {
          if (outcome.status === 'rejected') assert.ok(outcome.reason instanceof CountLimitError, String(outcome.reason));
        }
        assert.equal((await store.getCounts('members', [owner])).get(owner), 3);
        assert.equal((await page({ type: 'members', limit: 10 }, owner)).length, 3);
      });
    });

    describe('apps', () => {
      it('creates an app as an application object and reads it back', async () => {
        const business = await createObject('page');
        const app = await store.createApp({
          name: 'Explorer',
          secret: 'shh',
          idKey: 'key-1',
          idTag: 5,
          requireProof: true,
          businessId: business,
          createdTime: 1234,
          redirectUris: ['https://app.example/callback', 'http://localhost:3000/'],
        });
        assert.deepEqual(await store.findAppsByIdTag(5), [app]);
        assert.deepEqual(app, {
          id: app.id,
          name: 'Explorer',
          secret: 'shh',
          idKey: 'key-1',
          idTag: 5,
          requireProof: true,
          businessId: business,
          createdTime: 1234,
          redirectUris: ['https://app.example/callback', 'http://localhost:3000/'],
          apiVersion: null,
        });
        const object = (await store.getObjects([app.id])).get(app.id);
        assert.equal(object?.type, 'application');
        assert.deepEqual(object?.data, { name: 'Explorer' });
        assert.deepEqual(await store.getApps([app.id, app.id + 1_000_000]), new Map([[app.id, app]]));
      });

      it("keeps an app's API version in its application object, where updateApp changes it", async () => {
        const app = await store.createApp({ name: 'Old', secret: 's', idKey: 'k', createdTime: 1, apiVersion: 'v2.0' });
        assert.equal(app.apiVersion, 'v2.0');
        assert.equal((await store.getApps([app.id])).get(app.id)?.apiVersion, 'v2.0');
        assert.deepEqual((await store.getObjects([app.id])).get(app.id)?.data, { name: 'Old', api_version: 'v2.0' });
        await store.updateApp(app.id, { data: { api_version: 'v2.3' } }, 2);
        assert.equal((await store.listApps()).find((listed) => listed.id === app.id)?.apiVersion, 'v2.3');
      });

      it('defaults requireProof to false, businessId to null and redirectUris to none', async () => {
        const app = await store.createApp({ name: 'Plain', secret: 's', idKey: 'k', createdTime: 1 });
        assert.equal(app.requireProof, false);
        assert.equal(app.businessId, null);
        assert.deepEqual(app.redirectUris, []);
        const stored = (await store.getApps([app.id])).get(app.id);
        assert.equal(stored?.requireProof, false);
        assert.equal(stored?.businessId, null);
        assert.deepEqual(stored?.redirectUris, []);
      });

      it('lists every app', async () => {
        const a = await store.createApp({ name: 'A', secret: 'sa', idKey: 'ka', createdTime: 1, redirectUris: ['https://a.example/'] });
        const b = await store.createApp({ name: 'B', secret: 'sb', idKey: 'kb', createdTime: 2 });
        const listed = await store.listApps();
        assert.deepEqual(listed.find((x) => x.id === a.id), a);
        assert.deepEqual(listed.find((x) => x.id === b.id), b);
      });

      it("replaces an app's secret and nothing else", async () => {
        const app = await store.createApp({ name: 'Renewed', secret: 'old', idKey: 'kr', createdTime: 3 });
        assert.deepEqual(await store.updateApp(app.id, { secret: 'new' }, 4), { ...app, secret: 'new' });
        assert.deepEqual((await store.getApps([app.id])).get(app.id), { ...app, secret: 'new' });
        assert.equal((await store.getObjects([app.id])).get(app.id)?.updatedTime, 3, 'its object is untouched');
        assert.equal(await store.updateApp(app.id + 1_000_000, { secret: 'new' }, 4), undefined);
      });
    });

    describe('tokens', () => {
      const userToken = (hash: string, appId: ObjectId, userId: ObjectId): TokenRecord => ({
        hash,
        kind: 'user',
        appId,
        userId,
        scopes: ['public_profile', 'user_friends'],
        issuedAt: 100,
        expiresAt: 5_000,
      });

      it('finds a saved token by its hash', async () => {
        const token = userToken('a'.repeat(64), 10, 20);
        await store.saveTokens([token]);
        assert.deepEqual(await store.findToken(token.hash), token);
        assert.equal(await store.findToken('b'.repeat(64)), undefined);
      });

      it('saves many tokens in one call', async () => {
        const app = await createObject('application');
        const tokens = [1, 2, 3].map((n) => userToken(`${app}-${n}`.padEnd(64, 'g'), app, 20 + n));
        await store.saveTokens(tokens);
        for (const token of tokens) assert.deepEqual(await store.findToken(token.hash), token);
        await store.saveTokens([]);
        await store.saveTokens([{ ...tokens[0]!, scopes: ['email'] }]);
        assert.deepEqual((await store.findToken(tokens[0]!.hash))?.scopes, ['email'], 'saving a hash again replaces its token');
      });

      it('round-trips an app token without user that never expires', async () => {
        const token: TokenRecord = { hash: 'c'.repeat(64), kind: 'app', appId: 10, userId: null, scopes: [], issuedAt: 1, expiresAt: 0 };
        await store.saveTokens([token]);
        assert.deepEqual(await store.findToken(token.hash), token);
      });

      it("deletes only the given user's tokens for the given app", async () => {
        const gone1 = userToken('1'.repeat(64), 10, 20);
        const gone2 = { ...userToken('2'.repeat(64), 10, 20), scopes: ['public_profile'] };
        const otherUser = userToken('3'.repeat(64), 10, 21);
        const otherApp = userToken('4'.repeat(64), 11, 20);
        for (const token of [gone1, gone2, otherUser, otherApp]) await store.saveTokens([token]);
        await store.deleteTokens(10, 20);
        assert.equal(await store.findToken(gone1.hash), undefined);
        assert.equal(await store.findToken(gone2.hash), undefined);
        assert.deepEqual(await store.findToken(otherUser.hash), otherUser);
        assert.deepEqual(await store.findToken(otherApp.hash), otherApp);
      });

      it("revokes a user's tokens for an app, remembering each until it would have expired", async () => {
        const revoked = userToken('5'.repeat(64), 30, 40);
        const forever = { ...userToken('6'.repeat(64), 30, 40), expiresAt: 0 };
        const otherApp = userToken('7'.repeat(64), 31, 40);
        for (const token of [revoked, forever, otherApp]) await store.saveTokens([token]);
        await store.revokeTokens(30, 40, 1_000);
        assert.equal(await store.findToken(revoked.hash), undefined);
        assert.equal(await store.findToken(forever.hash), undefined);
        assert.deepEqual(await store.findToken(otherApp.hash), otherApp);
        assert.deepEqual(await store.findRevokedToken(revoked.hash), { hash: revoked.hash, appId: 30, userId: 40, expiresAt: 5_000, scopes: ['public_profile', 'user_friends'] });
        assert.equal(await store.findRevokedToken(otherApp.hash), undefined);

        // A later revocation, after the first token's own expiry, drops its record; a token that never expires stays.
        await store.revokeTokens(31, 40, 6_000);
        assert.equal(await store.findRevokedToken(revoked.hash), undefined);
        assert.deepEqual(await store.findRevokedToken(forever.hash), { hash: forever.hash, appId: 30, userId: 40, expiresAt: 0, scopes: ['public_profile', 'user_friends'] });
        assert.equal((await store.findRevokedToken(otherApp.hash))?.appId, 31);
      });
    });

    describe('grants', () => {
      it("replaces a user's grants for an app and leaves others alone", async () => {
        const [app, otherApp, user, otherUser] = [901, 902, 903, 904];
        await store.setGrants(app, [{ userId: user, grants: [
          { scope: 'public_profile', status: 'granted' },
          { scope: 'user_posts', status: 'declined' },
        ] }]);
        await store.setGrants(otherApp, [{ userId: user, grants: [{ scope: 'email', status: 'granted' }] }]);
        await store.setGrants(app, [{ userId: otherUser, grants: [{ scope: 'user_friends', status: 'granted' }] }]);

        const sortByScope = (grants: { scope: string }[] | undefined) =>
          [...(grants ?? [])].sort((x, y) => x.scope.localeCompare(y.scope));
        const before = await store.getGrants(app, [user, otherUser, 999]);
        assert.deepEqual(sortByScope(before.get(user)), [
          { scope: 'public_profile', status: 'granted' },
          { scope: 'user_posts', status: 'declined' },
        ]);
        assert.deepEqual(before.get(otherUser), [{ scope: 'user_friends', status: 'granted' }]);
        assert.equal(before.has(999), false, 'users without grants are absent');

        await store.setGrants(app, [{ userId: user, grants: [{ scope: 'user_posts', status: 'granted' }] }]);
        const after = await store.getGrants(app, [user]);
        assert.deepEqual(after.get(user), [{ scope: 'user_posts', status: 'granted' }]);
        assert.deepEqual((await store.getGrants(otherApp, [user])).get(user), [{ scope: 'email', status: 'granted' }]);

        await store.setGrants(app, [{ userId: user, grants: [] }]);
        assert.equal((await store.getGrants(app, [user])).has(user), false);
        assert.deepEqual((await store.getGrants(app, [otherUser])).get(otherUser), [
          { scope: 'user_friends', status: 'granted' },
        ]);
      });

      it('reads objects with the permissions they and their owners granted the app, declined ones left out', async () => {
        const app = 908;
        const person = await createObject('user', { name: 'Ada' });
        const post = await createObject('post', { message: 'hi' }, person);
        const quiet = await createObject('user', { name: 'Bo' });
        await store.setGrants(app, [{ userId: person, grants: [{ scope: 'public_profile', status: 'granted' }, { scope: 'email', status: 'declined' }] }]);
        await store.setGrants(app + 1, [{ userId: quiet, grants: [{ scope: 'public_profile', status: 'granted' }] }]);
        const { objects, grantedScopes } = await store.getObjectsWithGrants([post, quiet, post + 1_000_000], app);
        assert.deepEqual([...objects.keys()].sort(), [post, quiet].sort());
        assert.equal(objects.get(post)?.data.message, 'hi');
        assert.deepEqual(grantedScopes.get(person), ['public_profile'], "the post's owner");
        assert.deepEqual(grantedScopes.get(post), []);
        assert.deepEqual(grantedScopes.get(quiet), [], 'grants to another app are not these');
      });

      it("reads an app's grants whole, or none past the limit", async () => {
        // Ids of their own: the grant updates below write grants of apps 911 and 912.
        const [app, otherApp, user, otherUser] = [941, 942, 943, 944];
        await store.setGrants(app, [
          { userId: user, grants: [{ scope: 'public_profile', status: 'granted' }, { scope: 'email', status: 'declined' }] },
          { userId: otherUser, grants: [{ scope: 'public_profile', status: 'granted' }] },
        ]);
        await store.setGrants(otherApp, [{ userId: user, grants: [{ scope: 'user_posts', status: 'granted' }] }]);
        const whole = await store.getAppGrants(app, 3);
        assert.deepEqual(whole, await store.getGrants(app, [user, otherUser]), 'as getGrants answers them, declined ones too');
        assert.deepEqual([...whole.keys()].sort(), [user, otherUser].sort(), "another app's grants are not these");
        assert.equal(await store.getAppGrants(app, 2), undefined, 'three grants are more than two');
        assert.deepEqual(await store.getAppGrants(945, 3), new Map(), 'an app no one used');
      });

      it('applies the entries of one call in order: a user listed twice keeps the last entry', async () => {
        const [app, user, otherUser] = [905, 906, 907];
        await store.setGrants(app, [
          { userId: user, grants: [{ scope: 'email', status: 'granted' }, { scope: 'user_posts', status: 'granted' }] },
          { userId: otherUser, grants: [{ scope: 'email', status: 'granted' }] },
          { userId: user, grants: [{ scope: 'user_posts', status: 'granted' }, { scope: 'user_posts', status: 'declined' }] },
        ]);
        const grants = await store.getGrants(app, [user, otherUser]);
        assert.deepEqual(grants.get(user), [{ scope: 'user_posts', status: 'declined' }]);
        assert.deepEqual(grants.get(otherUser), [{ scope: 'email', status: 'granted' }]);
      });
    });

    describe('grant updates', () => {
      const sorted = (grants: readonly Grant[]) => [...grants].sort((x, y) => x.scope.localeCompare(y.scope));

      it("changes only the named scopes of one user's grants and answers all of them", async () => {
        const [app, otherApp, user, otherUser] = [911, 912, 913, 914];
        await store.setGrants(app, [
          { userId: user, grants: [{ scope: 'public_profile', status: 'granted' }, { scope: 'email', status: 'granted' }] },
          { userId: otherUser, grants: [{ scope: 'email', status: 'granted' }] },
        ]);
        await store.setGrants(otherApp, [{ userId: user, grants: [{ scope: 'email', status: 'granted' }] }]);

        const after = await store.updateGrants(app, user, [
          { scope: 'email', status: 'declined' },
          { scope: 'user_posts', status: 'granted' },
        ]);
        const expected: Grant[] = [
          { scope: 'email', status: 'declined' },
          { scope: 'public_profile', status: 'granted' },
          { scope: 'user_posts', status: 'granted' },
        ];
        assert.deepEqual(sorted(after), expected);
        assert.deepEqual(sorted((await store.getGrants(app, [user])).get(user) ?? []), expected);
        assert.deepEqual((await store.getGrants(app, [otherUser])).get(otherUser), [{ scope: 'email', status: 'granted' }]);
        assert.deepEqual((await store.getGrants(otherApp, [user])).get(user), [{ scope: 'email', status: 'granted' }]);
        assert.deepEqual(await store.updateGrants(app, 915, []), [], 'a user without grants has none after no change');
      });

      it('with onlyExisting, changes the scopes the user answered and leaves the others absent', async () => {
        const [app, user] = [921, 922];
        await store.setGrants(app, [{ userId: user, grants: [{ scope: 'email', status: 'granted' }] }]);
        const after = await store.updateGrants(
          app,
          user,
          [{ scope: 'email', status: 'declined' }, { scope: 'user_photos', status: 'declined' }],
          { onlyExisting: true },
        );
        assert.deepEqual(after, [{ scope: 'email', status: 'declined' }]);
        assert.deepEqual(await store.updateGrants(app, 923, [{ scope: 'email', status: 'declined' }], { onlyExisting: true }), []);
        assert.equal((await store.getGrants(app, [923])).has(923), false);
      });

      it('keeps both of two simultaneous updates of different scopes', async () => {
        const [app, user] = [931, 932];
        await store.setGrants(app, [{ userId: user, grants: [{ scope: 'public_profile', status: 'granted' }] }]);
        const scopes = ['email', 'user_posts', 'user_photos', 'user_likes', 'user_friends', 'user_birthday'];
        await Promise.all(scopes.map((scope) => store.updateGrants(app, user, [{ scope, status: 'granted' }])));
        const stored = (await store.getGrants(app, [user])).get(user) ?? [];
        assert.deepEqual(
          sorted(stored).map((grant) => grant.scope),
          ['public_profile', ...scopes].sort(),
        );
      });
    });

    describe('credentials', () => {
      it('finds credentials by user and by email, whatever its case', async () => {
        const userId = await createObject('user', { name: 'Cred' });
        const email = `Cred.${userId}@Example.com`;
        await store.setCredentials({ userId, email, passwordHash: 'scrypt$one' });
        const expected = { userId, email: email.toLowerCase(), passwordHash: 'scrypt$one' };
        assert.deepEqual(await store.getCredentials(userId), expected);
        assert.deepEqual(await store.findCredentialsByEmail(email.toUpperCase()), expected);
        assert.equal(await store.findCredentialsByEmail(`nobody.${userId}@example.com`), undefined);

        await store.setCredentials({ userId, email, passwordHash: 'scrypt$two' });
        assert.equal((await store.getCredentials(userId))?.passwordHash, 'scrypt$two');
      });

      it('refuses an email another user already has', async () => {
        const [first, second] = [await createObject(), await createObject()];
        const email = `taken.${first}@example.com`;
        await store.setCredentials({ userId: first, email, passwordHash: 'x' });
        await assert.rejects(store.setCredentials({ userId: second, email, passwordHash: 'y' }));
        assert.equal(await store.getCredentials(second), undefined);
      });
    });

    describe('authorization codes', () => {
      it('hands a code out once only', async () => {
        const code = {
          hash: `${Date.now()}`.padEnd(64, 'c'),
          appId: 10,
          userId: 20,
          redirectUri: 'https://app.example/back?x=1',
          scopes: ['public_profile', 'email'],
          expiresAt: 2_000,
        };
        await store.saveAuthCodes([code]);
        const [first, second] = await Promise.all([store.takeAuthCode(code.hash), store.takeAuthCode(code.hash)]);
        assert.deepEqual([first, second].filter((x) => x !== undefined), [code]);
        assert.equal(await store.takeAuthCode(code.hash), undefined);
      });

      it('saves many codes in one call, each taken once', async () => {
        const codes = [1, 2, 3].map((n) => ({
          hash: `${Date.now()}-${n}`.padEnd(64, 'm'),
          appId: 10,
          userId: 20 + n,
          redirectUri: 'https://app.example/',
          scopes: [],
          expiresAt: 3_000,
        }));
        await store.saveAuthCodes(codes);
        await store.saveAuthCodes([]);
        assert.deepEqual(await Promise.all(codes.map((code) => store.takeAuthCode(code.hash))), codes);
      });
    });

    describe('settings', () => {
      it('stores, overwrites and misses settings', async () => {
        const key = `contract.setting.${Date.now()}`;
        assert.equal(await store.getSetting(key), undefined);
        await store.setSetting(key, 'one');
        assert.equal(await store.getSetting(key), 'one');
        await store.setSetting(key, 'two');
        assert.equal(await store.getSetting(key), 'two');
      });

      it('initialises a setting once, answering the first value to every later caller', async () => {
        const key = `contract.init.${Date.now()}`;
        const answers = await Promise.all([store.initSetting(key, 'first'), store.initSetting(key, 'second')]);
        assert.equal(new Set(answers).size, 1);
        assert.equal(await store.getSetting(key), answers[0]);
        assert.equal(await store.initSetting(key, 'third'), answers[0]);
      });
    });

    describe('records for export and import', () => {
      async function scanAll(kind: RecordKind, limit: number): Promise<StoreRecord[]> {
        const all: StoreRecord[] = [];
        let after: RecordKey | undefined;
        for (;;) {
          const records = await store.scanRecords(kind, after, limit);
          all.push(...records);
          if (records.length < limit) return all;
          after = recordKey(records[records.length - 1]!);
        }
      }

      it('scans a table page by page in key order, each record once', async () => {
        const ids = [await createObject('user', { name: 'Scanned' }), await createObject('post')];
        const type = `scanned_${ids[0]}`;
        await addAssociations(ids[0]!, type, [{ id2: 3, time: 1 }, { id2: 1, time: 2 }, { id2: 2, time: 2 }]);
        await addAssociations(ids[1]!, type, [{ id2: 1, time: 1 }]);

        const objects = await scanAll('object', 2);
        const objectIds = objects.map((record) => (record as { id: number }).id);
        assert.deepEqual(objectIds, [...objectIds].sort((a, b) => a - b));
        assert.equal(new Set(objectIds).size, objectIds.length);
        assert.equal(objects.length, await store.countRecords('object'));
        assert.deepEqual(
          objects.find((record) => (record as { id: number }).id === ids[0]),
          { record: 'object', id: ids[0], type: 'user', owner: null, createdTime: 1000, updatedTime: 1000, data: { name: 'Scanned' } },
        );

        const associations = (await scanAll('association', 3)).filter((record) => (record as Association).type === type);
        assert.deepEqual(
          associations.map((record) => recordKey(record)),
          [[ids[0], type, 1], [ids[0], type, 2], [ids[0], type, 3], [ids[1], type, 1]],
        );
        const counts = (await scanAll('count', 5)).filter((record) => (record as { type: string }).type === type);
        assert.deepEqual(counts, [
          { record: 'count', id1: ids[0], type, count: 3 },
          { record: 'count', id1: ids[1], type, count: 1 },
        ]);
        assert.deepEqual(await store.scanRecords('idSequence', [], 10), [], 'the sequence is a single record');
      });

      it('loads records with their ids and moves the id sequence past them, never back', async () => {
        const base = await createObject();
        const [user, app] = [base + 1000, base + 1001];
        const token: TokenRecord = { hash: `loaded${base}`.padEnd(64, '0'), kind: 'user', appId: app, userId: user, scopes: ['email'], issuedAt: 1, expiresAt: 0 };
        await store.loadRecords([
          { record: 'idSequence', last: base + 1500 },
          { record: 'object', id: user, type: 'user', owner: null, createdTime: 5, updatedTime: 6, data: { name: 'Loaded', n: 1 } },
          { record: 'object', id: app, type: 'application', owner: null, createdTime: 5, updatedTime: 5, data: { name: 'Loaded app' } },
          { record: 'association', id1: user, type: 'friends', id2: base, time: 7, data: { since: 'then' } },
          { record: 'count', id1: user, type: 'friends', count: 1 },
          { record: 'app', id: app, secret: 'shh', idKey: 'key', idTag: 3, requireProof: true, businessId: null, createdTime: 5, redirectUris: ['https://loaded.example/cb'] },
          { record: 'grant', appId: app, userId: user, scope: 'user_friends', status: 'granted' },
          { record: 'credentials', userId: user, email: `loaded.${user}@example.com`, passwordHash: 'scrypt$x' },
          { record: 'setting', key: `loaded.${user}`, value: 'yes' },
          { record: 'token', ...token },
          { record: 'revokedToken', hash: `revoked${base}`.padEnd(64, '0'), appId: app, userId: user, expiresAt: 0, scopes: ['email'] },
          { record: 'idSequence', last: 1 },
        ]);

        assert.deepEqual((await store.getObjects([user])).get(user), {
          id: user, type: 'user', owner: null, createdTime: 5, updatedTime: 6, data: { name: 'Loaded', n: 1 },
        });
        assert.deepEqual(await page({ type: 'friends', limit: 5 }, user), [{ id1: user, type: 'friends', id2: base, time: 7, data: { since: 'then' } }]);
        assert.equal((await store.getCounts('friends', [user])).get(user), 1);
        assert.deepEqual((await store.getApps([app])).get(app), {
          id: app, name: 'Loaded app', secret: 'shh', idKey: 'key', idTag: 3, requireProof: true, businessId: null, createdTime: 5,
          redirectUris: ['https://loaded.example/cb'], apiVersion: null,
        });
        assert.deepEqual((await store.getGrants(app, [user])).get(user), [{ scope: 'user_friends', status: 'granted' }]);
        assert.equal((await store.getCredentials(user))?.passwordHash, 'scrypt$x');
        assert.equal(await store.getSetting(`loaded.${user}`), 'yes');
        assert.deepEqual(await store.findToken(token.hash), token);
        assert.deepEqual((await store.findRevokedToken(`revoked${base}`.padEnd(64, '0')))?.scopes, ['email']);
        assert.equal((await store.findRevokedToken(`revoked${base}`.padEnd(64, '0')))?.userId, user);

        assert.ok((await createObject()) > base + 1500, 'new ids come after the loaded sequence');
        const [sequence] = await store.scanRecords('idSequence', undefined, 1);
        assert.ok(sequence?.record === 'idSequence' && sequence.last > base + 1500);
        const [scanned] = await store.scanRecords('object', [user - 1], 1);
        assert.deepEqual(scanned, { record: 'object', id: user, type: 'user', owner: null, createdTime: 5, updatedTime: 6, data: { name: 'Loaded', n: 1 } });
      });

      it('loads all records of a call or none, refusing a key that exists', async () => {
        const existing = await createObject();
        const fresh = existing + 2000;
        await assert.rejects(
          store.loadRecords([
            { record: 'object', id: fresh, type: 'user', owner: null, createdTime: 1, updatedTime: 1, data: {} },
            { record: 'object', id: existing, type: 'user', owner: null, createdTime: 1, updatedTime: 1, data: {} },
          ]),
        );
        assert.equal((await store.getObjects([fresh])).size, 0);
      });
    });

    describe('empty batches', () => {
      it('answers empty id lists with empty results', async () => {
        assert.equal((await store.getObjects([])).size, 0);
        assert.equal((await store.getPages({ type: 'friends', id1s: [], limit: 10 })).size, 0);
        assert.equal((await store.getCounts('friends', [])).size, 0);
        assert.equal((await store.getExisting('friends', [])).size, 0);
        assert.equal((await store.getApps([])).size, 0);
        assert.equal((await store.getGrants(1, [])).size, 0);
      });
    });
  });
}
