/**
 * The puzzle miner: walks a game's positions and keeps those where the side to move has a
 * unique line a person can find (docs/puzzles.md):
 *   hit      a forced Pharaoh hit in 1–5 moves, proven by the solver (solver.ts); no other first
 *            move hits as fast, and every solver move before the last is the only one that keeps
 *            the hit as fast; the defender's replies are ones that resist longest;
 *   defence  the opponent threatens a hit and exactly one move leaves it no hit at once; the
 *            solver proves that after it the opponent has no hit in two moves either.
 * Each puzzle starts one ply earlier (the opponent's last move is shown first). Pure
 * computation: `thoth puzzles` (src/cli/puzzles.ts) feeds it games and writes what it returns.
 */
import {
  ANUBIS,
  MAX_MOVES,
  PHARAOH,
  SPHINX,
  STEP,
  SWAP,
  UNSTACK,
  colorOf,
  formatMove,
  kindOf,
  legalMoves,
  moveFrom,
  moveType,
  parseKfen,
  toKfen,
  type EditionId,
  type Position,
} from '../core/index';
import { pieceValue } from '../search/evaluate';
import { DEFAULT_LIMITS, Searcher } from '../search/search';
import { MATE_BOUND } from '../core/score';
import { TranspositionTable } from '../search/tt';
import type { Puzzle } from './format';
import { Solver } from './solver';

export type { Puzzle } from './format';

export type PuzzleKind = 'hit' | 'defence' | 'material';

/** A game to mine: its start and its moves, with the mover's engine score where known. */
export interface MinedGame {
  variant: EditionId;
  start: string;
  moves: number[];
  /** Per ply: a forced hit for the side to move in this many moves, as the engine saw it. */
  mateFor?: (number | undefined)[];
  /** The colour whose shot hit the other Pharaoh on the last move, or -1. */
  winner: number;
  /** Where the game came from (the puzzle's `source` gets `:ply` appended). */
  source: string;
}

export interface MinerSettings {
  /** Longest hit, in the solver's moves (1–5). */
  maxMoves: number;
  /** Node budget of one solver question; past it the position is dropped. */
  solverNodes: number;
  /** Positions before this ply of the game are not mined. */
  skipPlies: number;
  /** Positions this close to the no-removal draw are not mined. */
  maxPliesSinceRemoval: number;
  /** Which kinds to mine. */
  kinds: readonly PuzzleKind[];
  /** Material: the depth of the engine's two-line search … */
  materialDepth: number;
  /** … and how much better (centi-pyramids) the best line must be than the second. */
  materialMargin: number;
}

export const DEFAULT_MINER: MinerSettings = {
  maxMoves: 3,
  solverNodes: 400_000,
  skipPlies: 2,
  maxPliesSinceRemoval: 80,
  kinds: ['hit', 'defence', 'material'],
  materialDepth: 4,
  materialMargin: 150,
};

export interface MinerTally {
  positions: number;
  hit: number;
  defence: number;
  material: number;
  /** Why candidates were dropped. */
  notUnique: number;
  duplicate: number;
  budget: number;
}

const emptyTally = (): MinerTally => ({
  positions: 0,
  hit: 0,
  defence: 0,
  material: 0,
  notUnique: 0,
  duplicate: 0,
  budget: 0,
});

/** The initial rating's bounds. */
const RATING_MIN = 600;
const RATING_MAX = 2600;

/**
 * The initial rating (docs/puzzles.md): deeper lines and more tempting alternatives make a
 * puzzle harder; a quiet first move harder still.
 *   hit:     700 + 300·(N − 1) + 80·log2(1 + T) + 150·Q
 *   defence: 1000 + 120·log2(1 + H)
 *   material: 900 + 250·(N − 1) + 80·log2(1 + T) + 150·Q
 * N: the solver's moves; T: other first moves that threaten a hit (the side could hit next if
 * it moved again); Q: 1 when the first move neither removes a piece nor threatens a hit;
 * H: the opponent's threatened hits; for material, T counts the other first moves that remove a piece. Rounded to 10, clamped to [600, 2600].
 */
export function initialRating(kind: PuzzleKind, n: number, tempting: number, quiet: boolean): number {
  const raw =
    kind === 'hit'
      ? 700 + 300 * (n - 1) + 80 * Math.log2(1 + tempting) + (quiet ? 150 : 0)
      : kind === 'material'
        ? 900 + 250 * (n - 1) + 80 * Math.log2(1 + tempting) + (quiet ? 150 : 0)
        : 1000 + 120 * Math.log2(1 + tempting);
  return Math.min(RATING_MAX, Math.max(RATING_MIN, Math.round(raw / 10) * 10));
}

