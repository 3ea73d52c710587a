/**
 * A Khet position: the board, the bitboards and the counts that follow it, the incremental
 * Zobrist key and the history of the moves made. Its methods are the engine's whole interface to
 * the rules; the work is done in the modules named for each job: movegen.ts (move generation),
 * count.ts (perft's bulk counts), shots.ts (beams and shot probes) and make.ts (make/unmake).
 * The hot path (generate, countMoves, make, unmake, the probes) allocates nothing.
 */
import { countMovesOf, repliesAfterQuiet, repliesByDelta } from './count';
import { EDITIONS, type Edition, type EditionId } from './editions';
import {
  U_KPIECE,
  U_KSQ,
  U_MOVE,
  U_SIZE,
  makeNullMove,
  movePieces,
  recordPly,
  unmakeMove,
  unmakeNullMove,
} from './make';
import { EVERY_SQUARE, generateMoves, isLegalMove } from './movegen';
import { ANUBIS, OBELISK, PHARAOH, PYRAMID, SCARAB, SPHINX, STACK, colorOf, kindOf, makePiece } from './pieces';
import { MAX_SEGMENTS, beamMask, laserTarget, prepareShots, probeShot, shotAfterPrepared } from './shots';
import { SQUARES } from './squares';
import { SIDE_HI, SIDE_LO, ZOBRIST_HI, ZOBRIST_LO } from './zobrist';

export { ROTATED } from './turns';

/**
 * The rules dialect (docs/rules.md §3.1): Thoth's rules are the default, each switch one way in
 * which other Khet engines read the printed rules.
 */
export interface RuleOptions {
  /** The literal reading of the rules: a Pharaoh may "rotate" (a move that changes nothing). */
  pharaohRotation: boolean;
  /**
   * A Scarab's two turns, `+` and `-`, are two moves (they give the same position); so are a
   * Pharaoh's with pharaohRotation. Off: one move, `+` (`-` is read as the same).
   */
  twoScarabRotations?: boolean;
  /** A swap may push the other piece onto a square reserved for its colour (only the Scarab's square is checked). */
  swapOntoReserved?: boolean;
  /** A Scarab may swap with a Sphinx, which then fires from its new square (docs/rules.md §3.1). */
  swapSphinx?: boolean;
}

export const DEFAULT_RULES: RuleOptions = { pharaohRotation: false };

/** Only the rules' own fields of an object that carries them (a search task, options). */
export function pickRules(r: RuleOptions): RuleOptions {
  const out: RuleOptions = { pharaohRotation: r.pharaohRotation };
  if (r.twoScarabRotations) out.twoScarabRotations = true;
  if (r.swapOntoReserved) out.swapOntoReserved = true;
  if (r.swapSphinx) out.swapSphinx = true;
  return out;
}

export class Position {
  readonly edition: Edition;
  readonly rules: RuleOptions;
  /** Piece code per square, 0 = empty. */
  readonly board = new Uint8Array(SQUARES);
  /** Bitboards: first player's pieces [0..2], second player's [3..5], all pieces [6..8]. */
  readonly bb = new Int32Array(9);
  /** Colour to move: 0 = first player, 1 = second. */
  side = 0;
  /** Plies since the last removal (the KFEN's third field). */
  pliesSinceRemoval = 0;
  /** Move number (the KFEN's fourth field): incremented after the second player moves. */
  moveNumber = 1;
  keyLo = 0;
  keyHi = 0;
  /** Colour that won by a Pharaoh hit on the last move, or -1. */
  winner = -1;
  /** Square of each colour's Pharaoh, or -1. */
  readonly pharaohSq = new Int32Array([-1, -1]);
  /** Each colour's Scarabs (Djeds): scarabs[colour * 3 .. + 2] (they are never removed). */
  readonly scarabs = new Int32Array(6);
  /** Number of pieces per colour and kind: counts[colour * 8 + kind]. */
  readonly counts = new Int32Array(16);
  /** Moves made since the position was set up; index into the history arrays. */
  ply = 0;
  /** @internal The history's room in plies, and each ply's undo record (make.ts). */
  cap = 0;
  /** @internal */
  undo = new Int32Array(0);
  /** Key of the position after each ply (index 0 = as set up). */
  keysLo = new Int32Array(0);
  keysHi = new Int32Array(0);

