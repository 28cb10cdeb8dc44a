import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppScopedIds } from '../../../src/auth/app-scoped-ids.js';
import { GraphError } from '../../../src/errors.js';
import { CursorCodec } from '../../../src/engine/request/cursors.js';

const KEY = '00112233445566778899aabbccddeeff';

describe('cursors', () => {
  const codec = () => new CursorCodec(KEY, new AppScopedIds(KEY, 3));

  it('write the same text for a position each time, and read back to it on their own edge only', () => {
    const position = { time: 1_700_000_000, id2: 4242 };
    const cursor = codec().encode('likes', position);
    assert.equal(codec().encode('likes', position), cursor);
    assert.deepEqual(codec().decode('likes', cursor), position);
    assert.notEqual(codec().encode('comments', position), cursor);
    assert.throws(() => codec().decode('comments', cursor), (error: unknown) => error instanceof GraphError && error.code === 100);
    // Another app (another key) writes another cursor for the same position, and refuses this one.
    const other = new CursorCodec('ffeeddccbbaa99887766554433221100', new AppScopedIds(KEY, 3));
    assert.notEqual(other.encode('likes', position), cursor);
    assert.throws(() => other.decode('likes', cursor), GraphError);
  });

  it('still write and read the same cursors after more were written than are remembered', () => {
    const first = codec();
    const early = { time: 1_600_000_000, id2: 7 };
    const cursor = first.encode('friends', early);
    // Past the 20,000 remembered, all are forgotten; the codec in use goes on writing the same texts.
    for (let index = 0; index < 20_100; index++) first.encode('friends', { time: 1_600_000_000 + index, id2: 1000 + (index % 50) });
    assert.equal(first.encode('friends', early), cursor);
    assert.equal(codec().encode('friends', early), cursor);
    assert.deepEqual(codec().decode('friends', cursor), early);
  });
});