/** A short stable id: FNV-1a of the variant, KFEN and moves, 10 hex digits. */
export function puzzleId(variant: string, kfen: string, moves: readonly string[]): string {
  const text = `${variant}|${kfen}|${moves.join(' ')}`;
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) >>> 0;
  }
  return (h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0')).slice(0, 10);
}

export class Miner {
  readonly solver = new Solver();
  readonly tally: MinerTally = emptyTally();
  /** Keys (with the variant) after the first solution move of every puzzle kept. */
  private readonly seen = new Set<string>();

  constructor(readonly settings: MinerSettings = DEFAULT_MINER) {}

  /** Marks a puzzle as seen (one read from an earlier file), so that no near-duplicate follows. */
  remember(p: Puzzle): void {
    const r = parseKfen(p.kfen, p.variant);
    if (!r.ok) return;
    const pos = r.value;
    for (const t of p.moves.slice(0, 2)) {
      const m = legalMoves(pos).find((x) => formatMove(x) === t);
      if (m === undefined) return;
      pos.make(m);
    }
    this.seen.add(dupKey(p.variant, pos));
  }

  /** The puzzles of one game. */
  mine(game: MinedGame): Puzzle[] {
    const s = this.settings;
    const r = parseKfen(game.start, game.variant);
    if (!r.ok) return [];
    const pos = r.value;
    this.solver.clear();
    const out: Puzzle[] = [];
    const last = game.moves.length;
    for (let i = 0; i < last; i++) {
      if (i >= Math.max(1, s.skipPlies) && pos.pliesSinceRemoval <= s.maxPliesSinceRemoval && pos.winner < 0) {
        this.tally.positions++;
        const p = this.minePosition(pos, game, i);
        if (p) out.push(p);
      }
      if (i === last - 1) break;
      pos.make(game.moves[i]);
    }
    return out;
  }

  /** A puzzle at ply `i` (pos: the position before move i; the previous move is moves[i − 1]). */
  private minePosition(pos: Position, game: MinedGame, i: number): Puzzle | undefined {
    const s = this.settings;
    const solver = this.solver;
    const us = pos.side;
    const hint = game.mateFor?.[i];
    const nearEnd = game.winner === us && last(game) - i <= 2 * s.maxMoves - 1;
    const hits = solver.hits(pos);
    let line: number[] | undefined;
    let kind: PuzzleKind = 'hit';
    let n = 0;
    if (hits > 1) {
      this.tally.notUnique++;
      return undefined;
    }
    if (s.kinds.includes('hit')) {
      if (hits === 1) {
        n = 1;
      } else {
        const deepest = (hint !== undefined && hint > 0) || nearEnd ? s.maxMoves : Math.min(2, s.maxMoves);
        for (let k = 2; k <= deepest; k++) {
          solver.reset(s.solverNodes);
          const w = solver.winIn(pos, k);
          if (w === undefined) {
            this.tally.budget++;
            return undefined;
          }
          if (w) {
            n = k;
            break;
          }
        }
      }
      if (n > 0) {
        line = this.hitLine(pos, n, game.moves[i]);
        if (!line) return undefined;
      }
    }
    if (!line && hits === 0 && s.kinds.includes('defence')) {
      line = this.defenceMove(pos);
      if (line) kind = 'defence';
    }
    if (!line && hits === 0 && s.kinds.includes('material')) {
      line = this.materialLine(pos);
      if (line) {
        kind = 'material';
        n = (line.length + 1) / 2;
      }
    }
    if (!line) return undefined;

    // the puzzle starts one ply earlier
    const prev = game.moves[i - 1];
    pos.unmake();
    const kfen = toKfen(pos);
    pos.make(prev);
    pos.make(line[0]);
    const dup = dupKey(game.variant, pos);
    pos.unmake();
    if (this.seen.has(dup)) {
      this.tally.duplicate++;
      return undefined;
    }
    const { tempting, quiet } = this.difficulty(pos, line[0], kind);
    const themes = detectThemes(pos, line, kind, n, quiet);
    const moves = [formatMove(prev), ...line.map(formatMove)];
    // the position after each solver move: a later puzzle on the same line is its tail
    for (let k = 0; k < line.length; k++) {
      pos.make(line[k]);
      if (k % 2 === 0) this.seen.add(dupKey(game.variant, pos));
    }
    for (let k = 0; k < line.length; k++) pos.unmake();
    this.tally[kind]++;
    return {
      id: puzzleId(game.variant, kfen, moves),
      variant: game.variant,
      kfen,
      moves,
      themes,
      rating: initialRating(kind, n, tempting, quiet),
      source: `${game.source}:${i}`,
    };
  }