  // The edition's rules as flat fields, for movegen.ts, count.ts and shots.ts.
  /** @internal Each colour's laser square (its Sphinx's, which only a swapSphinx swap moves) and, without Sphinxes, its direction. */
  readonly laserSq: Int32Array;
  /** @internal */
  readonly laserDir: Int32Array;
  /** @internal The lasers are Sphinxes (pieces that turn). */
  readonly sphinx: boolean;
  /** @internal The squares each colour may not enter: reserved[colour * 3 .. + 2]. */
  readonly reserved: Int32Array;
  /** @internal swapWith[kind] = 1 when a Scarab may swap with that kind. */
  readonly swapWith: Uint8Array;
  /** @internal */
  readonly pharaohRotation: boolean;
  /** @internal The squares a piece pushed by a swap may not stand on: `reserved`, or none (swapOntoReserved). */
  readonly pushReserved: Int32Array;
  /** @internal How many moves a Scarab's turn is: 1, or 2 (twoScarabRotations). */
  readonly scarabTurns: number;
  /** @internal How many moves a Pharaoh's turn is: 0 (no Pharaoh rotation), 1 or 2. */
  readonly pharaohTurns: number;
  /** @internal Every kind of the edition but Sphinx, Pharaoh and Scarab may be swapped with (count.ts). */
  readonly swapsBulk: boolean;
  /** @internal The Sphinxes' squares as three words (only a swap moves one: swapSphinx); empty without Sphinxes. */
  readonly sphinxMask = new Int32Array(3);
  // The beam of the side to move as prepareShots walked it (shots.ts), in segments: segment k
  // runs from segSq[k] (excluded, except the laser's own square in segment 0) in direction
  // segDir[k] to the next piece it meets (included), or to the board's edge.
  /** @internal */
  readonly segMask = new Int32Array(3 * MAX_SEGMENTS);
  /** @internal */
  readonly segSq = new Int32Array(MAX_SEGMENTS);
  /** @internal */
  readonly segDir = new Int32Array(MAX_SEGMENTS);
  /** @internal */
  segCount = 0;
  /** @internal */
  preparedKill = -1;
  // Beams that run on from a square in a direction (index sq * 4 + dir), traced on the prepared
  // board and kept until the next prepareShots (stamp): the square each kills (or -1) and the
  // squares it crosses, its last included. Many moves share one: every step of a piece off the beam.
  /** @internal */
  readonly runStamp = new Int32Array(SQUARES * 4);
  /** @internal */
  readonly runKill = new Int32Array(SQUARES * 4);
  /** @internal */
  readonly runMask = new Int32Array(SQUARES * 4 * 3);
  /** @internal */
  stamp = 0;
  /** The piece the last `shotAfter` or `shotAfterPrepared` would kill (0 when it kills nothing). */
  probePiece = 0;

  constructor(edition: Edition | EditionId = 'khet2', rules: RuleOptions = DEFAULT_RULES) {
    this.edition = typeof edition === 'string' ? EDITIONS[edition] : edition;
    this.rules = { ...rules };
    const ed = this.edition;
    this.laserSq = Int32Array.from(ed.laserSquare);
    this.laserDir = Int32Array.from(ed.laserDir);
    this.sphinx = ed.sphinx;
    this.reserved = ed.reserved;
    this.swapWith = Uint8Array.from(ed.swapWith.map((b) => (b ? 1 : 0)));
    if (rules.swapSphinx && ed.sphinx) this.swapWith[SPHINX] = 1;
    this.pharaohRotation = rules.pharaohRotation;
    this.pushReserved = rules.swapOntoReserved ? new Int32Array(6) : ed.reserved;
    this.scarabTurns = rules.twoScarabRotations ? 2 : 1;
    this.pharaohTurns = rules.pharaohRotation ? this.scarabTurns : 0;
    this.swapsBulk = [PYRAMID, ANUBIS, OBELISK, STACK, SPHINX, PHARAOH, SCARAB].every(
      (k) => !ed.kinds[k] || (this.swapWith[k] === 1) === (k !== SPHINX && k !== PHARAOH && k !== SCARAB),
    );
    this.grow(256);
  }

