import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { PageRequest } from '../../src/store/page-request.js';
import { useCallCountingServer } from '../helpers/counted-server.js';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type TestServer } from '../helpers/server.js';

// Whether a person uses the app is remembered across requests; each change to it must show on the very next one.
describe('who uses the app, as later requests see it', () => {
  const served = useFixtureServer();
  let fixture: Fixture;
  let server: TestServer;
  let bobsPost: string;

  before(async () => {
    ({ fixture, server } = served);
    const { bob, carol } = fixture.users;
    // Carol, who never used the app, likes Bob's post beside people who use it.
    await fixture.store.write([{ op: 'addAssoc', type: 'likes', id1: fixture.posts.bobs, id2: carol, time: fixture.now - 5 }]);
    bobsPost = fixture.postId(fixture.posts.bobs, bob);
  });

  /** The likers, each by name, and whether more than their public profile shows (their profile link). */
  const likers = async (): Promise<Map<string, boolean>> => {
    const reply = await server.get(`/v2.4/${bobsPost}/likes`, { access_token: fixture.aliceToken, fields: 'name,link' });
    assert.equal(reply.status, 200, reply.text);
    return new Map(reply.body.data.map((liker: { name: string; link?: string }) => [liker.name, liker.link !== undefined]));
  };

  it("shows more than a person's public profile the request after they start using the app, and only that the request after they remove it", async () => {
    const carolsName = 'Carol Crane';
    const first = await likers();
    assert.ok([...first.values()].some((full) => full), 'the likers who use the app show in full');
    assert.equal(first.get(carolsName), false, 'she is listed by her public profile');
    // Asked twice: the second answer may come from what the first remembered.
    assert.deepEqual(await likers(), first);

    const carolsToken = await fixture.tokenFor(fixture.users.carol, ['public_profile']);
    assert.equal((await likers()).get(carolsName), true, 'she granted the app public_profile');

    const removed = await server.form('/v2.4/me/permissions', { access_token: carolsToken }, 'DELETE');
    assert.equal(removed.status, 200, removed.text);
    assert.deepEqual(await likers(), first, 'she removed the app');

    await fixture.tokenFor(fixture.users.carol, ['public_profile']);
    assert.equal((await likers()).get(carolsName), true, 'she came back');
  });
});

// A server read many times with no change to grants reads the app's grants whole, once: its reads
// then bring no one's grants along, and still answer as a cold server does.
describe("the app's grants, read whole", () => {
  const counted = useCallCountingServer(async (fixture) => {
    await fixture.store.write([{ op: 'addAssoc', type: 'likes', id1: fixture.posts.bobs, id2: fixture.users.carol, time: fixture.now - 5 }]);
  });
  const wide = 'friends.limit(50){name,link,posts.limit(5){message,likes.limit(10){name,link}}}';

  it('are read once enough people were checked, and then answer as grants read person by person did', async () => {
    const { fixture, server, calls, withArgs } = counted;
    const bobsPost = fixture.postId(fixture.posts.bobs, fixture.users.bob);
    const read = async (path: string, fields: string) => {
      const reply = await server.get(path, { access_token: fixture.aliceToken, fields });
      assert.equal(reply.status, 200, reply.text);
      return reply.body;
    };
    await counted.countFromCold();
    const cold = await read('/v2.4/me', wide);
    const coldLikers = await read(`/v2.4/${bobsPost}/likes`, 'name,link');
    assert.ok(coldLikers.data.some((liker: { link?: string }) => liker.link === undefined), 'Carol shows by her public profile');
    let reads = 1;
    while (!calls.includes('getAppGrants')) {
      assert.deepEqual(await read('/v2.4/me', wide), cold);
      reads += 1;
      assert.ok(reads <= 100, 'the grants are read whole after a thousand people were checked');
    }
    // No request waits for that read: the ones after it find everyone known.
    const bringsGrants = () => withArgs.some((call) => call.method === 'getPagesWithObjects' && (call.args[0] as PageRequest).grantsTo !== undefined);
    for (let after = 0; ; after += 1) {
      assert.ok(after < 20, 'pages still bring grants along');
      withArgs.length = 0;
      assert.deepEqual(await read('/v2.4/me', wide), cold);
      assert.deepEqual(await read(`/v2.4/${bobsPost}/likes`, 'name,link'), coldLikers);
      if (!bringsGrants()) break;
    }
    assert.ok(withArgs.some((call) => call.method === 'getPagesWithObjects'));
    assert.deepEqual(withArgs.filter((call) => call.method === 'getGrants'), [], 'no grants read person by person');
    assert.deepEqual(calls.filter((method) => method === 'getAppGrants'), ['getAppGrants'], 'read whole once');
    withArgs.length = 0;
    assert.equal((await read(`/v2.4/${fixture.scoped(fixture.users.bob)}`, 'name,link')).name, 'Bob Brook');
    assert.deepEqual(withArgs.map((call) => call.method).filter((method) => method.startsWith('getObjects')), ['getObjects'], 'a person by id comes without their grants');

    // Carol starts using the app: her grants change, and the next read must not answer from the whole read.
    await fixture.tokenFor(fixture.users.carol, ['public_profile']);
    const joined = await read(`/v2.4/${bobsPost}/likes`, 'name,link');
    assert.ok(joined.data.every((liker: { link?: string }) => liker.link !== undefined), 'Carol shows in full');
  });

  it('are read whole on a server that only lists people, whatever of them it already knew', async () => {
    const { fixture, server, calls } = counted;
    await counted.countFromCold();
    const friends = async (round: number) => {
      const reply = await server.get('/v2.4/me/friends', { access_token: fixture.aliceToken, fields: 'name', round: String(round) });
      assert.equal(reply.status, 200, reply.text);
      return reply.body;
    };
    const cold = await friends(0);
    assert.ok(cold.data.length >= 25, `Alice's friends who use the app: ${cold.data.length}`);
    for (let round = 1; !calls.includes('getAppGrants'); round += 1) {
      assert.ok(round <= 100, 'the friends listed count toward reading the grants whole');
      assert.deepEqual(await friends(round), cold);
    }
  });
});
