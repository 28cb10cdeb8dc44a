import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { claimMediaFolder, MediaFolderError, OWNER_FILE } from '../../src/media/media-owner.js';

const directory = mkdtempSync(join(tmpdir(), 'loom-media-owner-'));
after(() => rmSync(directory, { recursive: true, force: true }));

let made = 0;
/** A new folder path (not yet on disk) and two database files beside it. */
function place(): { folder: string; a: string; b: string } {
  const here = join(directory, `case-${++made}`);
  mkdirSync(here);
  const [a, b] = [join(here, 'a.db'), join(here, 'b.db')];
  writeFileSync(a, 'a');
  writeFileSync(b, 'b');
  return { folder: join(here, 'media'), a, b };
}

const refusal = async (work: Promise<unknown>): Promise<string> => {
  const error = await work.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  assert.ok(error instanceof MediaFolderError, `refused: ${String(error)}`);
  return error.message;
};

describe('the owner of a media folder', () => {
  it('is the first database to claim it, which may claim it again', async () => {
    const { folder, a } = place();
    const owner = await claimMediaFolder(folder, { id: 'a1', name: a });
    assert.deepEqual({ ...owner, claimedAt: 0 }, { databaseId: 'a1', database: a, claimedAt: 0, adopted: false });
    assert.equal(statSync(join(folder, OWNER_FILE)).mode & 0o777, 0o600);
    assert.equal(statSync(folder).mode & 0o777, 0o700);
    assert.deepEqual(await claimMediaFolder(folder, { id: 'a1', name: a }), owner);
  });

  it('refuses any other database, naming both', async () => {
    const { folder, a, b } = place();
    await claimMediaFolder(folder, { id: 'a1', name: a });
    const message = await refusal(claimMediaFolder(folder, { id: 'b2', name: b }));
    assert.equal(message, `The media folder ${folder} belongs to ${a} (database id a1); ${b} (database id b2) cannot keep its media there`);
  });

  it('refuses a new database made where its owner was, saying what to remove if that one is gone', async () => {
    const { folder, a } = place();
    await claimMediaFolder(folder, { id: 'a1', name: a });
    const message = await refusal(claimMediaFolder(folder, { id: 'a2', name: a }));
    assert.match(message, /belongs to an earlier database at .*a\.db \(database id a1\), not to the one there now \(database id a2\)/);
    assert.match(message, /If that earlier database is gone for good, remove the folder/);
  });

  it('refuses a copy of its database file, and follows the database when it is moved', async () => {
    const { folder, a, b } = place();
    await claimMediaFolder(folder, { id: 'a1', name: a });
    copyFileSync(a, b);
    assert.match(await refusal(claimMediaFolder(folder, { id: 'a1', name: b })), /has the same database id: it is a copy/);
    rmSync(b);
    renameSync(a, b);
    assert.equal((await claimMediaFolder(folder, { id: 'a1', name: b })).database, b);
    assert.equal((JSON.parse(readFileSync(join(folder, OWNER_FILE), 'utf8')) as { database: string }).database, b);
  });

  it('adopts a folder that holds files without an owner, and refuses one whose owner file it cannot read', async () => {
    const { folder, a } = place();
    mkdirSync(join(folder, 'photos'), { recursive: true });
    assert.equal((await claimMediaFolder(folder, { id: 'a1', name: a })).adopted, true);
    writeFileSync(join(folder, OWNER_FILE), 'not json');
    assert.match(await refusal(claimMediaFolder(folder, { id: 'a1', name: a })), /has an owner file that Loom cannot read/);
  });

  it('goes to one database of two that claim a new folder at once', async () => {
    const { folder, a, b } = place();
    const outcomes = await Promise.allSettled([claimMediaFolder(folder, { id: 'a1', name: a }), claimMediaFolder(folder, { id: 'b2', name: b })]);
    assert.deepEqual(outcomes.map((outcome) => outcome.status).sort(), ['fulfilled', 'rejected']);
  });
});
