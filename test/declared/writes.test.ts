/**
 * Writes of a declared schema over HTTP, on the book club: create through an edge (with the
 * links its backed_by edges need, in one transaction), validation keywords and code validators,
 * update, link and unlink with the inverse kept, and delete with its cascade; counts and the
 * declared average follow every write.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BOOKCLUB_CODE, BOOKCLUB_YAML } from './bookclub-schema.js';
import { declaredServer, type DeclaredServer } from './declared-server.js';

let s: DeclaredServer;
let ana: string;
let ben: string;
let cy: string;
let readOnly: string;

const post = async (path: string, token: string, fields: Record<string, string> = {}, method: 'POST' | 'DELETE' = 'POST') => {
  const reply = await s.server.form(path, { ...fields, access_token: token }, method);
  return { status: reply.status, body: reply.body };
};

before(async () => {
  // A JSON field checked by a JSON Schema of its own, beside the book club's fields.
  const moods = "      moods: {type: json, schema: {type: array, items: {type: string}, maxItems: 3}, write: owner, description: How it felt.}\n";
  const yaml = BOOKCLUB_YAML.replace('code: ./bookclub.code.js', 'code: ./bookclub.code.mjs').replace('      created_time: {type: datetime, source: created_time, description: When the review was written.}\n', (line) => moods + line);
  assert.notEqual(yaml.indexOf('moods:'), -1);
  s = await declaredServer(yaml, { 'bookclub.code.mjs': BOOKCLUB_CODE });
  await s.put([
    { type: 'member', key: 'ana', data: { handle: 'ana', name: 'Ana Souza' } },
    { type: 'member', key: 'ben', data: { handle: 'ben', name: 'Ben Okafor' } },
    { type: 'member', key: 'cy', data: { handle: 'cy', name: 'Cy Lam' } },
    { type: 'book', key: 'pp', data: { isbn: '9780141439518', title: 'Pride and Prejudice', authors: ['Jane Austen'] } },
  ]);
  ana = await s.token('ana', ['reading_activity', 'publish']);
  ben = await s.token('ben', ['reading_activity', 'publish']);
  cy = await s.token('cy', ['reading_activity', 'publish']);
  readOnly = await s.token('cy', ['reading_activity']);
});
after(() => s.close());

describe('writes to declared types', () => {
  let review = '';

  it('creates a review through the book edge, with a compound id, listed by the book and its author', async () => {
    const created = await post(`/${s.shown('pp')}/reviews`, ana, { rating: '4', body: 'Sharper than I remembered.' });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.match(created.body.id, new RegExp(`^${s.shown('ana')}_\\d+$`));
    review = created.body.id;
    const book = await s.get(`/${s.shown('pp')}`, ana, { fields: 'title,rating,reviews.summary(true){rating,from{name},book{title}}' });
    assert.equal(book.body.rating, 4);
    assert.equal(book.body.reviews.summary.total_count, 1);
    assert.deepEqual(book.body.reviews.data, [{ rating: 4, from: { name: 'Ana Souza', id: s.shown('ana') }, book: { title: 'Pride and Prejudice', id: s.shown('pp') }, id: review }]);
    const me = await s.get('/me', ana, { fields: 'reviews{id}' });
    assert.deepEqual(me.body.reviews.data, [{ id: review }]);
  });

  it('refuses values outside the declared keywords, naming the field and the limit', async () => {
    const high = await post(`/${s.shown('pp')}/reviews`, ben, { rating: '7', body: 'x' });
    assert.equal(high.body.error.code, 100);
    assert.match(high.body.error.message, /rating must be at most 5/);
    const missing = await post(`/${s.shown('pp')}/reviews`, ben, { body: 'no stars' });
    assert.match(missing.body.error.message, /rating is required/);
    const audience = await post(`/${s.shown('pp')}/reviews`, ben, { rating: '3', audience: 'world' });
    assert.match(audience.body.error.message, /audience must be one of everyone, followers, self/);
  });

  it('runs the code module validators on create and update', async () => {
    const harsh = await post(`/${s.shown('pp')}/reviews`, ben, { rating: '1' });
    assert.equal(harsh.body.error.code, 100);
    assert.match(harsh.body.error.message, /A rating of 1 or 2 needs a few words/);
    const wordless = (await post(`/${s.shown('pp')}/reviews`, cy, { rating: '3', audience: 'self' })).body.id as string;
    const lowered = await post(`/${wordless}`, cy, { rating: '2' });
    assert.match(lowered.body.error.message, /needs a few words/);
    assert.deepEqual((await post(`/${wordless}`, cy, {}, 'DELETE')).body, { success: true });
  });

  it('refuses a write without the permission the edge names', async () => {
    const refused = await post(`/${s.shown('pp')}/reviews`, readOnly, { rating: '5', body: 'ok' });
    assert.equal(refused.body.error.code, 200);
  });

  it('updates by the owner only, and the average follows', async () => {
    const updated = await post(`/${review}`, ana, { rating: '2', body: 'On reflection, slow.' });
    assert.deepEqual(updated.body, { success: true });
    const other = await post(`/${review}`, ben, { body: 'mine now' });
    assert.equal(other.body.error.code, 200);
    const read = await s.get(`/${review}`, ben, { fields: 'rating,body' });
    assert.deepEqual(read.body, { rating: 2, body: 'On reflection, slow.', id: review });
    await post(`/${s.shown('pp')}/reviews`, ben, { rating: '5', body: 'Loved it' });
    const book = await s.get(`/${s.shown('pp')}`, ben, { fields: 'rating,reviews.limit(0).summary(true)' });
    assert.equal(book.body.rating, 3.5);
    assert.equal(book.body.reviews.summary.total_count, 2);
  });

  it('follows and unfollows, keeping the inverse edge in the same write', async () => {
    const selfFollow = await post(`/${s.shown('ben')}/followers`, ben);
    assert.equal(selfFollow.body.error.code, 100);
    assert.deepEqual((await post(`/${s.shown('ana')}/followers`, ben)).body, { success: true });
    const ana1 = await s.get(`/${s.shown('ana')}/followers`, ben, { summary: 'true' });
    assert.deepEqual(ana1.body.data.map((m: { id: string }) => m.id), [s.shown('ben')]);
    assert.equal(ana1.body.summary.is_following, true);
    const following = await s.get('/me/following', ben);
    assert.deepEqual(following.body.data.map((m: { id: string }) => m.id), [s.shown('ana')]);
    assert.deepEqual((await post(`/${s.shown('ana')}/followers`, ben, {}, 'DELETE')).body, { success: true });
    assert.deepEqual((await s.get('/me/following', ben)).body.data, []);
    assert.deepEqual((await s.get(`/${s.shown('ana')}/followers`, ben)).body.data, []);
  });

  it('likes a review: the count field and the viewer flag of the summary follow', async () => {
    assert.deepEqual((await post(`/${review}/likes`, cy)).body, { success: true });
    const read = await s.get(`/${review}`, cy, { fields: 'like_count,likes.summary(true).limit(0)' });
    assert.equal(read.body.like_count, 1);
    assert.deepEqual(read.body.likes.summary, { total_count: 1, can_like: true, has_liked: true });
    const withoutPublish = await s.get(`/${review}`, readOnly, { fields: 'likes.summary(true).limit(0)' });
    assert.deepEqual(withoutPublish.body.likes.summary, { total_count: 1, can_like: false, has_liked: true }, 'can_like follows the write permission');
  });

  it('comments under a review; the review owner may delete any comment, a stranger none', async () => {
    const made = await post(`/${review}/comments`, ben, { message: 'The letters chapter!' });
    const comment = made.body.id as string;
    assert.match(comment, /^\d+$/);
    const listed = await s.get(`/${review}/comments`, cy, { summary: 'true' });
    assert.deepEqual(listed.body.data.map((c: { id: string }) => c.id), [comment]);
    assert.deepEqual(listed.body.summary, { order: 'chronological', total_count: 1, can_comment: true });
    assert.equal((await post(`/${comment}`, cy, {}, 'DELETE')).body.error.code, 200);
    const second = (await post(`/${review}/comments`, cy, { message: 'Agreed' })).body.id as string;
    assert.deepEqual((await post(`/${second}`, ana, {}, 'DELETE')).body, { success: true });
    assert.deepEqual((await s.get(`/${review}/comments`, cy)).body.data.map((c: { id: string }) => c.id), [comment]);
  });

  it('deletes a review with its comments; counts and the average follow', async () => {
    const comment = (await s.get(`/${review}/comments`, ana)).body.data[0].id as string;
    assert.equal((await post(`/${review}`, ben, {}, 'DELETE')).body.error.code, 200);
    assert.deepEqual((await post(`/${review}`, ana, {}, 'DELETE')).body, { success: true });
    assert.equal((await s.get(`/${review}`, ana)).body.error.code, 100);
    assert.equal((await s.get(`/${comment}`, ana)).body.error.code, 100);
    const book = await s.get(`/${s.shown('pp')}`, ana, { fields: 'rating,reviews.limit(0).summary(true)' });
    assert.equal(book.body.rating, 5);
    assert.equal(book.body.reviews.summary.total_count, 1);
    assert.deepEqual((await s.get('/me', ana, { fields: 'reviews' })).body.reviews, undefined);
  });

  it('deletes nothing whose type declares no delete rule, not even a member by themselves: no rule of another package applies', async () => {
    const refused = await post(`/${s.shown('ana')}`, ana, {}, 'DELETE');
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    assert.equal(refused.body.error.code, 200);
    assert.match(refused.body.error.message, /You may not delete this/);
    assert.equal((await s.get(`/${s.shown('ana')}`, ben, { fields: 'name' })).body.name, 'Ana Souza');
  });

  it("answers the design study's reads: nested edges with modifiers, and both orders of an ordered edge", async () => {
    const first = (await post(`/${s.shown('pp')}/reviews`, cy, { rating: '3', body: 'Fine.' })).body.id as string;
    const me = await s.get('/me', cy, { fields: 'name,reviews.limit(2){rating,book{title},likes.limit(0).summary(true)}' });
    assert.deepEqual(me.body.reviews.data[0], {
      rating: 3,
      book: { title: 'Pride and Prejudice', id: s.shown('pp') },
      likes: { data: [], summary: { total_count: 0, can_like: true, has_liked: false } },
      id: first,
    });
    const newest = await s.get(`/${s.shown('pp')}/reviews`, cy, { fields: 'id' });
    const oldest = await s.get(`/${s.shown('pp')}/reviews`, cy, { fields: 'id', order: 'chronological' });
    assert.equal(newest.body.data[0].id, first);
    assert.deepEqual(oldest.body.data.map((r: { id: string }) => r.id), [...newest.body.data.map((r: { id: string }) => r.id)].reverse());
  });

  it('answers metadata=1 from the declaration, with descriptions and connections', async () => {
    const book = await s.get(`/${s.shown('pp')}`, ana, { metadata: '1', fields: 'id' });
    assert.equal(book.body.metadata.type, 'book');
    const fields = book.body.metadata.fields as Array<{ name: string; description: string; type: string }>;
    assert.deepEqual(fields.find((field) => field.name === 'isbn'), { name: 'isbn', description: 'The 13-digit ISBN.', type: 'string' });
    assert.deepEqual(fields.find((field) => field.name === 'authors')?.type, 'list<string>');
    assert.deepEqual(Object.keys(book.body.metadata.connections), ['reviews']);
  });

  it('checks a JSON field against its declared JSON Schema', async () => {
    const created = await post(`/${s.shown('pp')}/reviews`, cy, { rating: '5', body: 'Warm.', moods: '["wry","warm"]' });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const read = await s.get(`/${created.body.id}`, cy, { fields: 'moods' });
    assert.deepEqual(read.body.moods, ['wry', 'warm']);
    const refused = await post(`/${s.shown('pp')}/reviews`, cy, { rating: '5', body: 'Warm.', moods: '["wry",1]' });
    assert.equal(refused.body.error?.code, 100, JSON.stringify(refused.body));
    assert.match(refused.body.error.message, /moods does not match its schema/);
  });
});
