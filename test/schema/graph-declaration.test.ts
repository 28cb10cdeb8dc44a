/**
 * The built-in types and permissions come from their declaration: the Schema every server uses is
 * what compiling the shipped files gives, and a copy of them with a broken name is refused at
 * start, naming the file, the line and the key.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { DeclarationError } from '../../src/declared/load.js';
import { compileGraphDeclaration, GRAPH_DECLARATION, graphSchema } from '../../src/graph/graph-schema.js';

const shipped = fileURLToPath(GRAPH_DECLARATION);

/** A copy of the shipped declaration's files, with `edit` applied to one of them; returns the main file of the copy. */
function copyWith(file: string, edit: (text: string) => string): { main: string; edited: string } {
  const dir = mkdtempSync(join(tmpdir(), 'loom-graph-'));
  for (const name of readdirSync(dirname(shipped)).filter((entry) => entry.endsWith('.yaml'))) cpSync(join(dirname(shipped), name), join(dir, name));
  const edited = join(dir, file);
  const before = readFileSync(edited, 'utf8');
  const after = edit(before);
  assert.notEqual(after, before, 'the edit changed the copy');
  writeFileSync(edited, after);
  return { main: join(dir, 'graph-v2.4.loom.yaml'), edited };
}

/** The 1-based line of the first line of `file` holding `text`. */
function lineOf(file: string, text: string): number {
  return readFileSync(file, 'utf8').split('\n').findIndex((line) => line.includes(text)) + 1;
}

function refusal(main: string): DeclarationError {
  try {
    compileGraphDeclaration(main);
  } catch (error) {
    assert.ok(error instanceof DeclarationError, String(error));
    return error;
  }
  assert.fail('the copy was accepted');
}

