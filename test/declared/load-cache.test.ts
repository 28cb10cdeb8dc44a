/**
 * A loaded declaration kept as JSON serves the next process only while every file it was read
 * from is unchanged; a changed include, a broken cache or one that cannot be written all fall back
 * to reading the files, and lines are still found for problems reported later.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { loadDeclaration } from '../../src/declared/load.js';
import { loadDeclarationCached } from '../../src/declared/load-cache.js';
import { GRAPH_DECLARATION } from '../../src/graph/graph-schema.js';

/** A copy of the shipped Graph declaration's files and a cache path beside them; returns the copy's main file. */
function copyOfGraph(): { main: string; cache: string } {
  const shipped = fileURLToPath(GRAPH_DECLARATION);
  const dir = mkdtempSync(join(tmpdir(), 'loom-load-cache-'));
  for (const name of readdirSync(dirname(shipped)).filter((entry) => entry.endsWith('.yaml'))) cpSync(join(dirname(shipped), name), join(dir, name));
  return { main: join(dir, 'graph-v2.4.loom.yaml'), cache: join(dir, 'cache', 'declaration.json') };
}

function placetopicName(declaration: { types?: Record<string, { fields?: Record<string, { description?: string }> }> }): string | undefined {
  return declaration.types?.placetopic?.fields?.name?.description;
}

describe('a cached declaration', () => {
  it('is written on first load and read, not the files, while they are unchanged', () => {
    const { main } = copyOfGraph();
    const cache = join(dirname(main), 'declaration.json');
    const first = loadDeclarationCached(main, cache);
    assert.deepEqual(first.declaration, loadDeclaration(main).declaration);
    assert.ok(existsSync(cache));
    // What the cache gives is what the files give, value for value.
    assert.deepStrictEqual(loadDeclarationCached(main, cache).declaration, loadDeclaration(main).declaration);
    // The record is what the next load returns: edited in place (its key untouched), the edit shows.
    const record = JSON.parse(readFileSync(cache, 'utf8')) as { declaration: { types: { placetopic: { fields: { name: { description: string } } } } } };
    record.declaration.types.placetopic.fields.name.description = 'From the cache.';
    writeFileSync(cache, JSON.stringify(record));
    const second = loadDeclarationCached(main, cache);
    assert.equal(placetopicName(second.declaration), 'From the cache.');
    assert.deepEqual(second.sources, first.sources);
    assert.equal(second.sources.length, readdirSync(dirname(main)).filter((name) => name.endsWith('.yaml')).length);
  });

  it('is read again from the files when an included file changes, and refreshed', () => {
    const { main } = copyOfGraph();
    const cache = join(dirname(main), 'declaration.json');
    loadDeclarationCached(main, cache);
    const placetopic = join(dirname(main), 'placetopic.loom.yaml');
    writeFileSync(placetopic, readFileSync(placetopic, 'utf8').replace('The name of the topic, such as Coffee Shop.', 'Changed.'));
    assert.equal(placetopicName(loadDeclarationCached(main, cache).declaration), 'Changed.');
    assert.equal(placetopicName((JSON.parse(readFileSync(cache, 'utf8')) as { declaration: object }).declaration), 'Changed.');
  });

  it('falls back to the files when the cache is broken or cannot be written', () => {
    const { main, cache } = copyOfGraph();
    // `cache` lies in a folder that does not exist: nothing is written, the files still load.
    assert.deepEqual(loadDeclarationCached(main, cache).declaration, loadDeclaration(main).declaration);
    assert.equal(existsSync(cache), false);
    const broken = join(dirname(main), 'broken.json');
    writeFileSync(broken, '{"files": ["graph-v2.4.loom.yaml"], "hash": "0", "declaration": {}}');
    assert.deepEqual(loadDeclarationCached(main, broken).declaration, loadDeclaration(main).declaration);
    writeFileSync(broken, 'not json');
    assert.deepEqual(loadDeclarationCached(main, broken).declaration, loadDeclaration(main).declaration);
  });

  it('still locates a key in its file and line', () => {
    const { main } = copyOfGraph();
    const cache = join(dirname(main), 'declaration.json');
    loadDeclarationCached(main, cache);
    const cached = loadDeclarationCached(main, cache);
    const key = 'types.placetopic.fields.name';
    const where = cached.locate(key);
    assert.deepEqual(where, loadDeclaration(main).locate(key));
    assert.equal(where.file, join(dirname(main), 'placetopic.loom.yaml'));
    assert.ok(where.line > 1);
  });
});
