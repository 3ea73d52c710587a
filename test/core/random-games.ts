/**
 * The random-game property checker shared by the properties.*.test.ts files (one file per
 * edition, so that vitest runs them in parallel). Over seeded random games it checks:
 * - generate() and countMoves() agree, without duplicates;
 * - every legal move (on every 3rd ply) and every played move: make then unmake restores board,
 *   bitboards, side, counters, winner, key and ply exactly; after make the incremental key equals
 *   computeKey() from scratch and the bitboards match the board;
 * - toKfen -> parseKfen is the identity (board, bitboards, side, counters, key);
 * - the fast laser tracer agrees with the path tracer for both colours, and no beam loops;
 * - the mirrored position (board turned 180°, colours swapped, side swapped) generates exactly the
 *   mirrored moves, and the mirrored move shoots the mirrored square and gives the mirrored board
 *   and winner;
 * - move text reads back to the same move (sampled);
 * - repetitions() equals a naive count of the same board and side earlier in the game, and
 *   gameStatus reports a Pharaoh win / a repetition draw accordingly (every fourth game mostly
 *   shuffles moves back and forth, so that positions do recur);
 * - unmaking the whole game restores the start, and each ply on the way back.
 */
import { describe, expect, it } from 'vitest';
import {
  BLOCK,
  KILL,
  MAX_MOVES,
  PHARAOH,
  type Position,
  ROT_CCW,
  ROT_CW,
  SCARAB,
  SPHINX,
  colorOf,
  STACK,
  STACK_ON,
  STEP,
  SWAP,
  UNSTACK,
  kindOf,
  makeMove,
  moveFrom,
  moveTo,
  moveType,
  SETUPS,
  formatMove,
  gameStatus,
  mirrorBoard,
  mirrorMove,
  mirrorPosition,
  mirrorSquare,
  mulberry32,
  oriOf,
  parseKfen,
  parseMove,
  perft,
  toKfen,
  tracePath,
  type EditionId,
  type SetupName,
  type RuleOptions,
} from '../../src/core/index';
import { load, randInt } from './helpers';

export interface GameConfig {
  label: string;
  edition: EditionId;
  setup: SetupName;
  pharaohRotation: boolean;
  games: number;
  seed: number;
  /** A rules dialect's other switches (docs/rules.md §3.1). */
  dialect?: Omit<RuleOptions, 'pharaohRotation'>;
}

export interface GameStats {
  games: number;
  plies: number;
  /** Moves made and unmade with the full check (all legal moves on sampled plies). */
  movesChecked: number;
  removals: number;
  pharaohHits: number;
  ownPharaohHits: number;
  stackKills: number;
  repeatedPositions: number;
  /** Positions where gameStatus reported a repetition draw. */
  repetitionDraws: number;
  swaps: number;
}

const MIN_PLIES = 20;
const wantMask = new Int32Array(3);
const gotMask = new Int32Array(3);
const MAX_PLIES = 120;

/** The state make/unmake must restore, compared without allocation. */
class Saved {
  board = new Uint8Array(80);
  bb = new Int32Array(9);
  side = 0;
  plies = 0;
  moveNumber = 0;
  winner = 0;
  keyLo = 0;
  keyHi = 0;
  ply = 0;
  save(p: Position): this {
    this.board.set(p.board);
    this.bb.set(p.bb);
    this.side = p.side;
    this.plies = p.pliesSinceRemoval;
    this.moveNumber = p.moveNumber;
    this.winner = p.winner;
    this.keyLo = p.keyLo;
    this.keyHi = p.keyHi;
    this.ply = p.ply;
    return this;
  }
  /** null when `p` is exactly as saved, else what differs. */
  diff(p: Position): string | null {
    for (let i = 0; i < 80; i++) if (p.board[i] !== this.board[i]) return `board[${i}]`;
    for (let i = 0; i < 9; i++) if (p.bb[i] !== this.bb[i]) return `bb[${i}]`;
    if (p.side !== this.side) return 'side';
    if (p.pliesSinceRemoval !== this.plies) return 'pliesSinceRemoval';
    if (p.moveNumber !== this.moveNumber) return 'moveNumber';
    if (p.winner !== this.winner) return 'winner';
    if (p.keyLo !== this.keyLo || p.keyHi !== this.keyHi) return 'key';
    if (p.ply !== this.ply) return 'ply';
    return null;
  }
}

