import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GraphError } from '../../src/errors.js';
import { DEFAULT_MAX_DEPTH, FieldsParser, parseFields } from '../../src/query/parser.js';
import type { Selection } from '../../src/query/selection.js';

function sel(name: string, position: number, modifiers: Record<string, string> = {}, children?: Selection[]): Selection {
  return children === undefined ? { name, modifiers, position } : { name, modifiers, children, position };
}

function assertSyntaxError(text: string, fault: string, position: number): void {
  assert.throws(
    () => parseFields(text),
    (error: unknown) => {
      assert.ok(error instanceof GraphError);
      assert.equal(error.code, 100);
      assert.equal(error.message, `(#100) Syntax error "${fault}" at character ${position}: ${text}`);
      return true;
    },
  );
}

function assertTooDeep(run: () => unknown, maxDepth: number): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof GraphError);
    assert.equal(error.code, 100);
    assert.equal(error.message, `(#100) Field expression nests more than ${maxDepth} levels`);
    return true;
  });
}

/** Follows first children down without recursion, returning each selection met on the way. */
function firstChildChain(selections: Selection[]): Selection[] {
  const chain: Selection[] = [];
  let level: Selection[] | undefined = selections;
  while (level !== undefined) {
    assert.equal(level.length, 1);
    chain.push(level[0]!);
    level = level[0]!.children;
  }
  return chain;
}

function nestedBraces(depth: number): string {
  return 'a{'.repeat(depth) + 'a' + '}'.repeat(depth);
}

describe('parseFields: lists', () => {
  it('parses a plain list', () => {
    assert.deepEqual(parseFields('id,name'), [sel('id', 0), sel('name', 3)]);
  });

  it('tolerates whitespace around names and commas', () => {
    assert.deepEqual(parseFields(' id ,\tname\n'), [sel('id', 1), sel('name', 6)]);
  });

  it('skips empty items and a trailing comma', () => {
    assert.deepEqual(parseFields('a,,b,'), [sel('a', 0), sel('b', 3)]);
    assert.deepEqual(parseFields(',a'), [sel('a', 1)]);
  });

  it('returns no selections for an empty expression', () => {
    assert.deepEqual(parseFields(''), []);
    assert.deepEqual(parseFields(' , ,'), []);
  });

  it('accepts digits and underscores in names', () => {
    assert.deepEqual(parseFields('first_name,f2,_x'), [sel('first_name', 0), sel('f2', 11), sel('_x', 14)]);
  });
});

describe('parseFields: nesting', () => {
  it('parses the brace form', () => {
    assert.deepEqual(parseFields('f1{sub1,sub2},f2'), [
      sel('f1', 0, {}, [sel('sub1', 3), sel('sub2', 8)]),
      sel('f2', 14),
    ]);
  });

  it('parses the method form', () => {
    assert.deepEqual(parseFields('f1.fields(sub1,sub2),f2'), [
      sel('f1', 0, {}, [sel('sub1', 10), sel('sub2', 15)]),
      sel('f2', 21),
    ]);
  });

  it('tolerates whitespace inside braces and parentheses', () => {
    assert.deepEqual(parseFields('a { b , c } , d.fields( e )'), [
      sel('a', 0, {}, [sel('b', 4), sel('c', 8)]),
      sel('d', 14, {}, [sel('e', 24)]),
    ]);
  });

  it('nests the brace form six levels deep', () => {
    assert.deepEqual(parseFields('a{b{c{d{e{f{g}}}}}}'), [
      sel('a', 0, {}, [
        sel('b', 2, {}, [sel('c', 4, {}, [sel('d', 6, {}, [sel('e', 8, {}, [sel('f', 10, {}, [sel('g', 12)])])])])]),
      ]),
    ]);
  });

  it('nests the method form six levels deep', () => {
    assert.deepEqual(parseFields('a.fields(b.fields(c.fields(d.fields(e.fields(f.fields(g))))))'), [
      sel('a', 0, {}, [
        sel('b', 9, {}, [
          sel('c', 18, {}, [sel('d', 27, {}, [sel('e', 36, {}, [sel('f', 45, {}, [sel('g', 54)])])])]),
        ]),
      ]),
    ]);
  });

  it('mixes both forms', () => {
    assert.deepEqual(parseFields('a{b.fields(c{d})}'), [
      sel('a', 0, {}, [sel('b', 2, {}, [sel('c', 11, {}, [sel('d', 13)])])]),
    ]);
  });

  it('keeps siblings after a nested group at the right level', () => {
    assert.deepEqual(parseFields('a{b{c},d},e'), [
      sel('a', 0, {}, [sel('b', 2, {}, [sel('c', 4)]), sel('d', 7)]),
      sel('e', 10),
    ]);
  });

  it('merges braces and .fields() on one item in the order written', () => {
    assert.deepEqual(parseFields('a{b}.fields(c){d}'), [sel('a', 0, {}, [sel('b', 2), sel('c', 12), sel('d', 15)])]);
    assert.deepEqual(parseFields('a.fields(x).limit(3){y}'), [sel('a', 0, { limit: '3' }, [sel('x', 9), sel('y', 21)])]);
  });
});