describe('the built-in Graph declaration', () => {
  it('is what the default schema serves, compiled once', () => {
    assert.equal(graphSchema(), graphSchema());
    const compiled = compileGraphDeclaration(shipped);
    assert.deepStrictEqual(graphSchema().types, compiled.types);
    assert.deepStrictEqual(graphSchema().permissions, compiled.permissions);
    assert.deepEqual(graphSchema().types.map((type) => type.name), [
      'user', 'post', 'comment', 'photo', 'album', 'page', 'application', 'video', 'event', 'group', 'friendlist', 'placetopic',
    ]);
  });

  it('follows its file: a description changed in a copy is what the copy compiles to', () => {
    const { main } = copyWith('placetopic.loom.yaml', (text) => text.replace('The name of the topic, such as Coffee Shop.', 'Changed.'));
    const placetopic = compileGraphDeclaration(main).types.find((type) => type.name === 'placetopic')!;
    assert.equal(placetopic.fields.find((field) => field.name === 'name')!.description, 'Changed.');
  });

  it('refuses a computed field the code module lacks, naming file, line and key', () => {
    const { main, edited } = copyWith('user.loom.yaml', (text) => text.replace('computed: ageRange', 'computed: ageBracket'));
    assert.deepEqual(refusal(main).problems, [{
      file: edited,
      line: lineOf(edited, 'computed: ageBracket'),
      key: 'types.user.fields.age_range.computed',
      message: 'the code module has no computed field "ageBracket"',
    }]);
  });

  it('refuses a name of the wrong kind: a computed field given as a POST behaviour', () => {
    const { main, edited } = copyWith('post.loom.yaml', (text) => text.replace('write: {behavior: commentOnObject}', 'write: {behavior: isHidden}'));
    const [problem] = refusal(main).problems;
    assert.deepEqual(problem, {
      file: edited,
      line: lineOf(edited, 'behavior: isHidden'),
      key: 'types.post.edges.comments.write.behavior',
      message: '"isHidden" is a computed field of the code module, not a POST behaviour',
    });
  });

  it('refuses an unknown edge behaviour, visibility or version rule', () => {
    const { main, edited } = copyWith('photo.loom.yaml', (text) => text.replace('read: {behavior: postPrivacy}', 'read: {behavior: everyone}'));
    assert.deepEqual(refusal(main).problems.map(({ file, key, message }) => ({ file, key, message })), [
      { file: edited, key: 'types.photo.read.behavior', message: 'the code module has no visibility "everyone"' },
    ]);
    const picture = copyWith('user.loom.yaml', (text) => text.replace('behavior: picture', 'behavior: portrait'));
    assert.match(refusal(picture.main).message, /user\.loom\.yaml:\d+: types\.user\.edges\.picture\.behavior: the code module has no edge behaviour "portrait"/);
    const rule = copyWith('user.loom.yaml', (text) => text.replace('versions: user-statuses-links', 'versions: statuses-forever'));
    assert.match(refusal(rule.main).message, /types\.user\.edges\.statuses\.versions: "statuses-forever" is not a rule of the version table/);
    const cover = copyWith('album.loom.yaml', (text) => text.replace('id_while: cover-photo-id', 'id_while: cover-photo-forever'));
    assert.match(refusal(cover.main).message, /types\.album\.fields\.cover_photo\.source\.ref\.id_while: "cover-photo-forever" is not a rule of the version table/);
    const privacy = copyWith('event.loom.yaml', (text) => text.replace('versions: {privacy: event-privacy-default}', 'versions: {privacy: privacy-forever, cover_id: event-privacy-default}'));
    assert.deepEqual(refusal(privacy.main).problems.map(({ key, message }) => ({ key, message })), [
      { key: 'types.event.full_default_fields.versions.privacy', message: '"privacy-forever" is not a rule of the version table' },
      { key: 'types.event.full_default_fields.versions.cover_id', message: '"cover_id" is not one of the default names' },
    ]);
  });

  it('takes its permission catalogue from permissions.loom.yaml', () => {
    const { permissions } = graphSchema();
    assert.equal(permissions.alwaysGranted, 'public_profile');
    assert.deepEqual(permissions.get('read_stream'), {
      name: 'read_stream',
      description: 'The news feed; user_posts took its place.',
      group: 'Retired',
      versions: { until: 'v2.4' },
      reads: 'user_posts',
    });
    assert.equal(permissions.actingScope('page', 'publish_actions'), 'publish_pages');
    assert.equal(permissions.actingScope('user', 'publish_actions'), 'publish_actions');
    const { main } = copyWith('permissions.loom.yaml', (text) => text.replace('Date of birth.', 'The day the person was born.'));
    assert.equal(compileGraphDeclaration(main).permissions.get('user_birthday')?.description, 'The day the person was born.');
  });

  it('refuses a permission a type names that the catalogue lacks, and a bad entry of the catalogue', () => {
    const { main, edited } = copyWith('permissions.loom.yaml', (text) => text.replace('  user_birthday: {', '  user_birthdate: {'));
    const user = join(dirname(edited), 'user.loom.yaml');
    assert.deepEqual(refusal(main).problems.map(({ file, key, message }) => ({ file, key, message })), [
      { file: user, key: 'types.user.fields.birthday.scope', message: '"user_birthday" is not one of the declared permissions' },
    ]);
    const reads = copyWith('permissions.loom.yaml', (text) => text.replace('reads: user_posts,', 'reads: user_postings,'));
    assert.deepEqual(refusal(reads.main).problems, [{
      file: reads.edited,
      line: lineOf(reads.edited, 'reads: user_postings'),
      key: 'permissions.read_stream.reads',
      message: '"user_postings" is not another declared permission',
    }]);
    const version = copyWith('permissions.loom.yaml', (text) => text.replace('group: Retired, until: v2.0,', 'group: Retired, until: v1.9,'));
    assert.match(refusal(version.main).message, /permissions\.loom\.yaml:\d+: permissions\.user_checkins\.until: "v1\.9" is not a published API version/);
  });

  it('refuses a declaration naming another code module', () => {
    const { main } = copyWith('graph-v2.4.loom.yaml', (text) => text.replace('code: ./code.ts', 'code: ./other.ts'));
    assert.match(refusal(main).message, /graph-v2\.4\.loom\.yaml:\d+: code: the built-in declaration is `data: graph` with `code: \.\/code\.ts`/);
  });
});