/** Calls the real computeKey() and puts the incremental key back: null when they agree. */
function keyFault(p: Position): string | null {
  const lo = p.keyLo;
  const hi = p.keyHi;
  const [slo, shi] = p.computeKey();
  p.keyLo = lo;
  p.keyHi = hi;
  return slo === lo && shi === hi ? null : `incremental key ${lo}/${hi}, from scratch ${slo}/${shi}`;
}

const wantBB = new Int32Array(9);
/** The bitboards recomputed from the board: null when they match. */
function bbFault(p: Position): string | null {
  wantBB.fill(0);
  for (let s = 0; s < 80; s++) {
    const x = p.board[s];
    if (x === 0) continue;
    const bit = 1 << (s & 31);
    wantBB[(x >> 5) * 3 + (s >> 5)] |= bit;
    wantBB[6 + (s >> 5)] |= bit;
  }
  for (let i = 0; i < 9; i++) if (wantBB[i] !== p.bb[i]) return `bb[${i}] does not match the board`;
  wantBB.fill(0);
  for (let s = 0; s < 80; s++)
    if (kindOf(p.board[s]) === SCARAB) wantBB[(p.board[s] >> 5) * 3 + (s >> 5)] |= 1 << (s & 31);
  for (let i = 0; i < 6; i++) if (wantBB[i] !== p.scarabs[i]) return `scarabs[${i}] does not match the board`;
  return null;
}

/** The beam of the side that just moved, on the board before its shot took `killed` off. */
function moverBeam(pos: Position, killed: number, mask: Int32Array): number {
  if (killed < 0) return pos.beamMask(pos.side ^ 1, mask, 0);
  const was = pos.board[killed];
  const bit = 1 << (killed & 31);
  const occ = pos.bb[6 + (killed >> 5)];
  pos.board[killed] = pos.killedPieceAt(pos.ply - 1);
  pos.bb[6 + (killed >> 5)] |= bit;
  const t = pos.beamMask(pos.side ^ 1, mask, 0);
  pos.board[killed] = was;
  pos.bb[6 + (killed >> 5)] = occ;
  return t;
}

/** The board and side as text, Scarabs mod 2 (the serializer normalises them). */
const boardText = (p: Position): string => {
  const t = toKfen(p);
  return t.slice(0, t.indexOf(' ', t.indexOf(' ') + 1));
};

/** The move that would take back `prev` (made by the side to move two plies ago), or -1. */
function undoingMove(pos: Position, prev: number): number {
  const f = moveFrom(prev);
  const t = moveTo(prev);
  switch (moveType(prev)) {
    case STEP:
      return makeMove(t, f, STEP);
    case SWAP:
      return makeMove(t, f, SWAP);
    case STACK_ON:
      return makeMove(t, f, UNSTACK);
    case UNSTACK:
      return makeMove(t, f, kindOf(pos.board[t]) === STACK ? UNSTACK : STACK_ON);
    default: {
      const kind = kindOf(pos.board[f]);
      if (kind === SCARAB || kind === PHARAOH) return makeMove(f, f, ROT_CW);
      return makeMove(f, f, moveType(prev) === ROT_CW ? ROT_CCW : ROT_CW);
    }
  }
}

function fail(cfg: GameConfig, game: number, pos: Position, what: string): never {
  throw new Error(`${cfg.label}, game ${game}, ply ${pos.ply}: ${what}\n  at ${toKfen(pos)}`);
}

/**
 * Plays cfg.games seeded random games and checks the properties; throws with the game, ply and
 * KFEN on the first failure. `sample` receives (a clone of) one mid-game position per game.
 */
