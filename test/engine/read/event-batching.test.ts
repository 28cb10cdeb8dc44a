import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WriteOp } from '../../../src/store/write-ops.js';
import { useCallCountingServer } from '../../helpers/counted-server.js';
import { addMediaGraph } from '../../helpers/media-graph.js';

/** Three levels across events, their guests, their walls and the likes there. */
const QUERY = 'events{name,attending.limit(3){name},feed.limit(2){message,likes.summary(true)}}';

/** The calls without the reads of grants, whose number depends on whom a request already knows. */
const withoutGrants = (calls: string[]) => calls.filter((call) => call !== 'getGrants');

describe('batched execution across events, guests and walls', () => {
  const { storeCalls } = useCallCountingServer(async (fixture) => {
    const graph = await addMediaGraph(fixture);
    // Alice attends every event, and each has a wall of three liked posts by app-using friends.
    const { alice } = fixture.users;
    const events = [graph.events.concert, graph.events.lecture, graph.events.picnic];
    const t = fixture.now - 1000;
    const ops: WriteOp[] = events.flatMap((event): WriteOp[] => [
      { op: 'addAssoc', type: 'attending', id1: event, id2: alice, time: t },
      { op: 'addAssoc', type: 'events_attending', id1: alice, id2: event, time: t },
      ...fixture.appFriends.slice(5, 9).map((friend, i): WriteOp => ({ op: 'addAssoc', type: 'attending', id1: event, id2: friend, time: t + i + 1 })),
    ]);
    await fixture.store.write(ops);
    const posts = (await fixture.store.write(events.flatMap((event) => [0, 1, 2].map((n): WriteOp => ({
      op: 'createObject',
      object: { type: 'post', owner: fixture.appFriends[n]!, createdTime: t + n, data: { message: `On ${event} (${n})`, privacy: { value: 'EVERYONE' } } },
    }))))).results as number[];
    await fixture.store.write(posts.flatMap((post, i): WriteOp[] => [
      { op: 'addAssoc', type: 'feed', id1: events[Math.floor(i / 3)]!, id2: post, time: t + (i % 3) },
      { op: 'addAssoc', type: 'likes', id1: post, id2: fixture.likers[i]!, time: t + 10 },
      { op: 'addAssoc', type: 'likes', id1: post, id2: fixture.likers[i + 1]!, time: t + 11 },
    ]));
  });

  it(`answers ${QUERY} with one page call per edge and level, as many calls for four events as for one`, async () => {
    await storeCalls('id'); // the token is read once, then remembered
    const all = await storeCalls(QUERY);
    const events = all.body.events.data;
    assert.equal(events.length, 4);
    assert.ok(events.every((event: any) => event.attending.data.length === 3), 'three guests of each');
    const posts = events.flatMap((event: any) => event.feed.data);
    assert.equal(posts.length, 4 * 2, 'two posts on each wall');
    assert.ok(posts.every((post: any) => post.likes.summary.total_count === 2 && post.likes.data.length === 2));
    assert.equal(all.calls.filter((call) => call === 'getPagesWithObjects').length, 4, 'events, attending, feed, likes: one page call each');

    const one = await storeCalls(QUERY.replace('events{', 'events.limit(1){'));
    assert.equal(one.body.events.data.length, 1);
    assert.deepEqual(withoutGrants(all.calls), withoutGrants(one.calls), 'the calls do not grow with the items');
    // Besides the pages: the node; the likes' counts and the viewer's own likes; the change
    // channel that says whether cached tokens and shared state still hold, read once for both;
    // and at most one read of grants per level, for the people that level shows (guests, authors, likers).
    assert.deepEqual(withoutGrants(all.calls), ['getCounts', 'getExisting', 'getObjects', ...Array(4).fill('getPagesWithObjects'), 'versions']);
    assert.ok(all.calls.filter((call) => call === 'getGrants').length <= 3, 'at most one read of grants per level');
  });

  it('answers groups and videos nested three deep with the same calls for many items as for one', async () => {
    const groups = 'groups{name,members.limit(3){name},feed.limit(2){message,likes.summary(true)}}';
    const many = await storeCalls(groups);
    assert.deepEqual(many.body.groups.data[0].members.data.length, 3);
    const few = await storeCalls(groups.replace('limit(3)', 'limit(1)').replace('limit(2)', 'limit(1)'));
    // People already known to use the app are not asked about again, so fewer items may need
    // fewer reads of grants; everything else is the same, and nothing grows with the items.
    assert.deepEqual(withoutGrants(many.calls), withoutGrants(few.calls));
    assert.ok(many.calls.filter((call) => call === 'getGrants').length <= 3, 'at most one read of grants per level');
    assert.equal(many.calls.filter((call) => call === 'getPagesWithObjects').length, 4);

    const videos = 'videos{title,likes.summary(true){name},comments{message}}';
    const tagged = await storeCalls(videos);
    assert.equal(tagged.body.videos.data.length, 1);
    assert.equal(tagged.calls.filter((call) => call === 'getPagesWithObjects').length, 3, 'videos, then their likes and comments side by side');
  });
});
