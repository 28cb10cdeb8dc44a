import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reformatTimes } from '../../src/dispatch/date-format.js';
import { jsonText } from '../../src/dispatch/json-text.js';

/** An answer the size of a heavy query's: many aliased collections, one long list, awkward values. */
function largeAnswer(): Record<string, unknown> {
  const answer: Record<string, unknown> = {};
  for (let i = 0; i < 1500; i++) {
    answer[`f${i}`] = {
      data: Array.from({ length: 5 }, (_, n) => ({ id: String(1_000_000 + i * 10 + n), name: `Name "${n}"\n\u2028é`, created_time: `2015-07-0${1 + (n % 9)}T14:03:11+0000` })),
      paging: { cursors: { before: 'QVFI', after: 'QVFJ' }, next: `https://loom.test/v2.4/me/friends?after=${i}` },
      skipped: undefined,
    };
  }
  answer.long = { data: Array.from({ length: 6000 }, (_, n) => (n % 7 === 0 ? undefined : n % 5 === 0 ? null : { n, ok: n % 2 === 0 })) };
  answer.empty = { list: [], object: {} };
  answer.when = new Date(Date.UTC(2015, 0, 2, 3, 4, 5));
  answer.gone = () => 'not JSON';
  answer.id = '123';
  return answer;
}

describe('answer text made in slices', () => {
  it('writes exactly what JSON.stringify writes, plain and indented', async () => {
    const answer = largeAnswer();
    assert.equal(await jsonText(answer), JSON.stringify(answer));
    assert.equal(await jsonText(answer, 3), JSON.stringify(answer, null, 3));
    const list = Object.values(answer);
    assert.equal(await jsonText(list, 3), JSON.stringify(list, null, 3));
    for (const small of [{ id: '1' }, [], {}, 'text', 5, null, { nested: { a: [1, { b: undefined }] } }]) {
      // A small answer's text is given at once, not as a promise.
      assert.equal(jsonText(small, 3), JSON.stringify(small, null, 3));
    }
  });

  it('rewrites the times of a large answer as of each of its parts, letting other work run meanwhile', async () => {
    const answer = largeAnswer();
    const events: string[] = [];
    setImmediate(() => events.push('other work'));
    const whole = (await reformatTimes(answer, 'U')) as Record<string, any>;
    events.push('times rewritten');
    assert.deepEqual(events, ['other work', 'times rewritten']);
    assert.equal(whole.f7.data[2].created_time, Date.UTC(2015, 6, 3, 14, 3, 11) / 1000);
    const partByPart: Record<string, unknown> = {};
    for (const [key, part] of Object.entries(answer)) partByPart[key] = await reformatTimes(part, 'U');
    assert.equal(JSON.stringify(whole), JSON.stringify(partByPart));
    const named = (await reformatTimes(answer, 'Y-m-d')) as Record<string, any>;
    assert.equal(named.f7.data[2].created_time, '2015-07-03');
  });

  it('lets other work run while a large answer is written', async () => {
    const events: string[] = [];
    // Queued before the text is begun: it runs only if the writing pauses for a turn of the event loop.
    setImmediate(() => events.push('other work'));
    const text = Promise.resolve(jsonText([largeAnswer(), largeAnswer(), largeAnswer()])).then(() => events.push('answer written'));
    await text;
    assert.deepEqual(events, ['other work', 'answer written']);
  });
});
