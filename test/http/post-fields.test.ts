import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Fixture } from '../helpers/fixture.js';
import { pngBytes } from '../helpers/images.js';
import { addPageGraph } from '../helpers/page-graph.js';
import type { TestServer } from '../helpers/server.js';
import { useFixtureServer } from '../helpers/fixture-server.js';

/** The v2.4 fields and edges of the other node types this part completes, as `metadata=1` lists them. */
const METADATA_V24: Record<string, { fields: string[]; edges: string[] }> = {
  post: {
    fields: [
      'id', 'actions', 'admin_creator', 'application', 'call_to_action', 'caption', 'created_time', 'description', 'feed_targeting',
      'from', 'full_picture', 'icon', 'is_hidden', 'is_published', 'link', 'message', 'message_tags', 'name', 'object_id', 'parent_id',
      'picture', 'place', 'privacy', 'properties', 'shares', 'source', 'status_type', 'story', 'story_tags', 'targeting', 'to', 'type',
      'updated_time', 'with_tags',
    ],
    edges: ['attachments', 'comments', 'likes', 'sharedposts'],
  },
  photo: {
    fields: [
      'id', 'backdated_time', 'can_delete', 'can_tag', 'from', 'icon', 'name', 'album', 'width', 'height', 'picture', 'source', 'images',
      'link', 'name_tags', 'page_story_id', 'place', 'created_time', 'updated_time',
    ],
    edges: ['likes', 'comments', 'sharedposts', 'tags'],
  },
  album: {
    fields: [
      'id', 'from', 'name', 'description', 'type', 'privacy', 'can_upload', 'cover_photo', 'count', 'created_time', 'updated_time', 'link',
      'event', 'location', 'place',
    ],
    edges: ['photos', 'likes', 'comments', 'picture', 'sharedposts'],
  },
  comment: {
    fields: [
      'id', 'from', 'message', 'created_time', 'attachment', 'can_comment', 'can_hide', 'can_like', 'is_hidden', 'is_private',
      'message_tags', 'parent', 'user_likes', 'like_count', 'comment_count', 'can_remove', 'object',
    ],
    edges: ['likes', 'comments'],
  },
};