describe('parseFields: modifiers', () => {
  it('reads a modifier before braces', () => {
    assert.deepEqual(parseFields('comments.limit(10){message,from}'), [
      sel('comments', 0, { limit: '10' }, [sel('message', 19), sel('from', 27)]),
    ]);
  });

  it('reads a modifier after .fields()', () => {
    assert.deepEqual(parseFields('likes.fields(name).summary(true)'), [
      sel('likes', 0, { summary: 'true' }, [sel('name', 13)]),
    ]);
  });

  it('reads modifiers on both sides of braces', () => {
    assert.deepEqual(parseFields('friends.limit(2){name}.summary(true)'), [
      sel('friends', 0, { limit: '2', summary: 'true' }, [sel('name', 17)]),
    ]);
  });

  it('chains modifiers in any order, keeping the written order', () => {
    const [first] = parseFields('likes.limit(1).summary(true)');
    const [second] = parseFields('likes.summary(true).limit(1)');
    assert.deepEqual(first, sel('likes', 0, { limit: '1', summary: 'true' }));
    assert.deepEqual(second, sel('likes', 0, { summary: 'true', limit: '1' }));
    assert.deepEqual(Object.keys(first.modifiers), ['limit', 'summary']);
    assert.deepEqual(Object.keys(second.modifiers), ['summary', 'limit']);
  });

  it('keeps the argument as raw trimmed text', () => {
    assert.deepEqual(parseFields('posts.since(1420070400).after(MTAx==).as(n).limit( 10 )'), [
      sel('posts', 0, { since: '1420070400', after: 'MTAx==', as: 'n', limit: '10' }),
    ]);
  });

  it('accepts an empty argument', () => {
    assert.deepEqual(parseFields('a.summary()'), [sel('a', 0, { summary: '' })]);
  });

  it('keeps the last value of a repeated modifier', () => {
    assert.deepEqual(parseFields('a.limit(1).summary(true).limit(2)'), [sel('a', 0, { limit: '2', summary: 'true' })]);
  });

  it('tolerates whitespace between a modifier name and its parenthesis', () => {
    assert.deepEqual(parseFields('a.limit (5)'), [sel('a', 0, { limit: '5' })]);
  });

  it('stores a modifier named __proto__ as an ordinary entry', () => {
    const [selection] = parseFields('a.__proto__(x)') as [Selection];
    assert.deepEqual(Object.keys(selection.modifiers), ['__proto__']);
    assert.equal(Object.getOwnPropertyDescriptor(selection.modifiers, '__proto__')?.value, 'x');
    assert.equal(Object.getPrototypeOf(selection.modifiers), Object.prototype);
  });
});

describe('parseFields: dotted names', () => {
  it('keeps dots in a name', () => {
    assert.deepEqual(parseFields('payment.subscriptions,a.b.c'), [sel('payment.subscriptions', 0), sel('a.b.c', 22)]);
  });

  it('ends the name where a modifier starts', () => {
    assert.deepEqual(parseFields('payment.subscriptions.limit(2)'), [sel('payment.subscriptions', 0, { limit: '2' })]);
  });

  it('reads a modifier name without parentheses at the end as part of the name', () => {
    assert.deepEqual(parseFields('likes.limit'), [sel('likes.limit', 0)]);
  });

  it('allows braces and .fields() after a dotted name', () => {
    assert.deepEqual(parseFields('a.b{c.d},e.f.fields(g)'), [
      sel('a.b', 0, {}, [sel('c.d', 4)]),
      sel('e.f', 9, {}, [sel('g', 20)]),
    ]);
  });
});

