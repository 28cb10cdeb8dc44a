/**
 * Events, groups and videos added to the fixture's graph, with every number known: who answered
 * which invitation, who runs and who is in which group, who is tagged in which video.
 */
import type { WriteOp } from '../../src/store/write-ops.js';
import type { Fixture } from './fixture.js';

const DAY = 86_400;

export interface MediaGraph {
  /**
   * Alice created the party; she attends it with bob and five app-using friends (the first five);
   * carol may come. Bob's secret surprise leaves alice out; his friends-only barbecue invites her.
   */
  events: { party: number; concert: number; lecture: number; picnic: number; surprise: number; barbecue: number };
  /** Two posts on the party's wall by app-using friends, each liked by two people. */
  partyPosts: number[];
  /** Alice runs the weavers; she is a member of the knitters (run by bob) and a stranger to the spinners and the secret dyers. */
  groups: { weavers: number; knitters: number; spinners: number; dyers: number };
  weaversPost: number;
  /** Bob's video that alice is tagged in. */
  taggedVideo: number;
}

export async function addMediaGraph(fixture: Fixture): Promise<MediaGraph> {
  const { store, now, users } = fixture;
  const { alice, bob, carol } = users;
  const friends = fixture.appFriends;
  const created = async (ops: WriteOp[]) => (await store.write(ops)).results as number[];
  const object = (type: string, owner: number | null, data: Record<string, unknown>, age = 30): WriteOp => ({
    op: 'createObject',
    object: { type, owner, createdTime: now - age * DAY, data },
  });
  const place = { name: 'Mill Hall', location: { city: 'Lyon', country: 'France', latitude: 45.76, longitude: 4.83 } };
  const [party, concert, lecture, picnic, surprise, barbecue] = await created([
    object('event', null, { name: 'Loom party', description: 'Bring yarn.', start_time: '2025-11-01T19:00:00+0100', end_time: '2025-11-01T23:00:00+0100', timezone: 'Europe/Paris', place, owner: alice, privacy: 'OPEN', is_canceled: false }),
    object('event', null, { name: 'Concert', start_time: '2025-11-05T20:00:00+0100', timezone: 'Europe/Paris', owner: bob, privacy: 'OPEN', is_canceled: false }),
    object('event', null, { name: 'Lecture on dyes', start_time: '2025-11-08T10:00:00+0100', timezone: 'Europe/Paris', owner: bob, privacy: 'OPEN', is_canceled: false }),
    object('event', null, { name: 'Picnic', start_time: '2025-11-09T12:00:00+0100', timezone: 'Europe/Paris', owner: bob, privacy: 'OPEN', is_canceled: true }),
    object('event', null, { name: 'Surprise', start_time: '2025-11-10T18:00:00+0100', timezone: 'Europe/Paris', owner: bob, privacy: 'SECRET', is_canceled: false }),
    object('event', null, { name: 'Barbecue', start_time: '2025-11-11T18:00:00+0100', timezone: 'Europe/Paris', owner: bob, privacy: 'FRIENDS', is_canceled: false }),
  ]);
  const answer = (event: number, person: number, guests: string, events: string, time: number): WriteOp[] => [
    { op: 'addAssoc', type: guests, id1: event, id2: person, time },
    { op: 'addAssoc', type: events, id1: person, id2: event, time },
    { op: 'addAssoc', type: 'invited', id1: event, id2: person, time },
  ];
  const t = now - 20 * DAY;
  await store.write([
    { op: 'addAssoc', type: 'events_created', id1: alice, id2: party!, time: t },
    ...answer(party!, alice, 'attending', 'events_attending', t),
    ...answer(party!, bob, 'attending', 'events_attending', t + 1),
    ...friends.slice(0, 5).flatMap((friend, i) => answer(party!, friend, 'attending', 'events_attending', t + 2 + i)),
    ...answer(party!, carol, 'maybe', 'events_maybe', t + 10),
    ...answer(concert!, alice, 'maybe', 'events_maybe', t + 11),
    ...answer(lecture!, alice, 'declined', 'events_declined', t + 12),
    ...answer(picnic!, alice, 'noreply', 'events_not_replied', t + 13),
    ...answer(picnic!, bob, 'attending', 'events_attending', t + 14),
    ...answer(surprise!, bob, 'attending', 'events_attending', t + 15),
    ...answer(barbecue!, bob, 'attending', 'events_attending', t + 16),
    { op: 'addAssoc', type: 'invited', id1: barbecue!, id2: alice, time: t + 17 },
  ]);
  const partyPosts = await created(
    [0, 1, 2].map((i) => object('post', friends[i]!, { message: `See you at the party (${i})`, privacy: { value: 'EVERYONE', description: 'Public' }, to: [party] }, 10 - i)),
  );
  await store.write(
    partyPosts.flatMap((post, i): WriteOp[] => [
      { op: 'addAssoc', type: 'feed', id1: party!, id2: post, time: now - (10 - i) * DAY },
      { op: 'addAssoc', type: 'likes', id1: post, id2: friends[10]!, time: now - (10 - i) * DAY + 1 },
      { op: 'addAssoc', type: 'likes', id1: post, id2: friends[11 + i]!, time: now - (10 - i) * DAY + 2 },
    ]),
  );

  const [weavers, knitters, spinners, dyers] = await created([
    object('group', null, { name: 'Weavers', description: 'People who weave.', privacy: 'OPEN', owner: alice }),
    object('group', null, { name: 'Knitters', privacy: 'CLOSED', owner: bob }),
    object('group', null, { name: 'Spinners', privacy: 'OPEN', owner: bob }),
    object('group', null, { name: 'Dyers', privacy: 'SECRET', owner: bob }),
  ]);
  const member = (group: number, person: number, time: number): WriteOp => ({ op: 'addAssoc', type: 'members', id1: group, id2: person, time });
  const [weaversPost] = await created([object('post', bob, { message: 'Warp and weft', privacy: { value: 'EVERYONE', description: 'Public' }, to: [weavers] }, 5)]);
  await store.write([
    // Each link keeps the group's place in its admin's bookmarks.
    { op: 'addAssoc', type: 'managed_groups', id1: alice, id2: weavers!, time: t, data: { bookmark_order: 1 } },
    { op: 'addAssoc', type: 'managed_groups', id1: bob, id2: knitters!, time: t, data: { bookmark_order: 2 } },
    { op: 'addAssoc', type: 'managed_groups', id1: bob, id2: spinners!, time: t, data: { bookmark_order: 1 } },
    member(weavers!, alice, t), member(weavers!, bob, t + 1), member(weavers!, friends[0]!, t + 2),
    member(knitters!, bob, t), member(knitters!, alice, t + 1),
    member(spinners!, bob, t),
    member(dyers!, bob, t),
    { op: 'addAssoc', type: 'managed_groups', id1: bob, id2: dyers!, time: t, data: { bookmark_order: 3 } },
    { op: 'addAssoc', type: 'feed', id1: weavers!, id2: weaversPost!, time: now - 5 * DAY },
    { op: 'addAssoc', type: 'events', id1: weavers!, id2: party!, time: t },
  ]);

  const [taggedVideo] = await created([object('video', bob, { title: 'Spinning wheel', description: 'How it turns', length: 12.5, privacy: { value: 'EVERYONE', description: 'Public' } }, 3)]);
  // Bob lets the app show his videos, so alice sees the one she is tagged in.
  await fixture.tokenFor(bob, ['public_profile', 'user_friends', 'user_posts', 'user_videos']);
  await store.write([
    { op: 'addAssoc', type: 'videos_uploaded', id1: bob, id2: taggedVideo!, time: now - 3 * DAY },
    { op: 'addAssoc', type: 'videos_tagged', id1: alice, id2: taggedVideo!, time: now - 3 * DAY },
  ]);
  return {
    events: { party: party!, concert: concert!, lecture: lecture!, picnic: picnic!, surprise: surprise!, barbecue: barbecue! },
    partyPosts,
    groups: { weavers: weavers!, knitters: knitters!, spinners: spinners!, dyers: dyers! },
    weaversPost: weaversPost!,
    taggedVideo: taggedVideo!,
  };
}
