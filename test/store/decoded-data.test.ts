import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Store } from '../../src/store/store.js';
import { openLocation, scratchLocation, testStoreKind } from '../helpers/test-store.js';

/**
 * Each store keeps the decoded data of objects it read lately, beside the text it came from. These
 * tests change an object behind a store's back (through a second store on the same database, as
 * another process would) and expect the next read to show the change, never the decoded copy.
 */
describe(`decoded object data is never served stale (${testStoreKind})`, () => {
  let reader: Store;
  let writer: Store;
  before(async () => {
    const location = scratchLocation();
    reader = await openLocation(location);
    writer = await openLocation(location);
  });
  after(async () => {
    await reader.close();
    await writer.close();
  });

  const create = async (data: Record<string, unknown>) =>
    (await writer.write([{ op: 'createObject', object: { type: 'user', owner: null, createdTime: 1, data } }])).results[0] as number;
  const nameOf = async (id: number) => (await reader.getObjects([id])).get(id)?.data.name;

  it('reads the data another store wrote since, by getObjects and by a page with its objects', async () => {
    const id = await create({ name: 'Before' });
    const owner = await create({ name: 'Owner' });
    await writer.write([{ op: 'addAssoc', type: 'friends', id1: owner, id2: id, time: 5 }]);
    for (let i = 0; i < 3; i++) assert.equal(await nameOf(id), 'Before');
    await writer.write([{ op: 'updateObject', id, data: { name: 'After' }, updatedTime: 2 }]);
    assert.equal(await nameOf(id), 'After');
    const { objects } = await reader.getPagesWithObjects({ id1s: [owner], type: 'friends', limit: 5 });
    assert.equal(objects.get(id)?.data.name, 'After');
    await writer.write([{ op: 'updateObject', id, data: { name: 'Again' }, updatedTime: 3 }]);
    const page = await reader.getPagesWithObjects({ id1s: [owner], type: 'friends', limit: 5 });
    assert.equal(page.objects.get(id)?.data.name, 'Again');
  });

  it('hands out data that cannot be changed in place, so no read can alter what the next one gets', async () => {
    const id = await create({ name: 'Frozen', work: [{ employer: 'Loom' }] });
    const first = (await reader.getObjects([id])).get(id)!;
    const second = (await reader.getObjects([id])).get(id)!;
    assert.throws(() => {
      first.data.name = 'Changed';
    }, TypeError);
    assert.throws(() => {
      (first.data.work as Array<{ employer: string }>)[0]!.employer = 'Changed';
    }, TypeError);
    assert.deepEqual(second.data, { name: 'Frozen', work: [{ employer: 'Loom' }] });
  });

  it('gives a long profile, decoded as it is read, as the object that was written', async () => {
    // Long enough to be decoded member by member; awkward keys, escapes and nesting on purpose.
    const data = {
      name: 'Lazy "Quoted" Name',
      'key with \\ and "': 'a } in a string ] and \\',
      education: [{ school: { id: '1', name: 'Eastgate {Grammar}' }, year: 2012 }],
      about: 'x'.repeat(300),
      timezone: -8,
      verified: true,
      cover: null,
    };
    const id = await create(data);
    const read = (await reader.getObjects([id])).get(id)!.data;
    assert.equal(read.name, 'Lazy "Quoted" Name');
    assert.deepEqual(Object.keys(read), Object.keys(data));
    assert.deepEqual(read, data);
    assert.deepEqual({ ...read }, data);
    assert.equal(JSON.stringify(read), JSON.stringify(data));
    assert.ok('timezone' in read && !('missing' in read));
    assert.equal((read as Record<string, unknown>).missing, undefined);
    assert.throws(() => {
      read.name = 'Changed';
    }, TypeError);
    assert.throws(() => {
      (read.education as Array<{ year: number }>)[0]!.year = 1;
    }, TypeError);
  });
});