export function runRandomGames(cfg: GameConfig, sample?: (p: Position) => void): GameStats {
  const rand = mulberry32(cfg.seed);
  const rules = { pharaohRotation: cfg.pharaohRotation, ...cfg.dialect };
  const pos = load(SETUPS[cfg.edition][cfg.setup]!, cfg.edition, rules);
  const initial = new Saved().save(pos);
  const saved = new Saved();
  const perPly: Saved[] = [];
  const buf = new Int32Array(MAX_MOVES);
  const mbuf = new Int32Array(MAX_MOVES);
  const st: GameStats = {
    games: 0,
    plies: 0,
    movesChecked: 0,
    removals: 0,
    pharaohHits: 0,
    ownPharaohHits: 0,
    stackKills: 0,
    repeatedPositions: 0,
    repetitionDraws: 0,
    swaps: 0,
  };

  for (let g = 0; g < cfg.games; g++) {
    const history: string[] = [boardText(pos)];
    const length = MIN_PLIES + randInt(rand, MAX_PLIES - MIN_PLIES);
    const sampleAt = randInt(rand, 40);
    const shuffling = g % 4 === 3;
    for (let ply = 0; ply < length && pos.winner < 0; ply++) {
      const n = pos.generate(buf, 0);
      if (pos.countMoves() !== n) fail(cfg, g, pos, `countMoves() ${pos.countMoves()} != generate() ${n}`);
      if (new Set(buf.subarray(0, n)).size !== n) fail(cfg, g, pos, 'duplicate moves');
      if (n === 0) break;

      // every legal move: make, check, unmake, compare (every third ply)
      if ((ply + g) % 3 === 0) {
        saved.save(pos);
        for (let i = 0; i < n; i++) {
          const killed = pos.make(buf[i]);
          const kf = keyFault(pos) ?? bbFault(pos);
          if (kf) fail(cfg, g, pos, `after ${formatMove(buf[i])}: ${kf}`);
          if (killed >= 0 !== (pos.pliesSinceRemoval === 0)) fail(cfg, g, pos, 'removal count');
          // (one move in four) the mover's beam as beamMask traces it on the board after the move,
          // the killed piece put back for the trace
          const traced = i % 4 === 0;
          const wantKill = traced ? moverBeam(pos, killed, wantMask) : killed;
          pos.unmake();
          const d = saved.diff(pos);
          if (d) fail(cfg, g, pos, `make/unmake of ${formatMove(buf[i])} changed ${d}`);
          if (traced) {
            // makeTraced: the same move, and that mask
            if (pos.makeTraced(buf[i], gotMask, 0) !== killed)
              fail(cfg, g, pos, `makeTraced ${formatMove(buf[i])}: kill`);
            if (
              wantKill !== killed ||
              gotMask[0] !== wantMask[0] ||
              gotMask[1] !== wantMask[1] ||
              gotMask[2] !== wantMask[2]
            ) {
              fail(cfg, g, pos, `makeTraced ${formatMove(buf[i])}: mask`);
            }
            pos.unmake();
          }
          st.movesChecked++;
        }
        // the probe traced from the segment a move first touches (and its shortcuts) agrees with
        // the whole trace and with what make removes (every third ply)
        pos.prepareShots();
        for (let i = 0; i < n; i++) {
          const t = pos.shotAfterPrepared(buf[i]);
          const p = pos.probePiece;
          if (pos.shotAfter(buf[i]) !== t || pos.probePiece !== p)
            fail(cfg, g, pos, `shotAfterPrepared(${formatMove(buf[i])})`);
          if ((ply + g) % 3 !== 0) continue;
          const killed = pos.make(buf[i]);
          const kp = killed >= 0 ? pos.killedPieceAt(pos.ply - 1) : 0;
          pos.unmake();
          if (killed !== t || kp !== p)
            fail(cfg, g, pos, `shotAfterPrepared(${formatMove(buf[i])}) ${t} != make ${killed}`);
        }
        // isLegal agrees with generate on every move of every piece of the side to move
        const legal = new Set(buf.subarray(0, n));
        for (let from = 0; from < 80 && (ply + g) % 18 === 0; from++) {
          if (pos.board[from] === 0 || pos.board[from] >> 5 !== pos.side) continue;
          for (let to = 0; to < 80; to++) {
            for (let type = 0; type < 8; type++) {
              const m = makeMove(from, to, type);
              if (pos.isLegal(m) !== legal.has(m)) fail(cfg, g, pos, `isLegal(${formatMove(m)}) is ${pos.isLegal(m)}`);
            }
          }
        }
      }

      // the mirrored position generates exactly the mirrored moves
      const mir = mirrorPosition(pos);
      const mn = mir.generate(mbuf, 0);
      if (mn !== n) fail(cfg, g, pos, `the mirror image has ${mn} moves, not ${n}`);
      const mirrored = new Set(Array.from(buf.subarray(0, n), mirrorMove));
      for (let i = 0; i < mn; i++) {
        if (!mirrored.has(mbuf[i])) fail(cfg, g, pos, `the mirror image generates ${formatMove(mbuf[i])}`);
      }

      // both beams: the fast tracer agrees with the path tracer; no loop
      for (const color of [0, 1]) {
        // the Sphinx's square (a swap moves it in the swapSphinx dialect), else the laser's corner
        const sphinxAt = pos.board.findIndex((p) => p !== 0 && kindOf(p) === SPHINX && colorOf(p) === color);
        const laser = pos.edition.sphinx ? sphinxAt : pos.edition.laserSquare[color];
        const dir = pos.edition.sphinx ? oriOf(pos.board[laser]) : pos.edition.laserDir[color];
        const path = tracePath(pos.board, laser, dir, !pos.edition.sphinx);
        if (path.killed !== pos.laserTarget(color)) fail(cfg, g, pos, `laserTarget(${color}) != tracePath`);
        const last = path.steps[path.steps.length - 1];
        if (!path.offBoard && last.out !== KILL && last.out !== BLOCK) fail(cfg, g, pos, 'the beam did not end');
        // a loop would pass the same square in the same direction twice
        if (new Set(path.steps.map((s) => s.square * 8 + s.out)).size !== path.steps.length) {
          fail(cfg, g, pos, 'the beam loops');
        }
      }

      // move text reads back (sampled: parseMove regenerates the moves each time)
      if ((ply + g) % 15 === 0) {
        for (let i = 0; i < n; i++) {
          const r = parseMove(pos, formatMove(buf[i]));
          if (!r.ok || r.value !== buf[i]) fail(cfg, g, pos, `parseMove(${formatMove(buf[i])})`);
        }
      }

      // play a move (random, or in shuffling games often the undoing of the mover's previous
      // move, so that positions recur) here and its mirror image in the mirrored position
      let m = buf[randInt(rand, n)];
      if (shuffling && pos.ply >= 2 && randInt(rand, 10) < 8) {
        const back = undoingMove(pos, pos.moveAt(pos.ply - 2));
        for (let i = 0; i < n; i++) if (buf[i] === back) m = back;
      }
      if (perPly.length <= ply) perPly.push(new Saved());
      perPly[ply].save(pos);
      const mover = pos.side;
      const killedPiece = (sq: number): number => pos.board[sq];
      const killed = pos.make(m);
      const mk = mir.make(mirrorMove(m));
      if ((killed < 0 ? -1 : mirrorSquare(killed)) !== mk) fail(cfg, g, pos, 'the mirror image shot elsewhere');
      const mb = mirrorBoard(mir.board);
      for (let s = 0; s < 80; s++) if (mb[s] !== pos.board[s]) fail(cfg, g, pos, 'the mirror image board differs');
      if (mir.winner !== (pos.winner < 0 ? -1 : pos.winner ^ 1)) fail(cfg, g, pos, 'the mirror image winner differs');
      st.plies++;
      if (moveType(m) === SWAP) st.swaps++;
      if (killed >= 0) {
        st.removals++;
        if (pos.winner >= 0) {
          st.pharaohHits++;
          if (pos.winner !== mover) st.ownPharaohHits++;
        }
        if (killedPiece(killed) !== 0) st.stackKills++;
      }

      // incremental key = computeKey() on a clone; bitboards; KFEN round trip
      const [slo, shi] = pos.clone().computeKey();
      if (slo !== pos.keyLo || shi !== pos.keyHi) fail(cfg, g, pos, 'incremental key != computeKey() on a clone');
      const bf = bbFault(pos);
      if (bf) fail(cfg, g, pos, bf);
      const text = toKfen(pos);
      const back = parseKfen(text, cfg.edition, rules);
      if (!back.ok) fail(cfg, g, pos, `own KFEN rejected: ${back.error.message}`);
      const q = back.value;
      for (let s = 0; s < 80; s++) if (q.board[s] !== pos.board[s]) fail(cfg, g, pos, 'KFEN round trip: board');
      for (let i = 0; i < 9; i++) if (q.bb[i] !== pos.bb[i]) fail(cfg, g, pos, 'KFEN round trip: bitboards');
      if (q.side !== pos.side || q.pliesSinceRemoval !== pos.pliesSinceRemoval || q.moveNumber !== pos.moveNumber) {
        fail(cfg, g, pos, 'KFEN round trip: side or counters');
      }
      if (q.keyLo !== pos.keyLo || q.keyHi !== pos.keyHi) fail(cfg, g, pos, 'KFEN round trip: key');
      if (toKfen(q) !== text) fail(cfg, g, pos, 'KFEN round trip: text');

      // repetitions() = a naive count of the same board and side earlier in this game
      const bt = text.slice(0, text.indexOf(' ', text.indexOf(' ') + 1));
      let naive = 0;
      for (let i = history.length - 1; i >= 0; i--) if (history[i] === bt) naive++;
      history.push(bt);
      if (pos.repetitions() !== naive) fail(cfg, g, pos, `repetitions() ${pos.repetitions()}, naive count ${naive}`);
      if (naive > 0) st.repeatedPositions++;
      if (naive >= 2) st.repetitionDraws++;
      const gs = gameStatus(pos, { noRemovalLimit: 0 });
      const want = pos.winner >= 0 ? 'win' : naive >= 2 ? 'draw' : 'ongoing';
      if (gs.result !== want || (want === 'win' && gs.winner !== pos.winner)) {
        fail(cfg, g, pos, `gameStatus says ${gs.result}, expected ${want}`);
      }

      if (ply === sampleAt && pos.winner < 0 && sample) sample(pos.clone());
    }
    // unmake the whole game, checking each ply on the way back
    while (pos.ply > 0) {
      pos.unmake();
      const d = perPly[pos.ply].diff(pos);
      if (d) fail(cfg, g, pos, `unmake to ply ${pos.ply} left ${d} changed`);
    }
    const d = initial.diff(pos);
    if (d) fail(cfg, g, pos, `unmaking the whole game left ${d} changed`);
    st.games++;
  }
  return st;
}

