/**
 * A reviewed game as a record: the standard tags plus an Annotator, every move with the engine's
 * score of it (`{+0.35/12}`, mover's point of view) and its judgement as a NAG and in words, and,
 * for a marked move, the engine's better line as a variation.
 */
import { formatMove } from '../core/index';
import { standardRecord, type GameRecord, type MoveRecord } from '../core/record';
import { scoreOf } from '../core/score';
import type { GameAnnotation, LoadedGame } from './annotate-game';
import { beamArrows, type ShotExplanation } from './explain';
import type { GameReview, Score } from './review';

const MISTAKE_NAMES = { inaccuracy: 'Inaccuracy', mistake: 'Mistake', blunder: 'Blunder' } as const;

function scored(move: string, s: Score, depth: number): MoveRecord {
  return s.kind === 'mate' ? { move, mate: s.value, depth } : { move, scoreCp: s.value, depth };
}

export function annotatedRecord(
  game: LoadedGame,
  a: GameAnnotation,
  review: GameReview,
  annotator: string,
  why: readonly (ShotExplanation | undefined)[] = [],
): GameRecord {
  const base = standardRecord(game.record);
  base.tags.set('Annotator', annotator);
  const moves = a.plies.map((p, i): MoveRecord => {
    const orig = game.record.moves[i];
    const r = review.plies[i];
    const m = scored(orig.move, scoreOf(p.playedScore), p.depth);
    if (orig.before !== undefined) m.before = orig.before;
    const words: string[] = [];
    if (r.judgement) {
      m.nags = [r.nag];
      words.push(`${MISTAKE_NAMES[r.judgement]}: ${r.reason ? `${r.reason}; ` : ''}${formatMove(p.best)} was best`);
      const w = why[i];
      if (w !== undefined) words.push(w.sentence.replace(/\.$/, ''));
      // the opponent's answer drawn on the position after the move
      if (w !== undefined && w.kind === 'refutation' && w.line.length === 2) m.arrows = beamArrows(w);
    }
    if (orig.comment !== undefined) words.push(orig.comment);
    if (words.length > 0) m.comment = words.join('; ');
    const variations: MoveRecord[][] = [];
    if (r.judgement && p.best !== p.move && p.bestPv.length > 0) {
      const pv = p.bestPv.map((mv) => ({ move: formatMove(mv) }) as MoveRecord);
      pv[0] = scored(pv[0].move, scoreOf(p.bestScore), p.depth);
      variations.push(pv);
    }
    variations.push(...(orig.variations ?? []));
    if (variations.length > 0) m.variations = variations;
    return m;
  });
  return { tags: base.tags, moves, result: base.result, ending: base.ending };
}
