/**
 * The pool core both hosts' search threads share (src/engine/pool-core.ts): what every thread's
 * task carries, the table age, and the rule that picks bestmove from the threads' results. The
 * helpers' slots are written here as src/threads/search-worker.ts writes them (sequence, move,
 * score, depth), and the choice is read as either host reads it once its main thread answers.
 */
import { describe, expect, it } from 'vitest';
import { PoolCore, chooseResult, helperResults, type GoRequest } from '../../src/engine/pool-core';
import { parseMove, setupKfen, parseKfen } from '../../src/core/index';
import { DEFAULT_LIMITS } from '../../src/search/search';
import { MATE } from '../../src/core/score';

const KFEN = setupKfen('khet2', 'classic')!;
const go: GoRequest = {
  edition: 'khet2',
  pharaohRotation: false,
  kfen: KFEN,
  moves: [],
  received: 0,
  limits: { ...DEFAULT_LIMITS, depth: 5, searchMoves: [] },
};
const move = (text: string): number => {
  const r = parseKfen(KFEN, 'khet2');
  if (!r.ok) throw new Error(r.error.message);
  const m = parseMove(r.value, text);
  if (!m.ok) throw new Error(m.error.message);
  return m.value;
};

/** Writes thread `i`'s last completed iteration into the slots, as a search thread does. */
function write(task: { results?: SharedArrayBuffer }, i: number, m: string, score: number, depth: number): void {
  const s = new Int32Array(task.results!);
  const seq = Atomics.load(s, i * 4);
  Atomics.store(s, i * 4, seq + 1);
  Atomics.store(s, i * 4 + 1, move(m));
  Atomics.store(s, i * 4 + 2, score);
  Atomics.store(s, i * 4 + 3, depth);
  Atomics.store(s, i * 4, seq + 2);
}

const main = { best: 'f4g5', ponder: 'a4a3', score: 20, depth: 5, nodes: 100 };

describe('PoolCore', () => {
  it('every thread of a search carries the same age, new-game count and table; the age counts up and wraps at 64', () => {
    const core = new PoolCore(true);
    core.begin(3);
    const tasks = [0, 1, 2].map((i) => core.task(go, i));
    expect(tasks.map((t) => t.threadIndex)).toEqual([0, 1, 2]);
    expect(new Set(tasks.map((t) => `${t.age} ${t.newGame} ${t.tableId}`)).size).toBe(1);
    expect(tasks[0]).toMatchObject({ age: 1, newGame: 0, tableId: 0, kfen: KFEN });
    for (let k = 0; k < 63; k++) core.begin(3);
    expect(core.task(go, 0).age).toBe(0);
    core.begin(3);
    core.cleared();
    core.newTable();
    expect(core.task(go, 1)).toMatchObject({ age: 0, newGame: 1, tableId: 1 });
  });

  it("with shared memory the helpers vote: a majority of deeper helpers moves bestmove off the main thread's", () => {
    const core = new PoolCore(true);
    core.begin(3);
    const t1 = core.task(go, 1);
    write(t1, 1, 'j5j6', 20, 5);
    write(t1, 2, 'j5j6', 20, 6);
    expect(core.choose(go, main, 3, 300)).toEqual({
      best: 'j5j6',
      ponder: '',
      score: 20,
      depth: 5,
      nodes: 300,
      error: undefined,
    });
    // what it was chosen from is kept (test/web/pool-hosts.test.ts reads it in both hosts)
    expect(core.lastChoice).toMatchObject({ main, helpers: [{ threadIndex: 1 }, { threadIndex: 2 }] });
    expect(core.lastChoice?.chosen.best).toBe('j5j6');
    // the same threads' results give the same choice by the rule itself (what both hosts call)
    expect(chooseResult(go, main, helperResults(new Int32Array(t1.results!), 3), 300).best).toBe('j5j6');
    // a weakened or randomised search plays the main thread's own move
    expect(core.choose({ ...go, skill: 5 }, main, 3, 300).best).toBe('f4g5');
    expect(core.choose({ ...go, random: true }, main, 3, 300).best).toBe('f4g5');
    // a found win wins
    write(t1, 2, 'c1d2', MATE - 3, 2);
    expect(core.choose(go, main, 3, 300).best).toBe('c1d2');
  });

  it("a new search forgets the last one's helpers; a torn slot is skipped", () => {
    const core = new PoolCore(true);
    core.begin(2);
    write(core.task(go, 1), 1, 'j5j6', 90, 9);
    core.begin(2);
    expect(core.choose(go, main, 2, 1).best).toBe('f4g5');
    const t = core.task(go, 1);
    write(t, 1, 'j5j6', 90, 9);
    Atomics.add(new Int32Array(t.results!), 4, 1); // odd: being written
    expect(core.choose(go, main, 2, 1).best).toBe('f4g5');
  });

  it("without shared memory there are no slots: the main thread's move, its ponder and nodes", () => {
    const core = new PoolCore(false);
    core.begin(1);
    expect(core.task(go, 0).results).toBeUndefined();
    expect(core.choose(go, main, 1, 100)).toEqual({ ...main, error: undefined });
  });
});
