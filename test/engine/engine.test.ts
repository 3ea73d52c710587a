/**
 * The Engine beneath the protocol (src/engine/engine.ts), in-process on the Node host (its search
 * threads run the TypeScript sources through tsx): it hands back data, not lines: the board, perft,
 * the game's state, what a `go` did, and its move through the listener, held back by `go infinite`
 * until `stop`. The protocol's lines made of these data are tested through the built engine
 * (test/protocol).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { perft, setupKfen } from '../../src/core/index';
import { Engine, type BestMove, type EngineListener } from '../../src/engine/engine';
import type { GoNumbers } from '../../src/engine/commands';
import { buildPosition } from '../../src/engine/position-state';
import { nodeHost } from '../../src/node/node-host';
import { MATE_IN_1, positionOf } from '../protocol/spawn-engine';

/** The listener's calls, in order. */
const heard: string[] = [];
let onBestmove: (b: BestMove) => void = () => {};
const work: Promise<unknown>[] = [];
const listener: EngineListener = {
  wait: (p) => work.push(p),
  note: (text) => heard.push(`note ${text}`),
  info: () => {},
  searchEnded: () => heard.push('ended'),
  bestmove: (b) => {
    heard.push(`bestmove ${b.best}`);
    onBestmove(b);
  },
};

/** Settles when the engine's pending work (warm-up, table clear …) has. */
const idle = (): Promise<unknown> => Promise.all(work.splice(0));

/** A `go` as the protocol hands it over; resolves with the move once the engine gives it. */
function go(engine: Engine, numbers: GoNumbers, infinite = false) {
  const move = new Promise<BestMove>((resolve) => (onBestmove = resolve));
  const outcome = engine.go({ numbers, infinite, ponder: false, searchMoves: [], received: Date.now() });
  return { outcome, move };
}

describe('Engine', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = new Engine(nodeHost, listener);
    await idle();
  });
  afterAll(async () => {
    await engine?.quit();
  });

  it('starts at Classic Khet 2.0 and reports the board and perft as data', () => {
    const classic = setupKfen('khet2', 'classic')!;
    expect(engine.position.startKfen).toBe(classic);
    const b = engine.board();
    expect(b).toMatchObject({ variant: 'khet2', toMove: 'Silver', kfen: classic });
    expect(b.ranks).toHaveLength(8);
    for (const rank of b.ranks) expect(rank).toHaveLength(10);
    const p = engine.perft(2);
    expect(p.total).toBe(perft(positionOf(classic), 2));
    expect(p.moves.reduce((n, m) => n + m.nodes, 0)).toBe(p.total);
    expect(engine.status().result).toBe('ongoing');
  });

  it('a go in a position whose game is over starts nothing', () => {
    const r = buildPosition(MATE_IN_1, ['j5+'], 'khet2', engine.rules());
    if (!r.ok) throw new Error(r.error.message);
    engine.setPosition(r.value);
    expect(engine.go({ numbers: {}, infinite: false, ponder: false, searchMoves: [], received: Date.now() })).toEqual({
      kind: 'over',
      status: expect.stringMatching(/wins/),
    });
    expect(engine.searching).toBe(false);
    expect(engine.status().result).toBe('win');
  });

  it('go depth: the search ends by itself and its move comes after the end of the search', async () => {
    const r = buildPosition(MATE_IN_1, [], 'khet2', engine.rules());
    if (!r.ok) throw new Error(r.error.message);
    engine.setPosition(r.value);
    heard.length = 0;
    const { outcome, move } = go(engine, { depth: 3 });
    expect(outcome).toMatchObject({ kind: 'started', threads: 1, hashMb: 16 });
    expect(engine.searching).toBe(true);
    expect((await move).best).toBe('j5+');
    expect(heard).toEqual(['ended', 'bestmove j5+']);
    expect(engine.searching).toBe(false);
  });

  it('go infinite: the move is held back until stop', async () => {
    heard.length = 0;
    const { outcome, move } = go(engine, {}, true);
    expect(outcome.kind).toBe('started');
    // the search finds the hit at once but keeps its move until stop (mate found: it ends early)
    await new Promise((r) => setTimeout(r, 300));
    expect(heard.filter((h) => h.startsWith('bestmove'))).toEqual([]);
    expect(engine.searching).toBe(true);
    engine.stop();
    expect((await move).best).toBe('j5+');
    expect(heard.filter((h) => h.startsWith('bestmove'))).toEqual(['bestmove j5+']);
    expect(engine.searching).toBe(false);
  });

  it('an option that changes the rules rebuilds the position, or goes back to the start and says so', () => {
    const rotation = engine.options.find('PharaohRotation')!;
    rotation.set('true');
    const start = setupKfen('khet2', 'classic')!;
    const r = buildPosition(start, ['e1+'], 'khet2', engine.rules());
    if (!r.ok) throw new Error(r.error.message);
    engine.setPosition(r.value);
    heard.length = 0;
    rotation.set('true'); // unchanged: nothing happens
    expect(engine.position.moves).toEqual(['e1+']);
    rotation.set('false'); // the Pharaoh's rotation no longer exists: back to the start
    expect(heard).toEqual([
      'note position reset to the start: move 1: e1+: the Pharaoh on e1 cannot make that rotation',
    ]);
    expect(engine.position).toMatchObject({ startKfen: start, moves: [] });
    engine.options.find('UCI_Variant')!.set('khet1');
    expect(engine.board()).toMatchObject({ variant: 'khet1', kfen: setupKfen('khet1', 'classic') });
  });
});
