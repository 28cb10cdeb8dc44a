import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
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
