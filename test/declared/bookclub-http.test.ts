/**
 * The book-club example as its README runs it, on the store the run selects: `schema apply`,
 * `import --data`, `serve --db --no-demo` and `token --principal`, each as a real command on a
 * fresh database, then every request the example lists, over HTTP, answering as described.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { loom, startServe, type RunningServe } from '../helpers/cli.js';
import { scratchLocation } from '../helpers/test-store.js';

const example = fileURLToPath(new URL('../../../examples/bookclub/', import.meta.url));

type Json = Record<string, any>;

describe('the book club example over HTTP', () => {
  const db = scratchLocation();
  let server: RunningServe;
  let token: string;

  async function get(path: string, as = token): Promise<Json> {
    const url = new URL(path, server.url);
    url.searchParams.set('access_token', as);
    return (await (await fetch(url)).json()) as Json;
  }

  async function send(method: 'POST' | 'DELETE', path: string, params: Record<string, string> = {}, as = token): Promise<Json> {
    const body = new URLSearchParams({ ...params, access_token: as });
    return (await (await fetch(new URL(path, server.url), { method, body })).json()) as Json;
  }

  function tokenFor(member: string): string {
    const run = loom('token', '--db', db, '--principal', member, '--scopes', 'reading_activity,publish', '--json');
    assert.equal(run.code, 0, run.stderr);
    return (JSON.parse(run.stdout) as { access_token: string }).access_token;
  }

  before(async () => {
    const applied = loom('schema', 'apply', join(example, 'bookclub.loom.yaml'), '--db', db);
    assert.equal(applied.code, 0, applied.stderr);
    const imported = loom('import', '--data', join(example, 'data.ndjson'), '--db', db);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, /53 nodes created, 0 updated, 36 edges, 12 logins/);
    server = await startServe('--db', db, '--no-demo');
    token = tokenFor('ana');
  });
  after(async () => server?.stop());

  /** The id of a book Ana reviewed. */
  async function bookId(title: string): Promise<string> {
    const me = await get('/me?fields=reviews{book{title}}');
    const books = me.reviews.data.map((review: Json) => review.book);
    const book = books.find((candidate: Json) => candidate.title === title);
    assert.ok(book, `Ana reviewed ${title}`);
    return book.id as string;
  }

  it('GET /me with nested reviews, their books and like summaries', async () => {
    const me = await get('/me?fields=name,reviews.limit(2){rating,book{title},likes.limit(0).summary(true)}');
    assert.equal(me.name, 'Ana Souza');
    const reviews = me.reviews.data as Json[];
    // Newest first: her private notes on Middlemarch, then her review of Sapiens for followers.
    assert.deepEqual(reviews.map((review) => [review.rating, review.book.title, review.likes.summary.total_count]), [
      [3, 'Middlemarch', 0],
      [2, 'Sapiens', 1],
    ]);
    assert.deepEqual(reviews[1]!.likes.data, []);
    assert.ok(typeof me.reviews.paging.next === 'string', 'a next page of her reviews');
  });

  it('GET /{book-id}/reviews in chronological order, paged by cursor, hiding what the reader may not see', async () => {
    const pride = await bookId('Pride and Prejudice');
    const first = await get(`/${pride}/reviews?order=chronological&limit=2&fields=body,from{name}`);
    assert.deepEqual(first.data.map((review: Json) => review.from.name), ['Ana Souza', 'Ben Okafor']);
    assert.ok(first.paging.cursors.after);
    const second = await get(`/${pride}/reviews?order=chronological&limit=2&fields=from{name}&after=${first.paging.cursors.after}`);
    assert.deepEqual(second.data.map((review: Json) => review.from.name), ['Elena Petrova']);
    // Ben's review is for his followers: Ana follows him, Chloé does not.
    const chloe = tokenFor('chloe');
    const seenByChloe = await get(`/${pride}/reviews?order=chronological&fields=from{name}`, chloe);
    assert.deepEqual(seenByChloe.data.map((review: Json) => review.from.name), ['Ana Souza', 'Elena Petrova']);
    // Farid's review of Middlemarch is his alone.
    const middlemarch = await bookId('Middlemarch');
    const names = (await get(`/${middlemarch}/reviews?fields=from{name}`)).data.map((review: Json) => review.from.name);
    assert.deepEqual(names.sort(), ['Ana Souza', 'Grace Lee']);
  });

  it('GET /{book-id}?metadata=1 lists the declared fields with their descriptions and the reviews connection', async () => {
    const pride = await bookId('Pride and Prejudice');
    const book = await get(`/${pride}?metadata=1&fields=title,rating,cover_url`);
    assert.equal(book.title, 'Pride and Prejudice');
    assert.equal(book.metadata.type, 'book');
    const title = book.metadata.fields.find((field: Json) => field.name === 'title');
    assert.equal(title.description, 'The title on the cover.');
    assert.match(book.metadata.connections.reviews, new RegExp(`/${pride}/reviews`));
    // The mean of 5, 3 and 4, kept by the import; the cover from the code module.
    assert.equal(book.rating, 4);
    assert.match(book.cover_url, /\/covers\/9780141439518\.jpg$/);
  });

  it('POST /{book-id}/reviews creates a review with a compound id, refusing what the validator refuses', async () => {
    const ana = (await get('/me?fields=id')).id as string;
    const guns = await bookId('The Guns of August');
    const refused = await send('POST', `/${guns}/reviews`, { rating: '1' });
    assert.equal(refused.error?.code, 100);
    assert.match(refused.error.message, /A rating of 1 or 2 needs a few words/);
    const created = await send('POST', `/${guns}/reviews`, { rating: '4', body: 'Finally read it.' });
    assert.match(created.id, new RegExp(`^${ana}_\\d+$`));
    const review = await get(`/${created.id}?fields=rating,body,book{title},from{name}`);
    assert.deepEqual([review.rating, review.body, review.book.title, review.from.name], [4, 'Finally read it.', 'The Guns of August', 'Ana Souza']);
  });

  it('POST /{review-id} changes the body', async () => {
    const review = (await get('/me/reviews?limit=1&fields=id')).data[0].id as string;
    assert.deepEqual(await send('POST', `/${review}`, { body: 'Halfway through; better than expected.' }), { success: true });
    assert.equal((await get(`/${review}?fields=body`)).body, 'Halfway through; better than expected.');
  });

  it('POST and DELETE /{member-id}/followers follow and unfollow', async () => {
    const sapiens = await bookId('Sapiens');
    const hiro = (await get(`/${sapiens}/reviews?fields=from{id,name}`)).data.map((review: Json) => review.from).find((from: Json) => from.name === 'Hiro Tanaka');
    assert.ok(hiro);
    const followers = async () => (await get(`/${hiro.id}?fields=followers.limit(0).summary(true)`)).followers.summary;
    assert.deepEqual(await send('POST', `/${hiro.id}/followers`), { success: true });
    assert.equal((await followers()).total_count, 1);
    assert.equal((await followers()).is_following, true);
    assert.ok((await get('/me/following?fields=name')).data.some((member: Json) => member.name === 'Hiro Tanaka'));
    assert.deepEqual(await send('DELETE', `/${hiro.id}/followers`), { success: true });
    assert.equal((await followers()).total_count, 0);
  });

  it('POST /{review-id}/comments adds a comment; DELETE /{review-id} takes its comments with it', async () => {
    const guns = await bookId('The Guns of August');
    const created = await send('POST', `/${guns}/reviews`, { rating: '5', body: 'Second reading.' });
    const comment = await send('POST', `/${created.id}/comments`, { message: 'Noting this for the club.' });
    assert.ok(typeof comment.id === 'string');
    const comments = await get(`/${created.id}/comments?fields=message,from{name}`);
    assert.deepEqual(comments.data.map((item: Json) => [item.message, item.from.name]), [['Noting this for the club.', 'Ana Souza']]);
    assert.deepEqual(await send('DELETE', `/${created.id}`), { success: true });
    assert.ok((await get(`/${comment.id}`)).error, 'the comment went with its review');
    assert.ok((await get(`/${created.id}`)).error, 'the review is gone');
  });

  it('imports the file again without duplicating anything, and names a bad line of a later file', async () => {
    const again = loom('import', '--data', join(example, 'data.ndjson'), '--db', db);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /0 nodes created, 53 updated/);
    const pride = await bookId('Pride and Prejudice');
    assert.equal((await get(`/${pride}?fields=reviews.limit(0).summary(true)`)).reviews.summary.total_count, 3);
    const directory = mkdtempSync(join(tmpdir(), 'loom-bookclub-'));
    const bad = join(directory, 'bad.ndjson');
    writeFileSync(bad, [
      JSON.stringify({ node: 'member', key: 'zoe', fields: { name: 'Zoe' } }),
      JSON.stringify({ node: 'book', key: '123', fields: { title: 'No ISBN' } }),
    ].join('\n'));
    const refused = loom('import', '--data', bad, '--db', db);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /bad\.ndjson line 2: The parameter isbn must match/);
    // Zoe's line came before the bad one, in the same batch: she was not written.
    const zoe = loom('token', '--db', db, '--principal', 'zoe', '--json');
    assert.notEqual(zoe.code, 0);
  });

  it('exports the data back with loom export --data', () => {
    const exported = loom('export', '--data', '--db', db);
    assert.equal(exported.code, 0, exported.stderr);
    const lines = exported.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Json);
    assert.deepEqual(lines[0], { format: 'loom-data', version: 1, schema: 'bookclub', schema_version: 3 });
    assert.deepEqual(lines.at(-1), { end: true, lines: lines.length });
    const review = lines.find((line) => line.node === 'review' && line.key === 'ana-pp');
    assert.deepEqual(review?.fields, { from: 'ana', book: '9780141439518', rating: 5, body: 'Sharper than I remembered.', audience: 'everyone' });
    assert.ok(lines.some((line) => line.edge === 'member.following' && line.from === 'ben' && line.to === 'ana'));
  });
});
