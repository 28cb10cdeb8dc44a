import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createProgress } from '../../src/seed/progress.js';

/** A stream that keeps what is written, and a clock the test moves by hand. */
function fixture(isTTY: boolean, columns = 80) {
  const writes: string[] = [];
  const stream = {
    isTTY,
    columns,
    write(chunk: string | Uint8Array): boolean {
      writes.push(String(chunk));
      return true;
    },
  } as unknown as NodeJS.WriteStream;
  let now = 1_000_000;
  return {
    writes,
    stream,
    clock: () => now,
    advance(ms: number): void {
      now += ms;
    },
  };
}

describe('createProgress on a terminal', () => {
  it('prints nothing at all for work that ends within a second', () => {
    const f = fixture(true);
    const progress = createProgress('Seeding', f.stream, f.clock);
    for (let i = 1; i <= 10; i++) {
      f.advance(90);
      progress.update(i, 10);
    }
    progress.finish();
    assert.deepEqual(f.writes, []);
  });

  it('draws a bar with percentage and counts in place once past a second', () => {
    const f = fixture(true);
    const progress = createProgress('Seeding', f.stream, f.clock);
    f.advance(1500);
    progress.update(2500, 10000);
    assert.equal(f.writes.length, 1);
    const line = f.writes[0] ?? '';
    assert.ok(line.startsWith('\rSeeding ['), line);
    assert.match(line, / 25% 2,500\/10,000/);
    assert.match(line, /\[#{8}\.{22}\]/);
  });

  it('redraws at most ten times a second', () => {
    const f = fixture(true);
    const progress = createProgress('Seeding', f.stream, f.clock);
    f.advance(1001);
    for (let i = 0; i < 100; i++) {
      progress.update(i, 100);
      f.advance(10);
    }
    // 100 updates over one second: one draw per 100 ms.
    assert.ok(f.writes.length >= 9 && f.writes.length <= 11, `${f.writes.length} draws`);
  });

  it('ends with the final state and a newline', () => {
    const f = fixture(true);
    const progress = createProgress('Seeding', f.stream, f.clock);
    f.advance(2000);
    progress.update(50, 100);
    f.advance(20);
    progress.update(100, 100);
    progress.finish();
    assert.match(f.writes.join(''), /100% 100\/100\x1b\[K\n$/);
    progress.finish();
    progress.update(1, 100);
    assert.equal(f.writes.filter((w) => w === '\n').length, 1, 'finish and later updates are ignored once finished');
  });

  it('keeps the line shorter than a narrow terminal', () => {
    const f = fixture(true, 40);
    const progress = createProgress('Seeding the demo graph', f.stream, f.clock);
    f.advance(1200);
    progress.update(123456, 987654);
    const visible = (f.writes[0] ?? '').replace('\r', '').replace('\x1b[K', '');
    assert.ok(visible.length < 40, `"${visible}" is ${visible.length} characters`);
  });

  it('assumes 80 columns when the terminal reports none', () => {
    const f = fixture(true, 0);
    const progress = createProgress('Seeding', f.stream, f.clock);
    f.advance(1200);
    progress.update(1, 2);
    assert.match(f.writes[0] ?? '', /^\rSeeding \[#+\.+\] {2}50% 1\/2/);
  });
});

describe('createProgress in a log', () => {
  it('prints nothing for work that ends within a second', () => {
    const f = fixture(false);
    const progress = createProgress('Seeding', f.stream, f.clock);
    f.advance(900);
    progress.update(10, 10);
    progress.finish();
    assert.deepEqual(f.writes, []);
  });

  it('writes a plain line every few seconds and a final line', () => {
    const f = fixture(false);
    const progress = createProgress('Seeding', f.stream, f.clock);
    for (let second = 1; second <= 12; second++) {
      for (let tick = 0; tick < 10; tick++) {
        f.advance(100);
        progress.update(second * 10 + tick, 200);
      }
    }
    progress.update(200, 200);
    progress.finish();
    assert.ok(f.writes.every((line) => line.endsWith('\n') && !line.includes('\r')), 'plain lines only');
    // Twelve seconds: a line at 5 s and 10 s, then the final one.
    assert.equal(f.writes.length, 3);
    assert.equal(f.writes[2], 'Seeding: 100% (200/200)\n');
    assert.match(f.writes[0] ?? '', /^Seeding: \d+% \(\d+\/200, \d+\/s, ETA \d+s\)\n$/);
  });

  it('tells the rate so far and the time left at that rate', () => {
    const f = fixture(false);
    const progress = createProgress('Seeding', f.stream, f.clock);
    f.advance(5000);
    progress.update(2500, 10_000);
    assert.deepEqual(f.writes, ['Seeding: 25% (2,500/10,000, 500/s, ETA 15s)\n']);
    f.advance(5000);
    progress.update(2600, 200_000);
    assert.equal(f.writes[1], 'Seeding: 1% (2,600/200,000, 260/s, ETA 12m 40s)\n');
  });

  it('writes only the final line for a run of a few seconds', () => {
    const f = fixture(false);
    const progress = createProgress('Seeding', f.stream, f.clock);
    f.advance(1500);
    progress.update(5, 10);
    f.advance(1500);
    progress.update(10, 10);
    progress.finish();
    assert.deepEqual(f.writes, ['Seeding: 100% (10/10)\n']);
  });
});
