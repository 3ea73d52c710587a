/** Shared helpers for the network tests (not a test file itself). */
import { MAX_MOVES, type Position, mulberry32, parseKfen, setupKfen, type EditionId } from '../../src/core/index';
import { NUM_FEATURES } from '../../src/nnue/features';
import type { Network } from '../../src/nnue/network';
import { floatNetwork, quantise } from '../../src/train/float-network';
import { ALL_SETUPS } from '../core/helpers';

/**
 * Positions of seeded random games from every setup: `perSetup` positions of each, a few plies
 * apart, none with the game over.
 */
export function randomPositions(perSetup: number, seed = 1): Position[] {
  const rand = mulberry32(seed);
  const moves = new Int32Array(MAX_MOVES);
  const out: Position[] = [];
  for (const { edition, setup } of ALL_SETUPS) {
    let pos = start(edition, setup);
    let taken = 0;
    while (taken < perSetup) {
      const n = pos.generate(moves, 0);
      pos.make(moves[(rand() >>> 0) % n]);
      if (pos.winner >= 0 || pos.ply > 150) {
        pos = start(edition, setup);
        continue;
      }
      if ((rand() >>> 0) % 3 === 0) {
        out.push(pos.clone());
        taken++;
      }
    }
  }
  return out;
}

export function start(edition: EditionId, setup: 'classic' | 'imhotep' | 'dynasty'): Position {
  const r = parseKfen(setupKfen(edition, setup) ?? '', edition);
  if (!r.ok) throw new Error(`bad setup ${edition}/${setup}`);
  return r.value;
}

/** A quantised network of random weights: every feature matters, so a wrong update shows. */
export function randomNetwork(hidden: number, seed: number): Network {
  const rand = mulberry32(seed);
  const f = floatNetwork(hidden);
  const u = (): number => ((rand() >>> 0) / 4294967296) * 2 - 1;
  for (let i = 0; i < NUM_FEATURES * hidden; i++) f.ftWeights[i] = u() * 0.4;
  for (let j = 0; j < hidden; j++) f.ftBias[j] = u() * 0.3 + 0.2;
  for (let j = 0; j < 2 * hidden; j++) f.outWeights[j] = u() * 2;
  f.outBias[0] = u() * 0.1;
  return quantise(f, { scale: 400, editions: 7, name: 'random test network' });
}

/**
 * A network of extreme weights: every feature weight and bias at the int16 limit, the largest
 * scale, and these output weights and bias (a raw output of millions, past any game's score).
 */
export function extremeNetwork(outWeights: Int16Array, outBias: number): Network {
  const H = outWeights.length / 2;
  return {
    hidden: H,
    editions: 7,
    scale: 100_000,
    qa: 1,
    qb: 1,
    name: 'extreme',
    ftWeights: new Int16Array(NUM_FEATURES * H).fill(32767),
    ftBias: new Int16Array(H).fill(32767),
    outWeights,
    outBias,
  };
}
