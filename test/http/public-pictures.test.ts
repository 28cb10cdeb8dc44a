import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { registerApp } from '../../src/auth/apps.js';
import { scopedIdsFor } from '../../src/auth/viewer.js';
import type { AppRecord } from '../../src/store/auth-store.js';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type TestServer } from '../helpers/server.js';

describe('pictures are public', () => {
  let fixture: Fixture;
  let server: TestServer;
  let other: AppRecord;
  let silhouette: string;
  const served = useFixtureServer();
  before(async () => {
    ({ fixture, server } = served);
    other = await registerApp(fixture.store, { name: 'Other App', now: fixture.now });
    silhouette = `${server.url}/media/silhouette.svg`;
  });

  const picture = (id: string, params: Record<string, string> = {}) =>
    server.fetch(`${server.url}/v2.4/${id}/picture?${new URLSearchParams(params)}`, { redirect: 'manual' });

  it('redirects to the image without a token, for an id of any app', async () => {
    for (const id of [fixture.scoped(fixture.users.bob), scopedIdsFor(other).scope(fixture.users.carol)]) {
      const reply = await picture(id);
      assert.equal(reply.status, 302, reply.text);
      assert.equal(reply.headers.get('location'), silhouette);
      const image = await fetch(reply.headers.get('location')!);
      assert.equal(image.status, 200);
    }
  });

  it('describes the picture with redirect=false, with its size only when one was asked for', async () => {
    const id = scopedIdsFor(other).scope(fixture.users.dave);
    assert.deepEqual((await picture(id, { redirect: 'false' })).body, { data: { is_silhouette: true, url: silhouette } });
    assert.deepEqual((await picture(id, { redirect: '0', type: 'large' })).body, {
      data: { is_silhouette: true, url: `${silhouette}?width=200&height=200`, width: 200, height: 200 },
    });
    const sizes = { square: 50, small: 50, normal: 100, large: 200 };
    for (const [type, side] of Object.entries(sizes)) {
      const reply = await picture(id, { redirect: 'false', type });
      assert.deepEqual([reply.body.data.width, reply.body.data.height], [side, side], type);
    }
    assert.deepEqual((await picture(id, { redirect: 'false', width: '80' })).body.data, {
      is_silhouette: true, url: `${silhouette}?width=80&height=80`, width: 80, height: 80,
    });
    assert.deepEqual(Object.keys((await picture(id, { redirect: 'false', width: '64', height: '32' })).body.data), ['is_silhouette', 'url', 'width', 'height']);
    const sized = await picture(id, { type: 'normal' });
    assert.equal(sized.headers.get('location'), `${silhouette}?width=100&height=100`);
  });

  it('refuses a bad size and answers subcode 33 for an id that names nobody', async () => {
    const id = fixture.scoped(fixture.users.alice);
    const bad: Array<Record<string, string>> = [{ type: 'huge' }, { width: '0' }, { height: 'tall' }, { width: '100000' }];
    for (const params of bad) {
      const reply = await picture(id, params);
      assert.equal(reply.status, 400, JSON.stringify(params));
      assert.equal(reply.body.error.code, 100);
    }
    const nobody = scopedIdsFor(other).scope(2 ** 40 - 1);
    const missing = await picture(nobody);
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.error_subcode, 33);
    assert.equal((await picture(String(fixture.users.alice))).body.error.error_subcode, 33, 'internal ids are not ids');
    assert.equal((await picture('me')).body.error.code, 2500, 'me needs a token');
  });

  it("serves a page's picture without a token, and the same answer with one", async () => {
    assert.equal((await picture(String(fixture.pages[0]))).status, 302);
    const withToken = await server.get('/v2.4/me/picture', { access_token: fixture.aliceToken, redirect: 'false', type: 'small' });
    assert.deepEqual(withToken.body, { data: { is_silhouette: true, url: `${silhouette}?width=50&height=50`, width: 50, height: 50 } });
  });
});