  /** @internal Makes room for `cap` plies of history. */
  grow(cap: number): void {
    const undo = new Int32Array(cap * U_SIZE);
    undo.set(this.undo);
    const lo = new Int32Array(cap + 1);
    lo.set(this.keysLo);
    const hi = new Int32Array(cap + 1);
    hi.set(this.keysHi);
    this.undo = undo;
    this.keysLo = lo;
    this.keysHi = hi;
    this.cap = cap;
  }

  /** Replaces the whole position; clears the history. */
  setup(board: ArrayLike<number>, side: number, pliesSinceRemoval = 0, moveNumber = 1): void {
    this.board.set(board);
    this.side = side;
    this.pliesSinceRemoval = pliesSinceRemoval;
    this.moveNumber = moveNumber;
    this.winner = -1;
    this.ply = 0;
    this.bb.fill(0);
    this.pharaohSq.fill(-1);
    this.counts.fill(0);
    this.scarabs.fill(0);
    this.sphinxMask.fill(0);
    this.laserSq.set(this.edition.laserSquare);
    for (let sq = 0; sq < SQUARES; sq++) {
      const p = this.board[sq];
      if (p !== 0) {
        this.counts[(p >> 5) * 8 + kindOf(p)]++;
        if (kindOf(p) === SPHINX) {
          this.sphinxMask[sq >> 5] |= 1 << (sq & 31);
          this.laserSq[colorOf(p)] = sq;
        }
        if (kindOf(p) === SCARAB) this.scarabs[colorOf(p) * 3 + (sq >> 5)] |= 1 << (sq & 31);
        if (kindOf(p) === PHARAOH) this.pharaohSq[colorOf(p)] = sq;
        const bit = 1 << (sq & 31);
        this.bb[colorOf(p) * 3 + (sq >> 5)] |= bit;
        this.bb[6 + (sq >> 5)] |= bit;
      }
    }
    this.computeKey();
    this.keysLo[0] = this.keyLo;
    this.keysHi[0] = this.keyHi;
  }

  /** A copy with the same position and history. */
  clone(): Position {
    const p = new Position(this.edition, this.rules);
    p.copyFrom(this);
    return p;
  }

  copyFrom(o: Position): void {
    this.board.set(o.board);
    this.bb.set(o.bb);
    this.side = o.side;
    this.pliesSinceRemoval = o.pliesSinceRemoval;
    this.moveNumber = o.moveNumber;
    this.keyLo = o.keyLo;
    this.keyHi = o.keyHi;
    this.winner = o.winner;
    this.pharaohSq.set(o.pharaohSq);
    this.counts.set(o.counts);
    this.scarabs.set(o.scarabs);
    this.sphinxMask.set(o.sphinxMask);
    this.laserSq.set(o.laserSq);
    if (this.cap < o.cap) this.grow(o.cap);
    this.undo.set(o.undo.subarray(0, o.ply * U_SIZE));
    this.keysLo.set(o.keysLo.subarray(0, o.ply + 1));
    this.keysHi.set(o.keysHi.subarray(0, o.ply + 1));
    this.ply = o.ply;
  }

  /** Recomputes the key from scratch into keyLo/keyHi and returns [lo, hi]. */
  computeKey(): [number, number] {
    let lo = 0;
    let hi = 0;
    for (let sq = 0; sq < SQUARES; sq++) {
      const p = this.board[sq];
      if (p !== 0) {
        lo ^= ZOBRIST_LO[p * SQUARES + sq];
        hi ^= ZOBRIST_HI[p * SQUARES + sq];
      }
    }
    if (this.side === 1) {
      lo ^= SIDE_LO;
      hi ^= SIDE_HI;
    }
    this.keyLo = lo;
    this.keyHi = hi;
    return [lo, hi];
  }

