/**
 * Analysis in plain words: piece names, what a move does, scores as text and as sentences.
 * Scores from the search are from the side to move's point of view, in centi-pyramids; the
 * functions here say which point of view they take.
 */
import { plural } from '../core/plural';
import {
  ANUBIS,
  PHARAOH,
  PYRAMID,
  ROT_CCW,
  ROT_CW,
  ROTATED,
  SCARAB,
  SPHINX,
  STACK,
  STACK_ON,
  SWAP,
  UNSTACK,
  DIR_WORDS,
  colorOf,
  kindName,
  kindOf,
  moveFrom,
  moveTo,
  moveType,
  oriOf,
  squareName,
  type Edition,
  type Position,
} from '../core/index';
import { MATE, MATE_BOUND, mateMoves } from '../core/score';

/** A Pyramid's mirror faces `ori` and the next direction clockwise. */
const PYRAMID_FACES = ['NE', 'SE', 'SW', 'NW'] as const;

/** The name of a piece's kind in an edition: `Pyramid`, `Djed`, `Obelisk stack`, … */
export function pieceName(p: number, ed: Edition): string {
  return kindName(kindOf(p), ed.scarabLetter);
}

/** A rotation in words: `mirror SE → SW`, `shield N → E`, `\\ → /`. */
function rotationWords(before: number, after: number): string {
  const a = oriOf(before);
  const b = oriOf(after);
  switch (kindOf(before)) {
    case PYRAMID:
      return `mirror ${PYRAMID_FACES[a]} → ${PYRAMID_FACES[b]}`;
    case ANUBIS:
      return `shield ${'NESW'[a]} → ${'NESW'[b]}`;
    case SCARAB:
      return `${a & 1 ? '/' : '\\'} → ${b & 1 ? '/' : '\\'}`;
    default:
      return '';
  }
}

export interface MoveWords {
  /** The move in notation. */
  text: string;
  /** A sentence: what the move does and what its shot removes (no final full stop). */
  sentence: string;
  /** Square the shot removed a piece from, or -1. */
  killedSq: number;
  /** The removed piece (0 when none). */
  killedPiece: number;
  /** The colour that won by this move's shot, or -1. */
  winner: number;
}

/**
 * What a legal move of the side to move does to the pieces, in words, without its shot (`steps
 * the Pyramid from c4 to d5`, `turns the Sphinx on j1 to fire west`). `pos` is left as it was.
 */
export function moveAction(pos: Position, m: number): string {
  const ed = pos.edition;
  const us = pos.side;
  const names = ed.colorNames;
  const from = moveFrom(m);
  const to = moveTo(m);
  const p = pos.board[from];
  const q = pos.board[to];
  const name = pieceName(p, ed);
  const whose = (x: number): string => (colorOf(x) === us ? 'its own' : `the ${names[colorOf(x)]}`);
  let action: string;
  switch (moveType(m)) {
    case SWAP:
      action = `swaps the ${name} on ${squareName(from)} with ${whose(q)} ${pieceName(q, ed)} on ${squareName(to)}`;
      break;
    case ROT_CW:
    case ROT_CCW: {
      const k = kindOf(p);
      if (k === PHARAOH) {
        action = `turns the Pharaoh on ${squareName(from)} (a turn that changes nothing)`;
        break;
      }
      // the turned piece from the table, not from the board after make: the shot may remove it
      const after = ROTATED[p * 2 + moveType(m) - ROT_CW];
      if (k === SPHINX) {
        action = `turns the Sphinx on ${squareName(from)} to fire ${DIR_WORDS[oriOf(after)]}`;
      } else if (k === SCARAB) {
        action = `turns the ${name} on ${squareName(from)} (${rotationWords(p, after)})`;
      } else {
        const way = moveType(m) === ROT_CW ? 'clockwise' : 'counter-clockwise';
        action = `turns the ${name} on ${squareName(from)} ${way} (${rotationWords(p, after)})`;
      }
      break;
    }
    case STACK_ON:
      action = `puts the Obelisk on ${squareName(from)} onto the Obelisk on ${squareName(to)}, making a stack`;
      break;
    case UNSTACK:
      action =
        q !== 0
          ? `moves the top Obelisk of the stack on ${squareName(from)} onto the Obelisk on ${squareName(to)}`
          : `moves the top Obelisk of the stack on ${squareName(from)} to ${squareName(to)}`;
      break;
    default:
      action = `steps the ${name} from ${squareName(from)} to ${squareName(to)}`;
  }
  return action;
}

/** What a legal move does in `pos`, in plain words. `pos` is left as it was. */
export function moveInWords(pos: Position, m: number, notation: string): MoveWords {
  const ed = pos.edition;
  const us = pos.side;
  const names = ed.colorNames;
  const action = moveAction(pos, m);
  const killedSq = pos.make(m);
  const killedPiece = killedSq >= 0 ? pos.killedPieceAt(pos.ply - 1) : 0;
  const winner = pos.winner;
  pos.unmake();
  let shot: string;
  if (killedSq < 0) {
    shot = 'the shot removes nothing';
  } else {
    const kc = colorOf(killedPiece);
    const owner = kc === us ? `${names[us]}'s own` : `the ${names[kc]}`;
    const at = squareName(killedSq);
    if (kindOf(killedPiece) === PHARAOH) {
      shot = `the shot hits ${owner} Pharaoh on ${at}: ${names[winner]} wins`;
    } else if (kindOf(killedPiece) === STACK) {
      shot = `the shot removes the top Obelisk of ${owner} stack on ${at}`;
    } else {
      shot = `the shot removes ${owner} ${pieceName(killedPiece, ed)} on ${at}`;
    }
  }
  return { text: notation, sentence: `${names[us]} ${action}; ${shot}`, killedSq, killedPiece, winner };
}

// ---------------------------------------------------------------------------------------------
// Scores
// ---------------------------------------------------------------------------------------------

export const isMateScore = (s: number): boolean => Math.abs(s) >= MATE_BOUND;

/** `+0.35`, `-1.20`, `0.00`, `+M2`, `-M3` for a score from some point of view. */
export function scoreText(s: number): string {
  if (isMateScore(s)) {
    const n = mateMoves(s);
    return `${n > 0 ? '+' : '-'}M${Math.abs(n)}`;
  }
  const t = (Math.abs(s) / 100).toFixed(2);
  return s > 0 ? `+${t}` : s < 0 ? `-${t}` : t;
}

/** The score of the side to move (`side`) turned to the first player's point of view. */
export const firstPlayerView = (s: number, side: number): number => (side === 0 ? s : -s);

/** A sentence for a score from the first player's point of view. */
export function scoreSentence(s: number, ed: Edition): string {
  const [first, second] = ed.colorNames;
  if (isMateScore(s)) {
    const n = mateMoves(s);
    const [w, l] = n > 0 ? [first, second] : [second, first];
    const k = Math.abs(n);
    return `${w} wins: hits the ${l} Pharaoh in ${plural(k, 'move')}`;
  }
  const a = Math.abs(s);
  const who = s > 0 ? first : second;
  if (a <= 25) return 'about equal';
  if (a <= 75) return `${who} is slightly better`;
  if (a <= 200) return `${who} is better`;
  if (a <= 500) return `${who} is clearly better`;
  return `${who} is winning`;
}

/**
 * A score as a number comparable across mates, for losses: mates become ±(10000 − plies), so a
 * faster win counts more and any win more than any evaluation.
 */
export function comparable(s: number): number {
  if (!isMateScore(s)) return s;
  return s > 0 ? 10000 - (MATE - s) : -10000 + (MATE + s);
}