describe('parseFields: syntax errors', () => {
  it('reports an unclosed brace at the end of the text', () => {
    assertSyntaxError('a{b', 'Expected "}" instead of end of string', 3);
    assertSyntaxError('a{b{c}', 'Expected "}" instead of end of string', 6);
    assertSyntaxError('a{', 'Expected "}" instead of end of string', 2);
    assertSyntaxError('a{b,', 'Expected "}" instead of end of string', 4);
  });

  it('reports a closing brace with nothing open', () => {
    assertSyntaxError('a}', 'Unexpected "}"', 1);
    assertSyntaxError('a{b}},c', 'Unexpected "}"', 4);
    assertSyntaxError('}', 'Unexpected "}"', 0);
  });

  it('reports an unclosed .fields(', () => {
    assertSyntaxError('a.fields(b', 'Expected ")" instead of end of string', 10);
    assertSyntaxError('a.fields(', 'Expected ")" instead of end of string', 9);
  });

  it('reports a closer of the wrong kind', () => {
    assertSyntaxError('a.fields(b}', 'Expected ")" instead of "}"', 10);
    assertSyntaxError('a{b)', 'Expected "}" instead of ")"', 3);
    assertSyntaxError('a)', 'Unexpected ")"', 1);
  });

  it('reports an unclosed modifier argument at the end of the text', () => {
    assertSyntaxError('a.limit(1', 'Expected ")" instead of end of string', 9);
    assertSyntaxError('a{b.limit(1}', 'Expected ")" instead of end of string', 12);
  });

  it('reports a dot with no name after it', () => {
    assertSyntaxError('a.', 'Expected a name instead of end of string', 2);
    assertSyntaxError('a.b.', 'Expected a name instead of end of string', 4);
    assertSyntaxError('a.,b', 'Expected a name instead of ","', 2);
    assertSyntaxError('a{b}.', 'Expected a name instead of end of string', 5);
  });

  it('reports an empty modifier name', () => {
    assertSyntaxError('a.(1)', 'Expected a modifier name', 2);
  });

  it('reports a method name with no parenthesis where a name cannot continue', () => {
    assertSyntaxError('a.limit(1).b', 'Expected "(" instead of end of string', 12);
    assertSyntaxError('a{b}.c,d', 'Expected "(" instead of ","', 6);
    assertSyntaxError('a .b', 'Expected "(" instead of end of string', 4);
  });

  it('reports empty braces and an empty .fields()', () => {
    assertSyntaxError('a{}', 'Expected a field name', 2);
    assertSyntaxError('a{ , }', 'Expected a field name', 5);
    assertSyntaxError('a.fields()', 'Expected a field name', 9);
    assertSyntaxError('a{b}.fields()', 'Expected a field name', 12);
  });

  it('reports stray characters', () => {
    assertSyntaxError('a=b', 'Unexpected "="', 1);
    assertSyntaxError('"a"', 'Unexpected """', 0);
    assertSyntaxError('a;b', 'Unexpected ";"', 1);
    assertSyntaxError('a b', 'Unexpected "b"', 2);
    assertSyntaxError('a{b}c', 'Unexpected "c"', 4);
    assertSyntaxError('{a}', 'Unexpected "{"', 0);
    assertSyntaxError('a{=}', 'Unexpected "="', 2);
  });

  it('shortens a long expression in the message', () => {
    const text = 'a,'.repeat(1000) + '=';
    assert.throws(
      () => parseFields(text),
      (error: unknown) => {
        assert.ok(error instanceof GraphError);
        assert.equal(
          error.message,
          `(#100) Syntax error "Unexpected "="" at character 2000: ${'a,'.repeat(100)}...`,
        );
        return true;
      },
    );
  });
});

describe('parseFields: depth limit', () => {
  it('defaults to 256 levels', () => {
    assert.equal(DEFAULT_MAX_DEPTH, 256);
    assert.equal(firstChildChain(parseFields(nestedBraces(256))).length, 257);
    assertTooDeep(() => parseFields(nestedBraces(257)), 256);
  });

  it('honours maxDepth in both forms', () => {
    assert.deepEqual(parseFields('a{b{c}}', { maxDepth: 2 }), [sel('a', 0, {}, [sel('b', 2, {}, [sel('c', 4)])])]);
    assertTooDeep(() => parseFields('a{b{c}}', { maxDepth: 1 }), 1);
    assertTooDeep(() => parseFields('a.fields(b.fields(c))', { maxDepth: 1 }), 1);
    assertTooDeep(() => parseFields('a{b.fields(c)}', { maxDepth: 1 }), 1);
  });

  it('counts depth, not the number of groups', () => {
    assert.deepEqual(parseFields('a{b},c{d}.fields(e)', { maxDepth: 1 }), [
      sel('a', 0, {}, [sel('b', 2)]),
      sel('c', 5, {}, [sel('d', 7), sel('e', 17)]),
    ]);
  });

  it('allows no nesting with maxDepth 0', () => {
    assert.deepEqual(parseFields('a,b', { maxDepth: 0 }), [sel('a', 0), sel('b', 2)]);
    assertTooDeep(() => parseFields('a{b}', { maxDepth: 0 }), 0);
  });

  it('rejects a maxDepth that is not a number', () => {
    assert.throws(() => parseFields('a', { maxDepth: Number.NaN }), RangeError);
  });
});