  /** True when `color` may stand on `sq`. */
  allowed(color: number, sq: number): boolean {
    return (this.reserved[color * 3 + (sq >> 5)] & (1 << (sq & 31))) === 0;
  }

  /** Writes the legal moves at out[n..] and returns the new end. */
  generate(out: Int32Array, n: number): number {
    return generateMoves(this, out, n, EVERY_SQUARE, 0);
  }

  /**
   * Only the moves that touch the squares of `mask` (at mask[at..at+2]): every move of a piece
   * standing on the mask, and the moves of other pieces onto it. With a beam's mask
   * (beamMask) these are exactly the moves that can change that beam's shot.
   */
  generateTouching(out: Int32Array, n: number, mask: Int32Array, at: number): number {
    return generateMoves(this, out, n, mask, at);
  }

  /**
   * Whether `m` is one of the moves `generate` would give here, without generating them: the
   * search checks a move from the transposition table or a killer slot with it (a move of
   * another position, or a key collision, must never be made).
   */
  isLegal(m: number): boolean {
    return isLegalMove(this, m);
  }

  /** The number of legal moves, without generating them (perft's bulk count). */
  countMoves(): number {
    return countMovesOf(this, this.side);
  }

  /** The number of legal moves colour `us` would have on this board if it were to move. */
  countMovesOf(us: number): number {
    return countMovesOf(this, us);
  }

  /**
   * Whether repliesAfterQuiet may be used on this board: no Obelisks (single or stacked), and
   * the edition's swaps are the bulk ones (every piece but Sphinxes, Pharaohs and Scarabs).
   */
  repliesByDelta(): boolean {
    return repliesByDelta(this);
  }

  /**
   * The number of moves the opponent would have after the side to move plays `m`, without
   * making it, when the shot of `m` removes nothing (shotAfter(m) < 0) and repliesByDelta()
   * holds. `replies` is countMovesOf(opponent) on the board as it is now.
   */
  repliesAfterQuiet(m: number, replies: number): number {
    return repliesAfterQuiet(this, m, replies);
  }

  /** The square the mover's laser would kill now, or -1 (fires for `color`). */
  laserTarget(color: number): number {
    return laserTarget(this, color);
  }

  /**
   * Traces `color`'s beam as it would fire now and writes the squares it passes (its start and
   * the square where it stops included) into mask[at..at+2]. Returns the square of the piece it
   * would kill, or -1. A move whose from/to squares are all outside the mask leaves the shot
   * exactly as it is now.
   */
  beamMask(color: number, mask: Int32Array, at: number): number {
    return beamMask(this, color, mask, at);
  }

  /**
   * What the mover's shot would do after move `m`, without making it: returns the square the
   * beam would kill (or -1) and sets `probePiece`. Only the board and the occupancy change, and
   * both are restored: much cheaper than make + unmake, for move ordering and quiescence.
   */
  shotAfter(m: number): number {
    return probeShot(this, m, -1, 0);
  }

  /**
   * Walks the beam of the side to move into segments, so that `shotAfterPrepared` can trace only
   * from where a move first touches it. Valid until the board changes.
   */
  prepareShots(): void {
    prepareShots(this);
  }

  /**
   * `shotAfter(m)` for the side to move, after `prepareShots` on this board. The beam runs as
   * prepared up to the first segment the move touches; a piece stepped or turned where the beam
   * meets it is looked up in the reflection table, and only a beam that goes on is traced (on the
   * board as the move leaves it).
   */
  shotAfterPrepared(m: number): number {
    return shotAfterPrepared(this, m);
  }

  /**
   * Makes a legal move: moves the piece, fires the mover's laser, removes what it kills and
   * records a Pharaoh hit in `winner`. Returns the killed piece's square or -1.
   */
  make(m: number): number {
    movePieces(this, m);
    return recordPly(this, m, laserTarget(this, this.side));
  }