describe('posts, photos, albums and comments with every v2.4 field', () => {
  let fixture: Fixture;
  let server: TestServer;
  let page: number;
  let linkPost: number;
  let photoPost: number;
  let alice: number;
  let bob: number;

  const served = useFixtureServer();
  before(async () => {
    ({ fixture, server } = served);
    ({ alice, bob } = fixture.users);
    ({ page, linkPost, photoPost } = await addPageGraph(fixture));
  });

  const get = (path: string, params: Record<string, string>) => server.get(path, params);

  it('lists exactly the v2.4 fields and edges of posts, photos, albums and comments in metadata=1', async () => {
    const comments = await get(`/v2.4/${fixture.postId(fixture.posts.popular, alice)}/comments`, { access_token: fixture.aliceToken });
    const ids: Record<string, string> = {
      post: fixture.postId(linkPost, alice),
      photo: String(fixture.photos[0]),
      album: String(fixture.album),
      comment: comments.body.data[0].id,
    };
    for (const [type, expected] of Object.entries(METADATA_V24)) {
      const reply = await get(`/v2.4/${ids[type]}`, { access_token: fixture.aliceToken, metadata: '1', fields: 'id' });
      assert.equal(reply.body.metadata.type, type);
      assert.deepEqual(reply.body.metadata.fields.map((field: any) => field.name), expected.fields, type);
      assert.deepEqual(Object.keys(reply.body.metadata.connections), expected.edges, type);
    }
    // Before v2.3 a post had no attachments edge.
    const v22 = await get(`/v2.2/${ids.post}`, { access_token: fixture.aliceToken, metadata: '1', fields: 'id' });
    assert.deepEqual(Object.keys(v22.body.metadata.connections), ['comments', 'likes', 'sharedposts']);
  });

  it('completes a link post: preview, tags, application, shares, actions and attachments', async () => {
    const id = fixture.postId(linkPost, alice);
    const fields = 'name,caption,description,picture,full_picture,message_tags,with_tags,application,shares,actions,is_hidden,is_published,attachments';
    const reply = await get(`/v2.4/${id}`, { access_token: fixture.aliceToken, fields });
    assert.equal(reply.status, 200, reply.text);
    const body = reply.body;
    assert.equal(body.name, 'Why slow bread tastes better');
    assert.equal(body.caption, 'example.com');
    assert.equal(body.description, 'Long fermentation gives flavour.');
    assert.equal(body.picture, 'https://images.example.com/previews/slow-bread.jpg');
    assert.equal(body.full_picture, 'https://images.example.com/previews/slow-bread.jpg');
    assert.deepEqual(body.message_tags, {
      13: [{ id: String(page), name: 'Harbor Light Bakery', type: 'page', offset: 13, length: 19 }],
      38: [{ id: fixture.scoped(bob), name: 'Bob Brook', type: 'user', offset: 38, length: 9 }],
    });
    assert.deepEqual(body.with_tags, { data: [{ name: 'Bob Brook', id: fixture.scoped(bob) }] });
    assert.equal(body.application.name, 'Test App');
    assert.equal(body.application.id, String(fixture.app.id));
    assert.deepEqual(body.shares, { count: 1 });
    const permalink = `https://www.facebook.com/${fixture.scoped(alice)}/posts/${linkPost}`;
    assert.deepEqual(body.actions, [{ name: 'Comment', link: permalink }, { name: 'Like', link: permalink }]);
    assert.equal(body.is_hidden, false);
    assert.equal(body.is_published, true);
    assert.deepEqual(body.attachments, {
      data: [{
        description: 'Long fermentation gives flavour.',
        media: { image: { height: 630, src: 'https://images.example.com/previews/slow-bread.jpg', width: 1200 } },
        target: { url: 'https://www.example.com/articles/slow-bread' },
        title: 'Why slow bread tastes better',
        type: 'share',
        url: 'https://www.example.com/articles/slow-bread',
      }],
    });
    const shared = await get(`/v2.4/${id}/sharedposts`, { access_token: fixture.aliceToken, fields: 'link' });
    assert.equal(shared.body.data.length, 1);
  });

  it('keeps the people a post is written with (tags) at a place as its with_tags, refusing unknown ids', async () => {
    const created = await server.form('/v2.4/me/feed', {
      access_token: fixture.aliceToken,
      message: 'Out with friends',
      place: String(fixture.pages[0]),
      tags: `${fixture.scoped(bob)},${fixture.scoped(fixture.users.carol)}`,
      fields: 'with_tags,application,place',
    });
    assert.equal(created.status, 200, created.text);
    // Carol never used the app; tagged, she shows by her public profile.
    assert.deepEqual(created.body.with_tags, {
      data: [
        { name: 'Bob Brook', id: fixture.scoped(bob) },
        { name: 'Carol Crane', id: fixture.scoped(fixture.users.carol) },
      ],
    });
    assert.equal(created.body.application.id, String(fixture.app.id));
    assert.equal(created.body.place.id, String(fixture.pages[0]));
    const refused = await server.form('/v2.4/me/feed', { access_token: fixture.aliceToken, message: 'x', place: String(fixture.pages[0]), tags: '12345' });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.error.code, 100);
  });

  it("keeps a link post's properties, sent keyed by name (as koala sends them) or as a list, and answers them as a list", async () => {
    const link = 'https://www.example.com/articles/rye';
    // koala's put_wall_post turns a properties hash into JSON text, beside type=link (which the service ignores).
    const keyed = await server.form('/v2.4/me/feed', {
      access_token: fixture.aliceToken,
      message: 'body',
      link,
      name: "It's a big question",
      type: 'link',
      properties: JSON.stringify({ Link1: { text: 'Left', href: link }, other: { text: 'Straight ahead', href: `${link}?` }, Length: '0:38' }),
    });
    assert.equal(keyed.status, 200, keyed.text);
    const read = await get(`/v2.4/${keyed.body.id}`, { access_token: fixture.aliceToken, fields: 'properties,link' });
    assert.deepEqual(read.body.properties, [
      { name: 'Link1', text: 'Left', href: link },
      { name: 'other', text: 'Straight ahead', href: `${link}?` },
      { name: 'Length', text: '0:38' },
    ]);
    const listed = await server.form('/v2.4/me/feed', {
      access_token: fixture.aliceToken,
      link,
      properties: JSON.stringify([{ name: 'By', text: 'A baker', href: 'http://bakers.example/' }, { text: 'Unnamed' }]),
      fields: 'properties',
    });
    assert.deepEqual(listed.body.properties, [{ name: 'By', text: 'A baker', href: 'http://bakers.example/' }, { text: 'Unnamed' }]);
    for (const [properties, detail] of [
      ['not json', /must be a JSON object/],
      ['"text"', /must be a JSON list/],
      [JSON.stringify({ Source: { href: link } }), /without text/],
      [JSON.stringify({ Source: { text: 'x', href: 'javascript:alert(1)' } }), /href is not an http or https address/],
      [JSON.stringify(Array.from({ length: 51 }, () => ({ text: 'x' }))), /more than 50 properties/],
    ] as const) {
      const refused = await server.form('/v2.4/me/feed', { access_token: fixture.aliceToken, link, properties });
      assert.equal(refused.status, 400, refused.text);
      assert.equal(refused.body.error.code, 100);
      assert.match(refused.body.error.message, detail);
    }
  });

  it('shows a photo post attachment in the real shape, and leaves out shares never made', async () => {
    const reply = await get(`/v2.4/${fixture.postId(photoPost, alice)}/attachments`, { access_token: fixture.aliceToken });
    assert.equal(reply.status, 200, reply.text);
    const [attachment] = reply.body.data;
    const photo = String(fixture.photos[0]);
    assert.deepEqual(Object.keys(attachment), ['description', 'media', 'target', 'type', 'url']);
    assert.deepEqual(Object.keys(attachment.media.image), ['height', 'src', 'width']);
    assert.deepEqual(attachment.target, { id: photo, url: `https://www.facebook.com/photo.php?fbid=${photo}` });
    assert.equal(attachment.type, 'photo');
    const plain = await get(`/v2.4/${fixture.postId(photoPost, alice)}`, { access_token: fixture.aliceToken, fields: 'shares' });
    assert.deepEqual(plain.body, { id: fixture.postId(photoPost, alice) });
    // attachments appeared in v2.3.
    const v22 = await get(`/v2.2/${fixture.postId(photoPost, alice)}`, { access_token: fixture.aliceToken, fields: 'attachments' });
    assert.equal(v22.status, 400);
  });

  it("names the app on an uploaded photo's story, whose attachment shows the photo at its size", async () => {
    const body = new FormData();
    body.set('access_token', fixture.aliceToken);
    body.set('caption', 'Bread at dawn');
    body.set('source', new Blob([new Uint8Array(pngBytes(12, 8))], { type: 'image/png' }), 'bread.png');
    const uploaded = await server.fetch(`${server.url}/v2.4/me/photos`, { method: 'POST', body });
    assert.equal(uploaded.status, 200, uploaded.text);
    const story = await get(`/v2.4/${uploaded.body.post_id}`, { access_token: fixture.aliceToken, fields: 'application,attachments' });
    assert.equal(story.body.application.id, String(fixture.app.id));
    const [attachment] = story.body.attachments.data;
    assert.equal(attachment.type, 'photo');
    assert.deepEqual(attachment.target, { id: uploaded.body.id, url: `https://www.facebook.com/photo.php?fbid=${uploaded.body.id}` });
    assert.deepEqual([attachment.media.image.height, attachment.media.image.width], [8, 12]);
    assert.equal((await server.fetch(attachment.media.image.src)).status, 200);
    assert.equal(attachment.description, 'Bread at dawn');
  });

  it('completes comments, photos and albums', async () => {
    const postId = fixture.postId(fixture.posts.popular, alice);
    const top = await server.form(`/v2.4/${postId}/comments`, { access_token: fixture.aliceToken, message: 'Top' });
    const reply = await server.form(`/v2.4/${top.body.id}/comments`, { access_token: fixture.aliceToken, message: 'Reply' });
    await server.form(`/v2.4/${top.body.id}/likes`, { access_token: fixture.aliceToken });
    const fields = 'can_comment,can_like,can_hide,is_hidden,is_private,user_likes,parent';
    const topRead = await get(`/v2.4/${top.body.id}`, { access_token: fixture.aliceToken, fields });
    assert.deepEqual(topRead.body, { can_comment: true, can_like: true, can_hide: false, is_hidden: false, is_private: false, user_likes: true, id: top.body.id });
    const replyRead = await get(`/v2.4/${reply.body.id}`, { access_token: fixture.aliceToken, fields: 'can_comment,user_likes,parent{message}' });
    assert.deepEqual(replyRead.body, { can_comment: false, user_likes: false, parent: { message: 'Top', id: top.body.id }, id: reply.body.id });

    const photo = await get(`/v2.4/${fixture.photos[0]}`, { access_token: fixture.aliceToken, fields: 'can_delete,can_tag' });
    assert.deepEqual(photo.body, { can_delete: true, can_tag: true, id: String(fixture.photos[0]) });
    const album = await get(`/v2.4/${fixture.album}`, { access_token: fixture.aliceToken, fields: 'can_upload,count' });
    assert.deepEqual(album.body, { can_upload: true, count: 5, id: String(fixture.album) });
    // Without user_photos, a friend's photo fields are left out as before.
    const bobToken = await fixture.tokenFor(bob, ['public_profile', 'user_posts']);
    const hidden = await get(`/v2.4/${fixture.photos[0]}`, { access_token: bobToken, fields: 'can_delete' });
    assert.notEqual(hidden.body.can_delete, true);
  });
});
