import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import type { Fixture } from '../helpers/fixture.js';
import { useFixtureServer } from '../helpers/fixture-server.js';
import { type TestServer } from '../helpers/server.js';

describe('cursor paging over HTTP', () => {
  let fixture: Fixture;
  let server: TestServer;
  let token: string;
  let popular: string;
  const served = useFixtureServer();
  before(() => {
    ({ fixture, server } = served);
    token = fixture.aliceToken;
    popular = fixture.postId(fixture.posts.popular, fixture.users.alice);
  });

  it('puts the token into paging links only when the request carried it as a parameter', async () => {
    const query = { fields: 'likes.limit(2){name}' };
    const byParam = await server.get(`/v2.4/${popular}`, { ...query, access_token: token });
    assert.equal(new URL(byParam.body.likes.paging.next).searchParams.get('access_token'), token);
    const byHeader = await server.fetch(`${server.url}/v2.4/${popular}?${new URLSearchParams(query)}`, {
      headers: { authorization: `OAuth ${token}` },
    });
    assert.equal(byHeader.status, 200, byHeader.text);
    assert.ok(!byHeader.text.includes(token), 'a header token never lands in a link');
    const next = await server.fetch(byHeader.body.likes.paging.next, { headers: { authorization: `OAuth ${token}` } });
    assert.equal(next.status, 200, 'the link works with the header sent again');
    assert.equal(next.body.data.length, 2);
  });

  it('walks paging.next over 1,000 likes: each like exactly once, and the same order as walking with after', async () => {
    const viaNext: string[] = [];
    let page = await server.get(`/v2.4/${popular}/likes`, { access_token: token, fields: 'name', limit: '37' });
    assert.equal(page.body.paging.previous, undefined, 'no previous link on a first page');
    let pages = 0;
    for (;;) {
      pages++;
      viaNext.push(...page.body.data.map((like: { id: string }) => like.id));
      if (!page.body.paging?.next) break;
      assert.ok(page.body.paging.next.startsWith(`${server.url}/v2.4/${popular}/likes?`));
      page = await server.fetch(page.body.paging.next);
      assert.ok(page.body.paging.previous, 'later pages link back');
    }
    assert.equal(pages, Math.ceil(1000 / 37));
    assert.equal(viaNext.length, 1000);
    assert.equal(new Set(viaNext).size, 1000);

    const viaAfter: string[] = [];
    let after: string | undefined;
    for (;;) {
      const params: Record<string, string> = { access_token: token, fields: 'name', limit: '37' };
      if (after) params.after = after;
      const reply = await server.get(`/v2.4/${popular}/likes`, params);
      viaAfter.push(...reply.body.data.map((like: { id: string }) => like.id));
      if (!reply.body.paging?.next) break;
      after = reply.body.paging.cursors.after;
    }
    assert.deepEqual(viaAfter, viaNext);
  });

  it('keeps every original parameter in the links, replacing only the cursor', async () => {
    const reply = await server.get(`/v2.4/${popular}/likes`, { access_token: token, fields: 'name', limit: '5', summary: 'true', since: '1' });
    const next = new URL(reply.body.paging.next);
    assert.deepEqual([...next.searchParams.keys()], ['access_token', 'fields', 'limit', 'summary', 'since', 'after']);
    assert.equal(next.searchParams.get('after'), reply.body.paging.cursors.after);
    assert.equal(next.searchParams.get('access_token'), token);
  });

  it('writes link parameters in the form encoding, escaping what a query must not hold as it is', async () => {
    // Every parameter is repeated; the field expression holds braces, parentheses, commas and a
    // space, and an unknown parameter holds characters each escaped in its own way.
    const odd = "it's (nearly) ~done! é*-._";
    const reply = await server.get(`/v2.4/${popular}/likes`, { access_token: token, fields: 'name,picture.width(20){url}', limit: '2', note: odd });
    const next = new URL(reply.body.paging.next);
    assert.equal(next.searchParams.get('note'), odd);
    assert.equal(next.searchParams.get('fields'), 'name,picture.width(20){url}');
    // Byte for byte what URLSearchParams writes for the same parameters.
    assert.equal(next.search.slice(1), new URLSearchParams([...next.searchParams]).toString());
    assert.match(next.search, /note=it%27s\+%28nearly%29\+%7Edone%21\+%C3%A9\*-\._&/);
  });

  it('pages backwards with before and previous', async () => {
    const first = await server.get(`/v2.4/${popular}/likes`, { access_token: token, limit: '10' });
    const second = await server.fetch(first.body.paging.next);
    const back = await server.fetch(second.body.paging.previous);
    assert.deepEqual(back.body.data, first.body.data);
    assert.equal(back.body.paging.previous, undefined, 'nothing newer than the first page');
    assert.ok(back.body.paging.next);
  });

  it('stops with no next link on the last page', async () => {
    const reply = await server.get('/v2.4/me/albums', { access_token: token });
    assert.equal(reply.body.data.length, 1);
    assert.ok(reply.body.paging.cursors.after);
    assert.equal(reply.body.paging.next, undefined);
  });

  it('pages nested edges with links that point at the edge path', async () => {
    const reply = await server.get(`/v2.4/${popular}`, { access_token: token, fields: 'likes.limit(3){name}' });
    const next = new URL(reply.body.likes.paging.next);
    assert.equal(next.pathname, `/v2.4/${popular}/likes`);
    assert.equal(next.searchParams.get('fields'), 'name');
    assert.equal(next.searchParams.get('limit'), '3');
    const nextPage = await server.fetch(reply.body.likes.paging.next);
    const viaAfter = await server.get(`/v2.4/${popular}/likes`, { access_token: token, fields: 'name', limit: '3', after: reply.body.likes.paging.cursors.after });
    assert.deepEqual(nextPage.body.data, viaAfter.body.data);
    assert.equal(nextPage.body.data.length, 3);
    assert.notDeepEqual(nextPage.body.data, reply.body.likes.data);
  });

  it('refuses tampered, foreign and nonsense cursors with code 100', async () => {
    const first = await server.get(`/v2.4/${popular}/likes`, { access_token: token, limit: '2' });
    const cursor: string = first.body.paging.cursors.after;
    const decoded = Buffer.from(cursor, 'base64url').toString();
    const tampered = Buffer.from(decoded.replace(/^\d/, (d) => String((Number(d) + 1) % 10))).toString('base64url');
    const friends = await server.get('/v2.4/me/friends', { access_token: token, limit: '2' });
    for (const after of [tampered, friends.body.paging.cursors.after, 'garbage', randomBytes(300).toString('base64url')]) {
      const reply = await server.get(`/v2.4/${popular}/likes`, { access_token: token, after });
      assert.equal(reply.status, 400, after.slice(0, 20));
      assert.equal(reply.body.error.code, 100);
    }
  });

  it('caps limit and refuses a bad one', async () => {
    const capped = await server.get(`/v2.4/${popular}/likes`, { access_token: token, limit: '5000' });
    assert.equal(capped.body.data.length, 100);
    for (const limit of ['-1', 'ten', '1.5']) {
      const reply = await server.get(`/v2.4/${popular}/likes`, { access_token: token, limit });
      assert.equal(reply.body.error.code, 100, limit);
    }
    const since = await server.get(`/v2.4/${popular}/likes`, { access_token: token, since: 'not a time' });
    assert.equal(since.body.error.code, 100);
  });
});