  /**
   * `make`, with the mover's shot traced by `beamMask` into mask[at..at+2]: the squares the beam
   * crossed on the board after the move, before the piece it killed was taken off. The search
   * keeps the mask as the beam of the side that moved (see src/search/beams.ts).
   */
  makeTraced(m: number, mask: Int32Array, at: number): number {
    movePieces(this, m);
    return recordPly(this, m, beamMask(this, this.side, mask, at));
  }

  /**
   * `make` for a move that leaves the mover's beam alone (it moves no piece on or onto the beam
   * as it runs now, e.g. outside beamMask's mask): the shot is the one the beam makes now,
   * `shot` (the square it kills, or -1), and is not traced again.
   */
  makeUntouched(m: number, shot: number): number {
    movePieces(this, m);
    return recordPly(this, m, shot);
  }

  /**
   * A null move for the search: the side to move passes and its laser does not fire. Not a
   * legal Khet move. It is recorded as move 0 and resets the no-removal count, so that
   * repetitions are never counted across it. Undo it with unmakeNull.
   */
  makeNull(): void {
    makeNullMove(this);
  }

  /** Takes back a null move. */
  unmakeNull(): void {
    unmakeNullMove(this);
  }

  /** Takes back the last move made. */
  unmake(): void {
    unmakeMove(this);
  }

  /** The move made at ply index `plyIndex`: 0 is the first move since the position was set up, `ply - 1` the last. */
  moveAt(plyIndex: number): number {
    return this.undo[plyIndex * U_SIZE + U_MOVE];
  }

  /** Square the laser killed on the move at `plyIndex`, or -1. */
  killedAt(plyIndex: number): number {
    return this.undo[plyIndex * U_SIZE + U_KSQ];
  }

  /** Piece the laser killed on the move at `plyIndex` (meaningful when killedAt >= 0). */
  killedPieceAt(plyIndex: number): number {
    return this.undo[plyIndex * U_SIZE + U_KPIECE];
  }

  /**
   * How many times the current position (board and side to move) occurred before, looking back
   * to the last removal (positions before a removal cannot recur) and the start of the history.
   */
  repetitions(): number {
    let count = 0;
    const lo = this.keyLo;
    const hi = this.keyHi;
    const stop = Math.max(0, this.ply - this.pliesSinceRemoval);
    for (let i = this.ply - 2; i >= stop; i -= 2) {
      if (this.keysLo[i] === lo && this.keysHi[i] === hi) count++;
    }
    return count;
  }

  /**
   * The current position's last occurrence, as the search reads repetitions (Stockfish's
   * `StateInfo::repetition`): 0 when it did not occur before (within the same window as
   * `repetitions`), the distance in plies back to its one earlier occurrence, or minus that
   * distance when it occurred twice or more before (this is at least its third occurrence).
   */
  repetition(): number {
    const lo = this.keyLo;
    const hi = this.keyHi;
    const stop = Math.max(0, this.ply - this.pliesSinceRemoval);
    let found = 0;
    for (let i = this.ply - 2; i >= stop; i -= 2) {
      if (this.keysLo[i] === lo && this.keysHi[i] === hi) {
        if (found !== 0) return -found;
        found = this.ply - i;
      }
    }
    return found;
  }

  /**
   * Whether a search scores this position, `ply` plies below its root, a draw by repetition, as
   * strong engines do (Stockfish's `Position::is_repetition`): when it occurred before inside the
   * search (after the root), or twice before anywhere in the game. A position met once before the
   * root is searched as any other: only its third occurrence draws (docs/rules.md §4).
   */
  drawsByRepetition(ply: number): boolean {
    const rep = this.repetition();
    return rep !== 0 && rep < ply;
  }

  /** The piece code for `color`/`kind`/`ori` (orientation normalised as the board stores it). */
  static piece(color: number, kind: number, ori = 0): number {
    return makePiece(color, kind, ori);
  }
}
