/**
 * A review's scores that came from elsewhere (a distributed review's worker, docs/db.md "Review
 * over workers"), checked against the game before they are believed: one triple per move of the
 * game, scores that a search can give, an engine's choice that is a legal move there, a hit scored
 * as the review method scores it (MATE − 1), the engine's own move scored once; and some moves
 * searched again here, which must give the same triple (a fixed-depth review search is a pure
 * function of the position, its history and the network: src/analysis/review-method.ts).
 */
import { formatMove, parseMove } from '../core/index';
import { MATE } from '../core/score';
import type { Searcher } from '../search/search';
import { annotatePly, type LoadedGame } from './annotate-game';
import { reviewLimits, type PlyScores } from './batch-review';

/** The scores of move `ply` of the game, searched here as the review method says. */
export function scorePly(searcher: Searcher, game: LoadedGame, ply: number, depth: number): PlyScores {
  const pos = game.start.clone();
  for (let k = 0; k < ply; k++) pos.make(game.moves[k]);
  const a = annotatePly(searcher, pos, game.moves[ply], ply, reviewLimits(depth));
  return [formatMove(a.best), a.bestScore, a.playedScore];
}

const isScore = (x: unknown): x is number => Number.isInteger(x) && Math.abs(x as number) <= MATE;

/**
 * `scores` checked against the game: the scores, or why they are refused (one line). `again`
 * gives the moves to search again and how (scorePly with the review's searcher and depth).
 */
export function checkScores(
  game: LoadedGame,
  scores: unknown,
  again: { plies: readonly number[]; score: (ply: number) => PlyScores },
): PlyScores[] | string {
  const n = game.moves.length;
  if (!Array.isArray(scores)) return 'its scores are not a list';
  if (scores.length !== n) return `${scores.length} moves scored, the game has ${n}`;
  const pos = game.start.clone();
  for (let k = 0; k < n; k++) {
    const p: unknown = scores[k];
    const at = `move ${k + 1} (${game.texts[k]})`;
    if (!Array.isArray(p) || p.length !== 3 || typeof p[0] !== 'string' || !isScore(p[1]) || !isScore(p[2]))
      return `${at}: not [move, score, score]`;
    const [best, bestScore, playedScore] = p as PlyScores;
    const m = parseMove(pos, best);
    if (!m.ok) return `${at}: the engine's choice ${JSON.stringify(best.slice(0, 12))} is not a legal move there`;
    const played = game.moves[k];
    const q = pos.clone();
    q.make(played);
    if (q.winner === pos.side) {
      if (playedScore !== MATE - 1) return `${at}: it hits the Pharaoh, scored ${playedScore}, not ${MATE - 1}`;
    } else if (formatMove(m.value) === formatMove(played) && playedScore !== bestScore) {
      return `${at}: the engine's own move, scored ${bestScore} and ${playedScore}`;
    }
    pos.make(played);
  }
  const checked = scores as PlyScores[];
  for (const k of again.plies) {
    const here = again.score(k);
    const there = checked[k];
    if (here[0] !== there[0] || here[1] !== there[1] || here[2] !== there[2])
      return `move ${k + 1} (${game.texts[k]}) searched again gives ${JSON.stringify(here)}, not ${JSON.stringify(there)}`;
  }
  return checked;
}
