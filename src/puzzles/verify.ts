/**
 * The rules a shipped puzzle must pass, checked again deeper than the miner looked
 * (docs/puzzles.md, "Verification"). The miner proposes; this module decides:
 *
 * - every puzzle starts near balance: the side to move is within `balance` centi-pyramids of
 *   even material;
 * - **defence**: the solution is the only move that leaves no hit at once, and after it the
 *   opponent has no forced hit within `defenceHorizon` moves (the miner proved two) and a search
 *   to `depth` (two lines) rates it best and the defender not worse off than `defenceMargin`:
 *   the defence saves a game, not only the Pharaoh for one more move;
 * - **material**: the side has no forced hit within `materialHorizon` moves (else it is a hit
 *   puzzle), and at every solver move a search to `depth` (two lines; the miner searched to 4)
 *   rates the solution's move best by at least `materialGap` (about a Pyramid) over the second,
 *   with neither line a forced hit; a move that is as good is then never refused, since there is
 *   none.
 *
 * Hit puzzles are proven by the solver (test/puzzles/shipped.test.ts): only their balance is
 * checked here. Search uses the network it is given (the shipped one, as Thoth plays: the miner
 * used the hand-written evaluation, so the verdict is a second opinion), one thread, a fresh table
 * and history for each question, so the verdict is the same on every machine.
 */
import { colorOf, legalMoves, parseKfen, parseMove, type Position } from '../core/index';
import { MATE_BOUND } from '../core/score';
import { DEFAULT_LIMITS, Searcher } from '../search/search';
import { TranspositionTable } from '../search/tt';
import type { Puzzle } from './format';
import { materialBalance } from './miner';
import { Solver } from './solver';

export interface VerifyRules {
  /** Search depth of the two-line checks (the miner's material search: 4). */
  depth: number;
  /** Largest material imbalance at the start (centi-pyramids, either way). */
  balance: number;
  /** Moves within which the opponent must have no forced hit after a defence. */
  defenceHorizon: number;
  /** The defender's score after the defence must be at least −defenceMargin. */
  defenceMargin: number;
  /** Moves within which the side must have no forced hit in a material puzzle. */
  materialHorizon: number;
  /** The material solution's lead over the second move at each solver move. */
  materialGap: number;
  /** Node budget of one solver question; a question it cannot settle rejects the puzzle. */
  solverNodes: number;
}

const VERIFY_RULES: VerifyRules = {
  depth: 7,
  balance: 400,
  defenceHorizon: 3,
  defenceMargin: 200,
  materialHorizon: 3,
  materialGap: 100,
  solverNodes: 2_000_000,
};

/** The puzzle's kind: its first theme. */
export const puzzleTheme = (p: Puzzle): string => p.themes[0];

/** The position after the opponent's move, and the solution (solver and defender) as move numbers. */
function puzzleStart(p: Puzzle): { pos: Position; line: number[] } {
  const r = parseKfen(p.kfen, p.variant);
  if (!r.ok) throw new Error(`${p.id}: ${r.error.message}`);
  const pos = r.value;
  const moves = p.moves.map((t) => {
    const m = parseMove(pos, t);
    if (!m.ok) throw new Error(`${p.id}: ${m.error.message}`);
    pos.make(m.value);
    return m.value;
  });
  for (let k = 1; k < moves.length; k++) pos.unmake();
  return { pos, line: moves.slice(1) };
}

/** Checks puzzles against the rules; keeps one solver and one searcher. */
export class PuzzleVerifier {
  readonly solver = new Solver();
  readonly searcher = new Searcher(new TranspositionTable(16));

  /** `network`: the evaluation Thoth plays with (the shipped network); null: the hand-written one. */
  constructor(
    network: Parameters<Searcher['setNetwork']>[0],
    readonly rules: VerifyRules = VERIFY_RULES,
  ) {
    this.searcher.setNetwork(network);
  }

  /** Why the puzzle breaks a rule, or null when it passes. */
  check(p: Puzzle): string | null {
    const { pos, line } = puzzleStart(p);
    const us = pos.side;
    const balance = materialBalance(pos, us);
    if (Math.abs(balance) > this.rules.balance) return `unbalanced start (${balance > 0 ? '+' : ''}${balance})`;
    const kind = puzzleTheme(p);
    if (kind === 'defence') return this.defence(pos, line);
    if (kind === 'material') return this.material(pos, line);
    return null;
  }

  private twoLines(pos: Position): { move: number; score: number; second: number } | null {
    const sr = this.searcher;
    sr.tt.clear();
    sr.clearHistory();
    const r = sr.run(pos, { ...DEFAULT_LIMITS, depth: this.rules.depth, multiPV: 2 });
    if (r.lines.length === 0) return null;
    return {
      move: r.lines[0].move,
      score: r.lines[0].score,
      second: r.lines.length > 1 ? r.lines[1].score : -Infinity,
    };
  }

  /** Whether the side to move forces a hit within n moves: true, false, or undefined (budget). */
  private forced(pos: Position, n: number): boolean | undefined {
    this.solver.clear();
    this.solver.reset(this.rules.solverNodes);
    return this.solver.winIn(pos, n);
  }

  private defence(pos: Position, line: number[]): string | null {
    if (line.length !== 1) return 'a defence is one move';
    const us = pos.side;
    const saving = legalMoves(pos).filter((m) => {
      pos.make(m);
      const lost = pos.winner >= 0 ? pos.winner !== us : this.solver.hits(pos) > 0;
      pos.unmake();
      return !lost;
    });
    if (saving.length !== 1 || saving[0] !== line[0]) return `${saving.length} moves leave no hit at once`;
    pos.make(line[0]);
    const hit = this.forced(pos, this.rules.defenceHorizon);
    pos.unmake();
    if (hit !== false)
      return hit ? `a forced hit in ${this.rules.defenceHorizon} after the defence` : 'the horizon was not settled';
    const r = this.twoLines(pos);
    if (!r || r.move !== line[0]) return 'the search prefers another move';
    if (r.score < -this.rules.defenceMargin) return `the defender stays lost (${r.score})`;
    return null;
  }

  private material(pos: Position, line: number[]): string | null {
    if (line.length % 2 !== 1) return "a material line ends with the side's move";
    const hit = this.forced(pos, this.rules.materialHorizon);
    if (hit !== false)
      return hit ? `a forced hit within ${this.rules.materialHorizon}: a hit puzzle` : 'the horizon was not settled';
    const us = pos.side;
    let why: string | null = null;
    let made = 0;
    for (let k = 0; k < line.length && why === null; k++) {
      if (k % 2 === 0) {
        const r = this.twoLines(pos);
        if (!r || r.move !== line[k]) why = `move ${k / 2 + 1}: the search prefers another move`;
        else if (Math.abs(r.score) >= MATE_BOUND || Math.abs(r.second) >= MATE_BOUND)
          why = `move ${k / 2 + 1}: a forced hit in the lines`;
        else if (r.score - r.second < this.rules.materialGap)
          why = `move ${k / 2 + 1}: best by ${r.score - r.second} only`;
      }
      const killed = pos.make(line[k]);
      made++;
      if (why === null && pos.winner >= 0) why = 'the line ends the game';
      if (why === null && k === line.length - 1 && (killed < 0 || colorOf(pos.killedPieceAt(pos.ply - 1)) === us)) {
        why = 'the last move removes no enemy piece';
      }
    }
    for (; made > 0; made--) pos.unmake();
    return why;
  }
}
