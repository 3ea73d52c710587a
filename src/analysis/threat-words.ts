/**
 * The danger map in words (src/core/threats.ts): for each piece a side's beam could remove after
 * one of its moves, the moves that would do it and the beam in a sentence. `thoth analyse
 * --threats` prints it; the GUI's danger overlay says the same. Plain data, no Node.
 */
import {
  PHARAOH,
  Position,
  formatMove,
  kindOf,
  squareName,
  threatMap,
  type ThreatMap,
  type ThreatShot,
} from '../core/index';
import { beamSentence, readBeam } from './beam-words';
import { moveAction, pieceName } from './words';

/** One move that fires a shot, in words. */
interface ThreatMove {
  move: number;
  text: string;
  /** What the move does (`turns the Pyramid on a3 counter-clockwise (mirror SE → NE)`). */
  action: string;
}

/** One shot of a danger map in words. */
export interface ShotWords {
  /** The moves that fire it; empty when they are the many that leave the beam as it is (see `standing`). */
  moves: ThreatMove[];
  /** This is the beam as it runs now, fired after any of `count` moves that leave it alone. */
  standing: boolean;
  count: number;
  /** The squares it crosses, in order (the Sphinx's own square left out). */
  path: number[];
  hit: number;
  hitPiece: number;
  /** It hits the other side's Pharaoh. */
  winning: boolean;
  /** The beam in words, after "the beam". */
  sentence: string;
}

/** A danger map in words: the shots that remove something first (Pharaoh hits first), then the rest. */
export interface ThreatWords {
  attacker: number;
  /** The side it is told to: the other one. */
  about: number;
  map: ThreatMap;
  shots: ShotWords[];
  /** The squares reached, in board order. */
  reach: number[];
}

/** The danger map of `attacker`'s beam on `pos`, in words. */
export function threatWords(pos: Position, attacker: number = pos.side ^ 1): ThreatWords {
  const map = threatMap(pos, attacker);
  const ed = pos.edition;
  const mover = new Position(ed, pos.rules);
  mover.setup(pos.board, attacker, pos.pliesSinceRemoval, pos.moveNumber);
  const words = (s: ThreatShot, i: number): ShotWords => {
    const standing = s.change === 'none';
    return {
      moves: standing ? [] : s.moves.map((m) => ({ move: m, text: formatMove(m), action: moveAction(mover, m) })),
      standing,
      count: s.moves.length,
      path: s.steps.slice(ed.sphinx ? 1 : 0).map((st) => st.square),
      hit: s.hit,
      hitPiece: s.hitPiece,
      winning: map.winning.includes(i),
      sentence: beamSentence(
        ed,
        readBeam(s.steps, attacker, ed.sphinx),
        attacker === pos.side ? attacker : attacker ^ 1,
      ),
    };
  };
  const rank = (w: ShotWords): number =>
    w.winning ? 0 : w.hit >= 0 && w.hitPiece >> 5 !== attacker ? 1 : w.hit >= 0 ? 2 : 3;
  const shots = map.shots.map(words).sort((a, b) => rank(a) - rank(b));
  const reach: number[] = [];
  for (let sq = 0; sq < 80; sq++) if ((map.reach[sq >> 5] >>> (sq & 31)) & 1) reach.push(sq);
  return { attacker, about: attacker ^ 1, map, shots, reach };
}

/** `the Silver Pharaoh on e3`, `Red's own Pyramid on a3`. */
export function targetWords(pos: Position, attacker: number, sq: number, piece: number): string {
  const ed = pos.edition;
  const c = piece >> 5;
  const name = kindOf(piece) === PHARAOH ? 'Pharaoh' : pieceName(piece, ed);
  return c === attacker
    ? `${ed.colorNames[c]}'s own ${name} on ${squareName(sq)}`
    : `the ${ed.colorNames[c]} ${name} on ${squareName(sq)}`;
}

/** The lines `thoth analyse --threats` prints for one side's beam. */
export function threatLines(pos: Position, t: ThreatWords): string[] {
  const ed = pos.edition;
  const [a, d] = [ed.colorNames[t.attacker], ed.colorNames[t.about]];
  const out: string[] = [];
  out.push(
    t.attacker === pos.side
      ? `What ${a} can hit now (${a} to move):`
      : `Danger to ${d}: what ${a} could hit with one move, were it ${a}'s turn:`,
  );
  const hits = t.shots.filter((s) => s.hit >= 0);
  if (hits.length === 0) out.push(`  nothing: no move of ${a}'s makes its shot remove a piece`);
  for (const s of hits) {
    const how = s.standing
      ? `any of ${s.count} moves that leave the beam as it runs now`
      : s.moves.map((m) => `${m.text} (${m.action})`).join(', or ');
    out.push(`  ${s.winning ? '!! ' : ''}${targetWords(pos, t.attacker, s.hit, s.hitPiece)}: ${how}`);
    out.push(`      the beam ${s.sentence}`);
  }
  const quiet = t.shots.filter((s) => s.hit < 0);
  const quietMoves = quiet.reduce((n, s) => n + s.count, 0);
  if (quiet.length > 0) out.push(`  (${quietMoves} other move${quietMoves === 1 ? '' : 's'} remove nothing)`);
  out.push(`  ${a}'s beam can reach ${t.reach.length} squares: ${t.reach.map(squareName).join(' ')}`);
  return out;
}