/**
 * The property suite of one edition (one test file per edition, so that vitest runs them in
 * parallel): the random-game checks above, then perft(3) of random positions against their
 * mirror images. `stacks`: the edition has obelisk stacks, so the games must shoot some.
 */
export function propertySuite(title: string, configs: GameConfig[], stacks: boolean): void {
  describe(`${title}: properties over random games`, () => {
    it.each(configs)('$label: $games games', (cfg) => {
      const st = runRandomGames(cfg);
      expect(st.games).toBe(cfg.games);
      // the games must exercise what they claim to test
      expect(st.plies).toBeGreaterThan(cfg.games * 10);
      expect(st.movesChecked).toBeGreaterThan(st.plies * 10);
      expect(st.removals).toBeGreaterThan(cfg.games);
      expect(st.pharaohHits).toBeGreaterThan(0);
      expect(st.ownPharaohHits).toBeGreaterThan(0);
      expect(st.repeatedPositions).toBeGreaterThan(cfg.games / 10);
      expect(st.repetitionDraws).toBeGreaterThan(0);
      expect(st.swaps).toBeGreaterThan(0);
      if (stacks) expect(st.stackKills).toBeGreaterThan(0);
    });

    it.each(configs)('$label: perft(3) of random positions equals perft(3) of their mirror images', (cfg) => {
      const positions: Position[] = [];
      runRandomGames({ ...cfg, games: 6, seed: cfg.seed + 500 }, (p) => positions.push(p));
      expect(positions.length).toBeGreaterThanOrEqual(3);
      for (const p of positions.slice(0, 4)) {
        const mir = mirrorPosition(p);
        expect(mir.side).toBe(p.side ^ 1);
        expect(perft(mir, 3)).toBe(perft(p, 3));
      }
    });
  });
}
