/**
 * The danger map: where one side's beam can reach after any one move of that side, and by which
 * move. For the side to move, the map of the other side's beam is "what can hit me" (as if the
 * opponent moved now), the map of its own beam "what can I hit". Exact: every legal move of the
 * side is accounted for. A move whose squares are all off the beam as it runs now leaves the beam
 * exactly as it is (the shot probes of shots.ts rest on the same fact), so the beam is traced once
 * for all of those and once for each move that touches it. Not for the search's hot path: it
 * allocates its answer; a map takes well under a millisecond (bench/threats.mjs).
 */
import { bbHas } from './bitboard';
import { BLOCK, KILL, type BeamStep, tracePath } from './laser';
import { MAX_MOVES, ROT_CCW, ROT_CW, STACK_ON, STEP, SWAP, UNSTACK, moveFrom, moveTo, moveType } from './move';
import { PHARAOH, SPHINX, kindOf } from './pieces';
import { Position } from './position';

/**
 * How a move changes its side's beam: `none` (the beam runs as it does now: every move that leaves
 * it alone), `sphinx` (the Sphinx turns), `rotation` (a piece on the beam turns), `step-away` (a
 * piece on the beam steps off it), `step-in` (a piece steps onto the beam), `swap` (a Scarab swaps
 * on the beam), `obelisk` (an Obelisk stacks or unstacks on the beam).
 */
export type BeamChange = 'none' | 'sphinx' | 'rotation' | 'step-away' | 'step-in' | 'swap' | 'obelisk';

/** One beam a side can fire after a move, and the moves that fire it. */
export interface ThreatShot {
  /** The moves after which the beam runs so (for `none`, every move that leaves it as it is now). */
  moves: number[];
  change: BeamChange;
  /**
   * The beam square by square (tracePath's steps), on the board after the move and before the
   * shot removes anything: the Sphinx's own square first in Khet 2.0; a fixed laser's corner is
   * the first square it strikes.
   */
  steps: BeamStep[];
  /** The square of the piece the shot removes (the top Obelisk of a stack), or -1. */
  hit: number;
  /** The piece on that square before the shot (0 when none). */
  hitPiece: number;
}

/** Where a side's beam can reach after any one move of that side. */
export interface ThreatMap {
  /** The side whose beam it is (0 first player, 1 second). */
  attacker: number;
  /** Each distinct beam, the one that runs now first (when some move leaves it alone). */
  shots: ThreatShot[];
  /** The squares some beam crosses or ends on, the laser's Sphinx excluded (three 32-bit words). */
  reach: Int32Array;
  /** The squares whose piece some shot removes (three words). */
  hits: Int32Array;
  /** Indices into `shots` of the shots that hit the other side's Pharaoh: `attacker` wins with them. */
  winning: number[];
}

/** The map of `attacker`'s beam on `pos` as it stands (any side to move). A finished game has no shots. */
export function threatMap(pos: Position, attacker: number = pos.side ^ 1): ThreatMap {
  const map: ThreatMap = {
    attacker,
    shots: [],
    reach: new Int32Array(3),
    hits: new Int32Array(3),
    winning: [],
  };
  if (pos.winner >= 0) return map;
  const scratch = new Position(pos.edition, pos.rules);
  scratch.setup(pos.board, attacker, pos.pliesSinceRemoval, pos.moveNumber);
  const moves = new Int32Array(MAX_MOVES);
  const n = scratch.generate(moves, 0);
  if (n === 0) return map;
  const now = new Int32Array(3);
  scratch.beamMask(attacker, now, 0);
  const standing = traceShot(scratch, -1);
  const untouched: number[] = [];
  const byPath = new Map<string, ThreatShot>();
  const touched: ThreatShot[] = [];
  for (let i = 0; i < n; i++) {
    const m = moves[i];
    if (!bbHas(now, 0, moveFrom(m)) && !bbHas(now, 0, moveTo(m))) {
      untouched.push(m);
      continue;
    }
    const shot = traceShot(scratch, m);
    const key = shotKey(shot);
    if (key === shotKey(standing)) {
      untouched.push(m);
      continue;
    }
    const same = byPath.get(key);
    if (same !== undefined && same.change === shot.change) {
      same.moves.push(m);
      continue;
    }
    byPath.set(key, shot);
    touched.push(shot);
  }
  if (untouched.length > 0) map.shots.push({ ...standing, moves: untouched });
  map.shots.push(...touched);
  const sphinx = pos.edition.sphinx;
  map.shots.forEach((s, i) => {
    for (let k = sphinx ? 1 : 0; k < s.steps.length; k++) {
      const sq = s.steps[k].square;
      map.reach[sq >> 5] |= 1 << (sq & 31);
    }
    if (s.hit >= 0) {
      map.hits[s.hit >> 5] |= 1 << (s.hit & 31);
      if (kindOf(s.hitPiece) === PHARAOH && s.hitPiece >> 5 !== attacker) map.winning.push(i);
    }
  });
  return map;
}

/**
 * The shot of the side to move after move `m` (−1: no move, the beam as it runs now), square by
 * square, on the board before the shot removes anything. `pos` is left as it was.
 */
export function traceShot(pos: Position, m: number): ThreatShot {
  const color = pos.side;
  let change: BeamChange = 'none';
  let restore = -1;
  let restorePiece = 0;
  if (m >= 0) {
    change = beamChange(pos, m);
    const killed = pos.make(m);
    if (killed >= 0) {
      // the shot's victim back on the board for the trace (a stack's top Obelisk back on it)
      restore = killed;
      restorePiece = pos.board[killed];
      pos.board[killed] = pos.killedPieceAt(pos.ply - 1);
    }
  }
  const sq = pos.laserSq[color];
  const steps = tracePath(pos.board, sq, pos.sphinx ? pos.board[sq] & 3 : pos.laserDir[color], !pos.sphinx).steps;
  const last = steps[steps.length - 1];
  const hit = last !== undefined && last.out === KILL ? last.square : -1;
  const hitPiece = hit >= 0 ? pos.board[hit] : 0;
  if (restore >= 0) pos.board[restore] = restorePiece;
  if (m >= 0) pos.unmake();
  return { moves: m >= 0 ? [m] : [], change, steps, hit, hitPiece };
}

/** How move `m` of the side to move touches its beam's pieces, by the move's kind. */
function beamChange(pos: Position, m: number): BeamChange {
  const from = moveFrom(m);
  switch (moveType(m)) {
    case ROT_CW:
    case ROT_CCW:
      return kindOf(pos.board[from]) === SPHINX ? 'sphinx' : 'rotation';
    case SWAP:
      return 'swap';
    case STACK_ON:
    case UNSTACK:
      return 'obelisk';
    case STEP: {
      const mask = new Int32Array(3);
      pos.beamMask(pos.side, mask, 0);
      return bbHas(mask, 0, from) ? 'step-away' : 'step-in';
    }
    default:
      return 'none';
  }
}

/** A beam's identity: the squares and directions it takes and what it hits. */
function shotKey(s: ThreatShot): string {
  let k = '';
  for (const st of s.steps) k += `${st.square}${st.out === KILL ? 'x' : st.out === BLOCK ? 'b' : st.out},`;
  return k;
}
