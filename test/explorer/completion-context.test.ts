import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { completionContext } from '../../web/explorer/src/completion-context.js';

/** The context at the end of `text`, or at the `|` in it. */
function at(text: string) {
  const caret = text.indexOf('|');
  return caret === -1 ? completionContext(text, text.length) : completionContext(text.replace('|', ''), caret);
}

describe('where the caret of the path box stands, for completion', () => {
  it('on the node, then on an edge of the path, with or without a version', () => {
    assert.deepEqual(at('m'), { kind: 'node', from: 0, to: 1, prefix: 'm' });
    assert.deepEqual(at('me/fri'), { kind: 'edge', node: 'me', from: 3, to: 6, prefix: 'fri' });
    assert.deepEqual(at('/v2.4/me/'), { kind: 'edge', node: 'me', from: 9, to: 9, prefix: '' });
    assert.equal(at('me/friends/x'), undefined);
  });

  it('on a parameter name after ? or &', () => {
    assert.deepEqual(at('me?fi'), { kind: 'param', from: 3, to: 5, prefix: 'fi' });
    assert.deepEqual(at('me/feed?limit=2&'), { kind: 'param', from: 16, to: 16, prefix: '' });
    assert.equal(at('me?limit=2'), undefined, 'no suggestions for other parameters\' values');
  });

  it('on a field of the node, or of the edge the path names', () => {
    assert.deepEqual(at('me?fields=id,na'), { kind: 'field', node: 'me', edges: [], from: 13, to: 15, prefix: 'na' });
    assert.deepEqual(at('me/friends?fields='), { kind: 'field', node: 'me', edges: ['friends'], from: 18, to: 18, prefix: '' });
    assert.deepEqual(at('me?limit=1&fields=id,'), { kind: 'field', node: 'me', edges: [], from: 21, to: 21, prefix: '' });
  });

  it('inside braces and inside .fields(, at any depth', () => {
    assert.deepEqual(at('me?fields=friends{na'), { kind: 'field', node: 'me', edges: ['friends'], from: 18, to: 20, prefix: 'na' });
    assert.deepEqual(at('me?fields=friends.fields(na'), { kind: 'field', node: 'me', edges: ['friends'], from: 25, to: 27, prefix: 'na' });
    assert.deepEqual(at('me?fields=feed.limit(2){likes.fields(id),comments{from{'), {
      kind: 'field', node: 'me', edges: ['feed', 'comments', 'from'], from: 55, to: 55, prefix: '',
    });
    assert.deepEqual(at('me?fields=friends{name},ph'), { kind: 'field', node: 'me', edges: [], from: 24, to: 26, prefix: 'ph' });
    assert.deepEqual(at('me?fields=friends.fields(name).limit(2),ph'), { kind: 'field', node: 'me', edges: [], from: 40, to: 42, prefix: 'ph' });
  });

  it('on a modifier after a dot, also after another modifier, offering the dotted name too', () => {
    const afterDot = at('me?fields=likes.li');
    assert.equal(afterDot?.kind, 'modifier');
    assert.deepEqual(afterDot, {
      kind: 'modifier', node: 'me', edges: [], owner: 'likes', from: 16, to: 18, prefix: 'li',
      dotted: { from: 10, to: 18, prefix: 'likes.li' },
    });
    assert.deepEqual(at('me?fields=friends.limit(2).'), { kind: 'modifier', node: 'me', edges: [], owner: 'friends', from: 27, to: 27, prefix: '' });
  });

  it('replaces the whole word the caret is in', () => {
    assert.deepEqual(at('me?fields=na|me,id'), { kind: 'field', node: 'me', edges: [], from: 10, to: 14, prefix: 'na' });
  });

  it('offers nothing inside a modifier argument or after a mistake', () => {
    assert.equal(at('me?fields=friends.limit(2'), undefined);
    assert.equal(at('me?fields=friends}'), undefined);
    assert.equal(at('me?fields=name name'), undefined);
    assert.equal(at('me?fields=friends{name}'), undefined, 'after a finished item');
  });
});
