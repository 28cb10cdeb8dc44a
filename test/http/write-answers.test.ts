import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Fixture } from '../helpers/fixture.js';
import { pngBytes } from '../helpers/images.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type TestServer } from '../helpers/server.js';

describe('write answers with fields, as their writer sees them', () => {
  let fixture: Fixture;
  let server: TestServer;
  /** Carol may publish but granted no read permission: no user_photos, no user_posts. */
  let token: string;
  const served = useFixtureServer();
  before(async () => {
    ({ fixture, server } = served);
    token = await fixture.tokenFor(fixture.users.carol, ['public_profile', 'publish_actions']);
  });

  function upload(fields: Record<string, string>) {
    const body = new FormData();
    body.set('access_token', token);
    for (const [name, value] of Object.entries(fields)) body.set(name, value);
    body.set('source', new Blob([new Uint8Array(pngBytes(4, 3))], { type: 'image/png' }), 'picture.png');
    return server.fetch(`${server.url}/v2.4/me/photos`, { method: 'POST', body });
  }

  it('answers a photo upload with caption and fields=name as {id, name} without user_photos', async () => {
    const reply = await upload({ caption: 'Kites over the dunes', fields: 'name' });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(Object.keys(reply.body), ['name', 'id']);
    assert.deepEqual(reply.body, { name: 'Kites over the dunes', id: reply.body.id });
    assert.match(reply.body.id, /^\d+$/);
    // The answer is the writer's alone: a later read still needs user_photos.
    const later = await server.get(`/v2.4/${reply.body.id}`, { access_token: token, fields: 'name' });
    assert.deepEqual(later.body, { id: reply.body.id });
  });

  it('answers a feed post with fields=message as {message, id}', async () => {
    const reply = await server.form('/v2.4/me/feed', { access_token: token, message: 'Out flying kites', fields: 'message' });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.body, { message: 'Out flying kites', id: reply.body.id });
    assert.match(reply.body.id, new RegExp(`^${fixture.scoped(fixture.users.carol)}_\\d+$`));
  });

  it('answers an update of a caption with fields=name with the new caption', async () => {
    const photo = await upload({ caption: 'First words' });
    const reply = await server.form(`/v2.4/${photo.body.id}`, { access_token: token, name: 'Second thoughts', fields: 'name' });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.body, { name: 'Second thoughts', id: photo.body.id });
  });
});
