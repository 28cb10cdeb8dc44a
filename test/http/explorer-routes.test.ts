import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { graphSchema } from '../../src/graph/graph-schema.js';
import { useFixtureServer } from '../helpers/fixture-server.js';

/** The addresses of the assets a page links to (`/explorer/assets/<build>/<name>`). */
function assetLinks(html: string): string[] {
  return [...html.matchAll(/(?:href|src)="(\/explorer\/assets\/[^"]+)"/g)].map((match) => match[1]!);
}

describe('the Explorer is served by Loom itself', () => {
  const state = useFixtureServer();

  it('serves the page as HTML that may run only its own scripts and never sends a referrer', async () => {
    const page = await state.server.get('/explorer');
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(page.headers.get('cache-control'), 'no-cache');
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
    const policy = page.headers.get('content-security-policy') ?? '';
    for (const rule of ["default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"]) {
      assert.ok(policy.includes(rule), `${rule} in ${policy}`);
    }
    assert.match(page.text, /<title>Loom Explorer<\/title>/);
    assert.doesNotMatch(page.text, /\{\{assets\}\}|https?:\/\//, 'every asset comes from this server');
  });

  it('serves every linked asset with its content type, cached for good under the build hash', async () => {
    const html = (await state.server.get('/explorer')).text;
    const links = assetLinks(html);
    const types: Record<string, RegExp> = { js: /^text\/javascript; charset=utf-8$/, css: /^text\/css; charset=utf-8$/, svg: /^image\/svg\+xml$/ };
    assert.deepEqual(new Set(links.map((link) => link.split('.').pop())), new Set(Object.keys(types)));
    for (const link of links) {
      const asset = await state.server.get(link);
      assert.equal(asset.status, 200, link);
      assert.match(asset.headers.get('content-type') ?? '', types[link.split('.').pop()!]!, link);
      assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable', link);
      assert.ok(asset.text.length > 0, link);
    }
  });

  it('serves the modules the main script imports, under the same build', async () => {
    const main = assetLinks((await state.server.get('/explorer')).text).find((link) => link.endsWith('/main.js'))!;
    const base = main.slice(0, main.lastIndexOf('/'));
    const imports = [...(await state.server.get(main)).text.matchAll(/from '\.\/([\w-]+\.js)'/g)].map((match) => match[1]!);
    assert.ok(imports.length >= 5, `main.js imports ${imports.join(', ')}`);
    for (const name of imports) assert.equal((await state.server.get(`${base}/${name}`)).status, 200, name);
  });

  it('answers 404 for assets of another build, unknown names and paths that climb out', async () => {
    const main = assetLinks((await state.server.get('/explorer')).text).find((link) => link.endsWith('/main.js'))!;
    const base = main.slice(0, main.lastIndexOf('/'));
    for (const path of [
      '/explorer/assets/000000000000/main.js',
      `${base}/nothing.js`,
      `${base}/index.html`,
      `${base}/..%2F..%2Fpackage.json`,
      `${base}/%2e%2e%2fexplorer-routes.js`,
    ]) {
      const answer = await state.server.get(path);
      assert.equal(answer.status, 404, path);
      assert.doesNotMatch(answer.text, /"name": "loom"/, path);
    }
  });

  it('serves the sign-in callback page and sends /explorer/ to /explorer', async () => {
    const callback = await state.server.get('/explorer/callback');
    assert.equal(callback.status, 200);
    assert.equal(callback.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.ok(assetLinks(callback.text).some((link) => link.endsWith('/callback.js')));
    const slash = await state.server.fetch(`${state.server.url}/explorer/`, { redirect: 'manual' });
    assert.equal(slash.status, 301);
    assert.equal(slash.headers.get('location'), '/explorer');
  });

  it('lists the apps by id and name only, never their secrets', async () => {
    const apps = await state.server.get('/explorer/apps.json');
    assert.equal(apps.status, 200);
    assert.match(apps.headers.get('content-type') ?? '', /^application\/json/);
    assert.match(apps.headers.get('cache-control') ?? '', /no-store/);
    const app = state.fixture.app;
    assert.deepEqual(apps.body, { data: [{ id: String(app.id), name: app.name }], default_app_id: String(app.id) });
    assert.ok(!apps.text.includes(app.secret) && !apps.text.includes(app.idKey));
  });

  it('lists every permission of the schema, grouped and explained', async () => {
    const answer = await state.server.get('/explorer/permissions.json');
    assert.equal(answer.status, 200);
    const groups = answer.body.groups as Array<{ name: string; permissions: Array<{ name: string; description: string }> }>;
    const names = groups.flatMap((group) => group.permissions.map((permission) => permission.name));
    assert.deepEqual([...names].sort(), graphSchema().allScopes());
    assert.ok(groups.every((group) => group.name !== 'Other'));
    assert.ok(groups.flatMap((group) => group.permissions).every((permission) => permission.description.length > 10));
  });

  it('tells the page that no public URL is configured, so only its own origin counts as Loom', async () => {
    const config = await state.server.get('/explorer/config.json');
    assert.equal(config.status, 200);
    assert.match(config.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(config.body, { public_url: null });
  });

  it('leaves the API answers as they were', async () => {
    const me = await state.server.get('/v2.4/me', { access_token: state.fixture.aliceToken });
    assert.equal(me.status, 200);
    assert.equal(me.headers.get('content-type'), 'application/json; charset=UTF-8');
    assert.equal(me.headers.get('facebook-api-version'), 'v2.4');
    const explorerNode = await state.server.get('/v2.4/explorer', { access_token: state.fixture.aliceToken });
    assert.equal(explorerNode.body.error.code, 803, 'a Graph path named explorer is still a Graph path');
  });
});

describe('the Explorer behind a configured public URL', () => {
  const state = useFixtureServer({ publicUrl: 'https://loom.example/' });

  it('tells the page the public URL its API links are written with', async () => {
    const config = await state.server.get('/explorer/config.json');
    assert.deepEqual(config.body, { public_url: 'https://loom.example' });
    const me = await state.server.get('/v2.4/me/friends', { access_token: state.fixture.aliceToken, limit: '1' });
    assert.match(me.body.paging.next, /^https:\/\/loom\.example\/v2\.4\//, 'the links the page must recognise use it');
  });
});