  /**
   * The line of a hit in n: the solver's unique move at each point before the last, the
   * defender's longest reply (the game's own when it is one, else the first after which the
   * solver's next move is unique), and a hitting move last (the game's when it hits).
   * Undefined when a point has several moves or the budget ran out.
   */
  private hitLine(pos: Position, n: number, played: number): number[] | undefined {
    const solver = this.solver;
    const line: number[] = [];
    const depth0 = pos.ply;
    const undo = (): void => {
      while (pos.ply > depth0) pos.unmake();
    };
    for (let k = n; k >= 1; k--) {
      let move: number;
      if (k === 1) {
        const hitBuf = new Int32Array(MAX_MOVES);
        const h = solver.hits(pos, hitBuf);
        if (h === 0) {
          undo();
          return undefined;
        }
        if (n === 1 && h > 1) {
          this.tally.notUnique++;
          undo();
          return undefined;
        }
        move = line.length === 0 && Array.from(hitBuf.subarray(0, h)).includes(played) ? played : hitBuf[0];
      } else {
        solver.reset(this.settings.solverNodes);
        const wins = solver.winningMoves(pos, k);
        if (wins === undefined) {
          this.tally.budget++;
          undo();
          return undefined;
        }
        if (wins.length !== 1) {
          if (wins.length > 1) this.tally.notUnique++;
          undo();
          return undefined;
        }
        move = wins[0];
      }
      line.push(move);
      pos.make(move);
      if (k === 1) break;
      solver.reset(this.settings.solverNodes);
      const replies = solver.longestReplies(pos, k - 1);
      if (replies === undefined || replies.length === 0) {
        if (replies === undefined) this.tally.budget++;
        undo();
        return undefined;
      }
      let chosen = -1;
      for (const r of replies) {
        if (k - 1 === 1) {
          pos.make(r);
          const h = solver.hits(pos);
          pos.unmake();
          if (h >= 1) {
            chosen = r;
            break;
          }
          continue;
        }
        pos.make(r);
        solver.reset(this.settings.solverNodes);
        const next = solver.winningMoves(pos, k - 1);
        pos.unmake();
        if (next === undefined) {
          this.tally.budget++;
          undo();
          return undefined;
        }
        if (next.length === 1) {
          chosen = r;
          break;
        }
      }
      if (chosen < 0) {
        this.tally.notUnique++;
        undo();
        return undefined;
      }
      line.push(chosen);
      pos.make(chosen);
    }
    undo();
    return line;
  }

  /**
   * The only move that leaves the threatening opponent no hit at once, when the opponent
   * threatens one; proven to leave no hit in two moves either.
   */
  private defenceMove(pos: Position): number[] | undefined {
    const solver = this.solver;
    pos.makeNull();
    const threats = solver.hits(pos);
    pos.unmakeNull();
    if (threats === 0) return undefined;
    const us = pos.side;
    let saving = -1;
    for (const m of legalMoves(pos)) {
      pos.make(m);
      const lost = pos.winner >= 0 ? pos.winner !== us : solver.hits(pos) > 0;
      pos.unmake();
      if (!lost) {
        if (saving >= 0) return undefined;
        saving = m;
      }
    }
    if (saving < 0) return undefined;
    pos.make(saving);
    solver.reset(this.settings.solverNodes);
    const w = solver.winIn(pos, 2);
    pos.unmake();
    if (w === undefined) this.tally.budget++;
    return w === false ? [saving] : undefined;
  }

  /**
   * A line that wins material: the engine's two-line search at a fixed depth puts one first move
   * at least `materialMargin` ahead of any other (neither line a forced hit either way, the best
   * at least half a piece up); the line is its principal variation up to the first of the
   * solver's moves (at most the second) that removes an enemy piece, and after it and the
   * defender's next reply the side is at least a piece up on the start. A second solver move is
   * again the only good one by the same test. Positions where the side to move has no move that
   * removes an enemy piece are not searched (that keeps the cost down).
   */
  private materialLine(pos: Position): number[] | undefined {
    const us = pos.side;
    if (!this.canTake(pos)) return undefined;
    const first = this.twoLines(pos);
    if (!first) return undefined;
    const pv = first.pv;
    const before = materialBalance(pos, us);
    let line: number[] | undefined;
    const depth0 = pos.ply;
    for (let k = 0; k < pv.length && k <= 2; k++) {
      if (k === 2) {
        const again = this.twoLines(pos);
        if (!again || again.pv[0] !== pv[2]) break;
      }
      const killed = pos.make(pv[k]);
      if (pos.winner >= 0) break;
      if (k % 2 === 0 && killed >= 0 && colorOf(pos.killedPieceAt(pos.ply - 1)) !== us) {
        line = pv.slice(0, k + 1);
        if (k + 1 < pv.length) pos.make(pv[k + 1]);
        const gained = pos.winner < 0 ? materialBalance(pos, us) - before : -Infinity;
        if (gained < 90) line = undefined;
        break;
      }
    }
    while (pos.ply > depth0) pos.unmake();
    return line;
  }

