/**
 * Importing own data by the team's keys, on the store the run selects: the book club's file
 * loads with derived lists and counts kept, a second import updates in place, and a bad line is
 * named with its number while nothing of its batch is written.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { exportDataLines } from '../../src/declared/data/export.js';
import { importData, type ImportOptions } from '../../src/declared/data/import.js';
import { DataLineError } from '../../src/declared/data/lines.js';
import { planData, type DataPlan } from '../../src/declared/data/plan.js';
import { csvEdgeLines, csvNodeLines, ndjsonLines } from '../../src/declared/data/read.js';
import { loadDeclaration } from '../../src/declared/load.js';
import type { CodeModule } from '../../src/declared/model.js';
import type { Store } from '../../src/store/store.js';
import { openScratchStore, selectRows } from '../helpers/test-store.js';

const example = fileURLToPath(new URL('../../../examples/bookclub/', import.meta.url));
const options: ImportOptions = { now: 1_750_000_000 };
const directory = mkdtempSync(join(tmpdir(), 'loom-data-'));

async function bookclubPlan(): Promise<DataPlan> {
  const { declaration } = loadDeclaration(join(example, 'bookclub.loom.yaml'));
  const code = ((await import(join(example, 'bookclub.code.js'))) as { default: CodeModule }).default;
  return planData(declaration, { types: {}, fields: {}, edges: {} }, code);
}

function file(name: string, lines: readonly unknown[]): string {
  const path = join(directory, name);
  writeFileSync(path, lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n');
  return path;
}

async function idOf(store: Store, type: string, key: string): Promise<number> {
  const id = (await store.findDeclaredIds(type, [key])).get(key);
  assert.ok(id !== undefined, `${type} ${key} has an id`);
  return id;
}

async function countOf(store: Store, assoc: string, id: number): Promise<number> {
  return (await store.getCounts(assoc, [id])).get(id)!;
}

describe('own data import', () => {
  let store: Store;
  let plan: DataPlan;
  before(async () => {
    store = await openScratchStore();
    plan = await bookclubPlan();
  });
  after(async () => store.close());

  it('loads the book club keyed by handles and ISBNs, with derived lists and counts kept by Loom', async () => {
    const summary = await importData(store, plan, ndjsonLines(join(example, 'data.ndjson'), plan), options);
    assert.deepEqual(summary, { created: 53, updated: 0, edges: 36, derivedEdges: 0, logins: 12 });
    const ana = await idOf(store, 'member', 'ana');
    const ben = await idOf(store, 'member', 'ben');
    const review = await idOf(store, 'review', 'ana-pp');
    const book = await idOf(store, 'book', '9780141439518');
    const objects = await store.getObjects([ana, review]);
    assert.equal(objects.get(ana)!.data.name, 'Ana Souza');
    assert.equal(objects.get(ana)!.createdTime, Date.parse('2024-01-05T10:00:00Z') / 1000);
    // A review's author is its owner; its book a ref holding the book's internal id.
    assert.equal(objects.get(review)!.owner, ana);
    assert.equal(objects.get(review)!.data.book, book);
    // backed_by lists: the book's reviews and the member's reviews come from the review lines.
    assert.equal(await countOf(store, 'book.reviews', book), 3);
    assert.equal(await countOf(store, 'member.reviews', ana), 4);
    assert.equal(await countOf(store, 'review.comments', review), 3);
    // inverse: a following line writes the followers list too.
    assert.equal(await countOf(store, 'member.followers', ana), 4);
    assert.equal(await countOf(store, 'member.following', ben), 2);
    assert.ok((await store.getExisting('member.followers', [[ana, ben]])).has(`${ana}:${ben}`));
    assert.equal(await countOf(store, 'review.likes', review), 4);
    const credentials = await store.findCredentialsByEmail('ana@bookclub.test');
    assert.equal(credentials?.userId, ana);
  });

  it('updates a node imported before in place, merging fields, and replaces them with --replace', async () => {
    const ana = await idOf(store, 'member', 'ana');
    const before = await selectRows<{ n: number }>(store, 'SELECT count(*) AS n FROM objects');
    const merge = file('merge.ndjson', [{ node: 'member', key: 'ana', fields: { name: 'Ana S. Souza' } }]);
    assert.deepEqual(await importData(store, plan, ndjsonLines(merge, plan), options), { created: 0, updated: 1, edges: 0, derivedEdges: 0, logins: 0 });
    let data = (await store.getObjects([ana])).get(ana)!.data;
    assert.equal(data.name, 'Ana S. Souza');
    assert.equal(data.bio, 'Reads on trains.');
    const replace = file('replace.ndjson', [{ node: 'member', key: 'ana', fields: { name: 'Ana' } }]);
    await importData(store, plan, ndjsonLines(replace, plan), { ...options, replace: true });
    data = (await store.getObjects([ana])).get(ana)!.data;
    assert.deepEqual(data, { handle: 'ana', name: 'Ana' });
    const afterwards = await selectRows<{ n: number }>(store, 'SELECT count(*) AS n FROM objects');
    assert.equal(Number(afterwards[0]!.n), Number(before[0]!.n));
    // Importing the whole file again duplicates nothing and leaves counts as they were.
    await importData(store, plan, ndjsonLines(join(example, 'data.ndjson'), plan), options);
    assert.equal(Number((await selectRows<{ n: number }>(store, 'SELECT count(*) AS n FROM objects'))[0]!.n), Number(before[0]!.n));
    assert.equal(await countOf(store, 'member.followers', ana), 4);
    assert.equal((await store.getObjects([ana])).get(ana)!.data.name, 'Ana Souza');
  });

  it('applies two lines for one node in one file in order', async () => {
    const ben = await idOf(store, 'member', 'ben');
    const twice = file('twice.ndjson', [
      { node: 'member', key: 'ben', fields: { name: 'Benedict Okafor' } },
      { node: 'member', key: 'ben', fields: { bio: 'Reads the footnotes.' } },
    ]);
    assert.equal((await importData(store, plan, ndjsonLines(twice, plan), options)).updated, 2);
    const data = (await store.getObjects([ben])).get(ben)!.data;
    assert.deepEqual([data.name, data.bio], ['Benedict Okafor', 'Reads the footnotes.']);
  });

  it('moves a review between books when its book changes on re-import', async () => {
    const review = await idOf(store, 'review', 'ben-sg');
    const gene = await idOf(store, 'book', '9780198788607');
    const time = await idOf(store, 'book', '9780553380163');
    const moved = file('move.ndjson', [{ node: 'review', key: 'ben-sg', fields: { book: '9780553380163' } }]);
    await importData(store, plan, ndjsonLines(moved, plan), options);
    assert.equal(await countOf(store, 'book.reviews', gene), 1);
    assert.equal(await countOf(store, 'book.reviews', time), 3);
    assert.ok((await store.getExisting('book.reviews', [[time, review]])).has(`${time}:${review}`));
  });

  it('names a bad line with its number and writes nothing of its batch', async () => {
    const lines = [
      { format: 'loom-data', version: 1, schema: 'bookclub', schema_version: 3 },
      { node: 'member', key: 'zoe', fields: { name: 'Zoe' } },
      { node: 'member', key: 'yann', fields: { name: 'Yann' } },
      { edge: 'member.following', from: 'zoe', to: 'ana' },
      { node: 'review', key: 'zoe-pp', fields: { from: 'zoe', book: '9780141439518', rating: 1 } },
    ];
    const bad = file('bad.ndjson', lines);
    await assert.rejects(importData(store, plan, ndjsonLines(bad, plan), options), (error: unknown) => {
      assert.ok(error instanceof DataLineError);
      assert.equal(error.line, 5);
      assert.match(error.message, /bad\.ndjson line 5: A rating of 1 or 2 needs a few words\./);
      return true;
    });
    assert.equal((await store.findDeclaredIds('member', ['zoe', 'yann'])).size, 0);
    // A value out of its declared range is named with the field and the limit.
    const range = file('range.ndjson', [{ node: 'review', key: 'ana-x', fields: { from: 'ana', book: '9780141439518', rating: 6 } }]);
    await assert.rejects(importData(store, plan, ndjsonLines(range, plan), options), /range\.ndjson line 1: The parameter rating must be at most 5/);
    const unknown = file('unknown.ndjson', [{ node: 'comment', key: 'c99', fields: { from: 'ana', review: 'no-such-review', message: 'Hi' } }]);
    await assert.rejects(importData(store, plan, ndjsonLines(unknown, plan), options), /unknown\.ndjson line 1: no line defines the review "no-such-review"/);
  });

  it('waits with a line naming a key defined further down, and reads CSV files per type and edge', async () => {
    const later = file('later.ndjson', [
      { edge: 'member.following', from: 'mia', to: 'ana', time: '2024-08-01T00:00:00Z' },
      { node: 'member', key: 'mia', created_time: 1_720_000_000, fields: { name: 'Mia' } },
    ]);
    assert.equal((await importData(store, plan, ndjsonLines(later, plan), options)).edges, 1);
    const mia = await idOf(store, 'member', 'mia');
    const books = file('books.csv', [
      'key,title,authors,genres,details,published',
      '9780000000001,"Poems, Old and New",A. Poet;B. Poet,poetry,"{""pages"":80}",2001-02-03',
    ]);
    const follows = file('follows.csv', ['from,to,time', 'mia,ben,2024-08-02T00:00:00Z']);
    const lines = async function* () {
      yield* csvNodeLines(books, plan.types.get('book')!);
      yield* csvEdgeLines(follows, 'member.following');
    };
    await importData(store, plan, lines(), options);
    const book = await idOf(store, 'book', '9780000000001');
    assert.deepEqual((await store.getObjects([book])).get(book)!.data, {
      isbn: '9780000000001',
      title: 'Poems, Old and New',
      authors: ['A. Poet', 'B. Poet'],
      genres: ['poetry'],
      details: { pages: 80 },
      published: '2001-02-03',
    });
    assert.equal(await countOf(store, 'member.following', mia), 2);
  });

  it('exports the data in the import format, which loads into a fresh database as the same data', async () => {
    const collect = async (from: Store) => {
      const lines: string[] = [];
      for await (const line of exportDataLines(from, plan)) lines.push(line);
      return lines;
    };
    const first = await collect(store);
    assert.deepEqual(JSON.parse(first[0]!), { format: 'loom-data', version: 1, schema: 'bookclub', schema_version: 3 });
    assert.deepEqual(JSON.parse(first.at(-1)!), { end: true, lines: first.length });
    const ana = first.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line.node === 'member' && line.key === 'ana');
    assert.deepEqual(ana, { node: 'member', key: 'ana', created_time: '2024-01-05T10:00:00Z', fields: { handle: 'ana', name: 'Ana Souza', bio: 'Reads on trains.', favourite_genre: 'history' } });
    const edges = first.filter((line) => line.includes('"edge"'));
    // Followers come from the following lines, book reviews from the reviews: neither is written.
    assert.ok(edges.every((line) => /"edge":"(member\.following|review\.likes)"/.test(line)));
    const copy = await openScratchStore();
    try {
      await importData(copy, plan, ndjsonLines(file('export.ndjson', first.map((line) => line.trimEnd())), plan), options);
      assert.deepEqual((await collect(copy)).sort(), [...first].sort());
    } finally {
      await copy.close();
    }
  });
});
