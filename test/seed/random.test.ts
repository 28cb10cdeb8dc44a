import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Random } from '../../src/seed/random.js';

function draws(random: Random, count: number): number[] {
  return Array.from({ length: count }, () => random.next());
}

describe('Random', () => {
  it('repeats its sequence for the same seed and differs for another', () => {
    assert.deepEqual(draws(new Random('demo'), 20), draws(new Random('demo'), 20));
    assert.notDeepEqual(draws(new Random('demo'), 20), draws(new Random('demo2'), 20));
    assert.deepEqual(draws(new Random(42), 5), draws(new Random('42'), 5));
  });

  it('forks streams that depend on the label, not on what the parent drew', () => {
    const parent = new Random('demo');
    const early = draws(parent.fork('posts'), 10);
    draws(parent, 100);
    assert.deepEqual(draws(parent.fork('posts'), 10), early);
    assert.notDeepEqual(draws(parent.fork('likes'), 10), early);
  });

  it('keeps int and skewed within their bounds, reaching both ends', () => {
    const random = new Random(7);
    const ints = Array.from({ length: 2000 }, () => random.int(3, 9));
    assert.equal(Math.min(...ints), 3);
    assert.equal(Math.max(...ints), 9);
    const skewed = Array.from({ length: 2000 }, () => random.skewed(0, 15, 3));
    assert.ok(skewed.every((n) => n >= 0 && n <= 15));
    const low = skewed.filter((n) => n < 4).length;
    assert.ok(low > skewed.length / 2, `skewed values pile up low (${low} of ${skewed.length} below 4)`);
  });

  it('samples distinct items and shuffles into a permutation', () => {
    const random = new Random('s');
    const items = Array.from({ length: 50 }, (_, i) => i);
    const sample = random.sample(items, 20);
    assert.equal(new Set(sample).size, 20);
    assert.equal(random.sample(items, 80).length, 50);
    const shuffled = random.shuffle(items.slice());
    assert.notDeepEqual(shuffled, items);
    assert.deepEqual(shuffled.slice().sort((a, b) => a - b), items);
  });

  it('never picks a zero-weight choice in weighted', () => {
    const random = new Random('w');
    for (let i = 0; i < 500; i++) assert.notEqual(random.weighted([['a', 1], ['never', 0], ['b', 3]] as const), 'never');
  });

  it('writes alphanumeric text of the asked length', () => {
    assert.match(new Random(1).alphanumeric(27), /^[A-Za-z0-9]{27}$/);
  });
});
