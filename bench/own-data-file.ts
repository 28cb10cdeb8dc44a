/**
 * Writes a book-club import file of a given size (nodes and edges together), for measuring
 * `loom import --data`: members, books and reviews (each review a node plus the two lists Loom
 * derives from it), then follows and likes. Deterministic, so two runs measure the same file.
 *
 *   node dist/bench/own-data-file.js 1000000 > club-1m.ndjson
 *   bin/loom schema apply examples/bookclub/bookclub.loom.yaml --db club.db
 *   /usr/bin/time -v bin/loom import --data club-1m.ndjson --db club.db
 */
import { once } from 'node:events';

const total = Number(process.argv[2] ?? 1_000_000);
if (!Number.isSafeInteger(total) || total < 100) {
  process.stderr.write('Usage: node dist/bench/own-data-file.js LINES (at least 100) > FILE.ndjson\n');
  process.exit(2);
}

// Shares of the lines: a tenth members, a twentieth books, reviews, follows and likes the rest.
const members = Math.floor(total * 0.1);
const books = Math.floor(total * 0.05);
const reviews = Math.floor(total * 0.35);
const follows = Math.floor(total * 0.3);
const likes = total - members - books - reviews - follows;

/** A small deterministic generator (mulberry32), so the file is the same on every run. */
let seed = 20;
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (n: number) => Math.floor(random() * n);
const genres = ['fiction', 'history', 'science', 'poetry'];
const start = Date.parse('2020-01-01T00:00:00Z') / 1000;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
const isbn = (n: number) => String(9780000000000 + n);

let buffer = '';
let lines = 0;
async function line(value: unknown): Promise<void> {
  buffer += `${JSON.stringify(value)}\n`;
  lines += 1;
  if (buffer.length > 1 << 20) {
    if (!process.stdout.write(buffer)) await once(process.stdout, 'drain');
    buffer = '';
  }
}

await line({ format: 'loom-data', version: 1, schema: 'bookclub', schema_version: 3 });
for (let i = 0; i < members; i += 1) {
  await line({ node: 'member', key: `member_${i}`, created_time: iso(start + i * 60), fields: { handle: `member_${i}`, name: `Member ${i}`, favourite_genre: genres[i % 4] } });
}
for (let i = 0; i < books; i += 1) {
  await line({ node: 'book', key: isbn(i), fields: { isbn: isbn(i), title: `Book ${i}`, authors: [`Author ${i % 997}`], published: '1999-12-31', genres: [genres[i % 4]], details: { pages: 100 + (i % 400) } } });
}
for (let i = 0; i < reviews; i += 1) {
  const rating = 1 + pick(5);
  const fields: Record<string, unknown> = { from: `member_${pick(members)}`, book: isbn(pick(books)), rating, audience: ['everyone', 'followers', 'self'][i % 3] };
  if (rating <= 2 || i % 2 === 0) fields.body = `Review ${i}: ${rating <= 2 ? 'not for me' : 'worth reading'}.`;
  await line({ node: 'review', key: `r${i}`, created_time: iso(start + 86_400 + i * 30), fields });
}
for (let i = 0; i < follows; i += 1) {
  const from = pick(members);
  await line({ edge: 'member.following', from: `member_${from}`, to: `member_${(from + 1 + pick(members - 1)) % members}`, time: iso(start + 2 * 86_400 + i * 10) });
}
for (let i = 0; i < likes; i += 1) {
  await line({ edge: 'review.likes', from: `r${pick(reviews)}`, to: `member_${pick(members)}`, time: iso(start + 3 * 86_400 + i * 10) });
}
await line({ end: true, lines: lines + 1 });
process.stdout.write(buffer);