  /** The best line of a two-line search when it is clearly the only good one, else undefined. */
  private twoLines(pos: Position): { pv: number[] } | undefined {
    const s = this.settings;
    this.searcher ??= new Searcher(new TranspositionTable(8));
    const sr = this.searcher;
    sr.tt.clear();
    sr.clearHistory();
    const r = sr.run(pos, { ...DEFAULT_LIMITS, depth: s.materialDepth, multiPV: 2 });
    if (r.lines.length < 2) return undefined;
    const [a, b] = r.lines;
    if (Math.abs(a.score) >= MATE_BOUND || Math.abs(b.score) >= MATE_BOUND) return undefined;
    if (a.score < 50 || a.score - b.score < s.materialMargin) return undefined;
    return { pv: a.pv };
  }

  private searcher: Searcher | undefined;

  /** Whether the side to move has a move whose shot removes an enemy piece (not the Pharaoh). */
  private canTake(pos: Position): boolean {
    const us = pos.side;
    pos.prepareShots();
    for (const m of legalMoves(pos)) {
      if (pos.shotAfterPrepared(m) >= 0 && colorOf(pos.probePiece) !== us && kindOf(pos.probePiece) !== PHARAOH)
        return true;
    }
    return false;
  }

  /** T (tempting alternatives) and Q (a quiet first move) of the rating formula. */
  private difficulty(pos: Position, first: number, kind: PuzzleKind): { tempting: number; quiet: boolean } {
    if (kind === 'defence') {
      pos.makeNull();
      const h = this.solver.hits(pos);
      pos.unmakeNull();
      return { tempting: h, quiet: false };
    }
    let tempting = 0;
    let quiet = false;
    if (kind === 'material') {
      const us = pos.side;
      for (const m of legalMoves(pos)) {
        const killed = pos.make(m);
        const takes = killed >= 0 && colorOf(pos.killedPieceAt(pos.ply - 1)) !== us;
        pos.unmake();
        if (m === first) quiet = !takes;
        else if (takes) tempting++;
      }
      return { tempting, quiet };
    }
    for (const m of legalMoves(pos)) {
      const removed = pos.make(m) >= 0;
      let threat = false;
      if (pos.winner < 0) {
        pos.makeNull();
        threat = this.solver.hits(pos) > 0;
        pos.unmakeNull();
      }
      const hit = pos.winner === (pos.side ^ 1);
      pos.unmake();
      if (m === first) quiet = !removed && !threat && !hit;
      else if (threat) tempting++;
    }
    return { tempting, quiet };
  }
}

function last(game: MinedGame): number {
  return game.moves.length - 1;
}

/** The side's material less the other side's (centi-pyramids, the evaluation's piece values). */
export function materialBalance(pos: Position, side: number): number {
  let v = 0;
  for (let sq = 0; sq < pos.board.length; sq++) {
    const p = pos.board[sq];
    if (p === 0) continue;
    const k = kindOf(p);
    const value = k === 7 ? 2 * pieceValue(p) : pieceValue(p);
    v += colorOf(p) === side ? value : -value;
  }
  return v;
}

/** The near-duplicate key: the position after the first solution move, with its variant. */
function dupKey(variant: string, pos: Position): string {
  return `${variant}:${pos.keyLo >>> 0}:${pos.keyHi >>> 0}`;
}

/**
 * Themes from the line (pos: the puzzle's position after the opponent's move):
 * hitInN / defence, sphinxTurn, swap, unstack, anubisBlock, quietMove, capture.
 */
function detectThemes(
  pos: Position,
  line: readonly number[],
  kind: PuzzleKind,
  n: number,
  quietFirst: boolean,
): string[] {
  const themes = new Set<string>();
  themes.add(kind === 'hit' ? `hitIn${n}` : kind);
  const depth0 = pos.ply;
  for (let k = 0; k < line.length; k++) {
    const m = line[k];
    const solverMove = k % 2 === 0;
    const piece = kindOf(pos.board[moveFrom(m)]);
    const type = moveType(m);
    if (solverMove) {
      if (piece === SPHINX) themes.add('sphinxTurn');
      if (type === SWAP) themes.add('swap');
      if (type === UNSTACK) themes.add('unstack');
      if (piece === ANUBIS && kind === 'defence') themes.add('anubisBlock');
    } else if (piece === ANUBIS && type !== STEP) {
      themes.add('anubisBlock');
    }
    const killed = pos.make(m);
    if (solverMove && killed >= 0 && k < line.length - 1) themes.add('capture');
  }
  while (pos.ply > depth0) pos.unmake();
  if (quietFirst && kind !== 'defence' && n > 1) themes.add('quietMove');
  return [...themes];
}
