import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { fmtDuration } from '../../src/core/duration';
import { ProgressBar } from '../../src/match/progress-bar';

/** A stream that keeps what is written to it, standing in for the terminal. */
function terminal(): { stream: NodeJS.WriteStream; written: string[] } {
  const written: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      written.push(chunk.toString());
      done();
    },
  });
  return { stream: stream as unknown as NodeJS.WriteStream, written };
}

describe('the progress line of a run', () => {
  it('draws the bar with games and ETA, and clears it once', async () => {
    const { stream, written } = terminal();
    const bar = new ProgressBar(stream);
    bar.draw({ finished: 3, playedHere: 1, total: 10 });
    bar.clear();
    bar.clear();
    await new Promise((r) => setImmediate(r));
    expect(written).toHaveLength(2);
    expect(written[0]).toMatch(/^\r\x1b\[K\[#{9}\.{21}\] 3\/10 games, \d+s elapsed, ETA \d+s$/);
    expect(written[1]).toBe('\r\x1b[K');
  });

  it('without an end: the games, the time and the LLR, asked only then', async () => {
    const { stream, written } = terminal();
    let asked = 0;
    const llr = (): number => {
      asked++;
      return 1.234;
    };
    new ProgressBar(stream).draw({ finished: 1, playedHere: 0, total: Infinity, llr });
    new ProgressBar(stream).draw({ finished: 1, playedHere: 0, total: 4, llr });
    await new Promise((r) => setImmediate(r));
    expect(written[0]).toMatch(/^\r\x1b\[K1 game, \d+s elapsed, LLR 1\.23$/);
    expect(written[1]).toMatch(/ETA \?$/);
    expect(asked).toBe(1);
  });

  it('draws nothing without a terminal', () => {
    expect(() => new ProgressBar(undefined).draw({ finished: 1, playedHere: 1, total: 2 })).not.toThrow();
  });

  it('writes durations as 42s, 3m05s, 1h02m', () => {
    expect(fmtDuration(42_000)).toBe('42s');
    expect(fmtDuration(185_000)).toBe('3m05s');
    expect(fmtDuration(3_720_000)).toBe('1h02m');
    expect(fmtDuration(Number.NaN)).toBe('?');
  });
});