describe('parseFields: hostile input', () => {
  const deep = 20_000;

  it('stops 20,000 balanced nested braces at the depth limit', () => {
    assertTooDeep(() => parseFields(nestedBraces(deep)), DEFAULT_MAX_DEPTH);
  });

  it('parses 20,000 balanced nested braces without recursion when allowed', () => {
    const chain = firstChildChain(parseFields(nestedBraces(deep), { maxDepth: deep }));
    assert.equal(chain.length, deep + 1);
    chain.forEach((selection, level) => {
      assert.equal(selection.name, 'a');
      assert.equal(selection.position, level * 2);
    });
  });

  it('stops 20,000 unbalanced nested braces at the depth limit', () => {
    assertTooDeep(() => parseFields('a{'.repeat(deep)), DEFAULT_MAX_DEPTH);
  });

  it('reports 20,000 unbalanced nested braces as unclosed when deep nesting is allowed', () => {
    assert.throws(
      () => parseFields('a{'.repeat(deep), { maxDepth: deep }),
      (error: unknown) =>
        error instanceof GraphError &&
        error.code === 100 &&
        error.message.startsWith(`(#100) Syntax error "Expected "}" instead of end of string" at character ${deep * 2}: `),
    );
  });

  it('reports 20,000 surplus closing braces at the first one', () => {
    assert.throws(
      () => parseFields('a' + '}'.repeat(deep)),
      (error: unknown) =>
        error instanceof GraphError && error.message.startsWith('(#100) Syntax error "Unexpected "}"" at character 1: '),
    );
  });

  it('parses a 1 MB expression in a number of steps bounded by its length', () => {
    const item = 'field{a,b.limit(5)},';
    const count = Math.ceil(1_000_000 / item.length);
    const text = item.repeat(count);
    const steps = stepsToParse(text);
    assert.ok(steps <= text.length, `${steps} steps for ${text.length} characters`);
    const selections = parseFields(text);
    assert.equal(selections.length, count);
    const lastAt = (count - 1) * item.length;
    assert.deepEqual(selections[count - 1], sel('field', lastAt, {}, [sel('a', lastAt + 6), sel('b', lastAt + 8, { limit: '5' })]));
  });

  it('parses a few steps at a time, to the same selections and the same errors', () => {
    const text = Array.from({ length: 300 }, (_, i) => `friends.as(f${i}).limit(25){id,name}`).join(',');
    const parser = new FieldsParser(text);
    let rounds = 1;
    while (!parser.parse(50)) rounds += 1;
    assert.ok(rounds > 10, `parsed in ${rounds} rounds`);
    assert.deepEqual(parser.selections, parseFields(text));
    assert.equal(parser.parse(50), true, 'a finished parse stays finished');

    const broken = new FieldsParser(`${text},x{`);
    assert.throws(() => {
      while (!broken.parse(50));
    }, (error: unknown) => error instanceof GraphError && error.message.includes('Expected "}" instead of end of string'));
  });

  it('fails on a malformed 1 MB expression after a number of steps bounded by its length', () => {
    const text = 'field{a,b.limit(5)},'.repeat(50_000) + 'x{';
    assert.throws(() => stepsToParse(text), GraphError);
    const parser = new FieldsParser(text);
    let steps = 0;
    assert.throws(() => {
      while (!parser.parse(1)) steps += 1;
    }, GraphError);
    assert.ok(steps <= text.length, `${steps} steps for ${text.length} characters`);
  });

  it('reads a 1 MB dotted name or run of whitespace in one step', () => {
    const dotted = 'a' + '.b'.repeat(500_000);
    const spaced = 'a.b' + ' '.repeat(1_000_000) + ',c';
    assert.equal(parseFields(dotted)[0]?.name, dotted);
    assert.deepEqual(parseFields(spaced), [sel('a.b', 0), sel('c', 1_000_004)]);
    // The name, its end, the end of the list: a long name is one token, not one step per dot.
    assert.equal(stepsToParse(dotted), 3);
    // The same for two names, with the comma (the whitespace skipped within it) between them.
    assert.equal(stepsToParse(spaced), 5);
    assert.throws(() => parseFields('a.limit(' + 'x'.repeat(1_000_000)), GraphError);
  });
});

/**
 * How many steps a parse takes, counted one step at a time: the work measured in tokens, which
 * does not depend on how fast or busy the machine is.
 */
function stepsToParse(text: string): number {
  const parser = new FieldsParser(text);
  let steps = 0;
  while (!parser.parse(1)) steps += 1;
  return steps + 1;
}
