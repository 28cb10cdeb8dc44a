import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type TestServer } from '../helpers/server.js';

const SUCCESS = '{"success":true}';
const WRITER = ['public_profile', 'user_posts', 'publish_actions'];

// Alice owns the popular post; Bob and Friend 00 are her friends and use the app.
describe("the owner of a wall and others' comments", () => {
  const served = useFixtureServer();
  let fixture: Fixture;
  let server: TestServer;
  let alice: string;
  let bob: string;
  let other: string;
  let post: string;

  before(async () => {
    ({ fixture, server } = served);
    alice = await fixture.tokenFor(fixture.users.alice, WRITER);
    bob = await fixture.tokenFor(fixture.users.bob, WRITER);
    other = await fixture.tokenFor(fixture.appFriends[0]!, WRITER);
    post = fixture.postId(fixture.posts.popular, fixture.users.alice);
  });

  const comment = async (on: string, token: string, message: string): Promise<string> => {
    const reply = await server.form(`/v2.4/${on}/comments`, { access_token: token, message });
    assert.equal(reply.status, 200, reply.text);
    return reply.body.id;
  };
  const remove = (id: string, token: string) => server.fetch(`${server.url}/v2.4/${id}?access_token=${token}`, { method: 'DELETE' });

  it("lets the post's owner delete a friend's comment and a reply to it", async () => {
    const bobsComment = await comment(post, bob, 'Nice one');
    const reply = await comment(bobsComment, other, 'Agreed');
    assert.equal((await remove(reply, alice)).text, SUCCESS);
    assert.equal((await remove(bobsComment, alice)).text, SUCCESS);
    const left = await server.get(`/v2.4/${post}/comments`, { access_token: alice, filter: 'stream', limit: '100' });
    const ids = left.body.data.map((item: { id: string }) => item.id);
    assert.ok(!ids.includes(bobsComment) && !ids.includes(reply));
  });

  it("refuses a third person deleting someone else's comment on a post that is not theirs", async () => {
    const bobsComment = await comment(post, bob, 'Mine');
    const refused = await remove(bobsComment, other);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 200);
    assert.equal((await remove(bobsComment, bob)).text, SUCCESS, 'its author still may');
  });
});
