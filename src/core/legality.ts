/**
 * Whether a board set up by hand (the GUI's board editor, a KFEN written from a photo) is a
 * position to play from, and if not, why: every problem in words, none thrown. The rules are
 * docs/rules.md §1 and §2: one Pharaoh a side; in Khet 2.0 one Sphinx a side, on its own laser
 * square, facing one of its two legal ways; no piece on a square reserved for the other side; no
 * more pieces of a kind than the edition gives a side (its Classic setup's army; an obelisk stack
 * counts two obelisks); only the edition's kinds. A board with no problem is one that
 * parsePlayableKfen accepts (test/core/legality.test.ts checks both ways on random boards).
 *
 * What it does not judge: whether the position could arise in a game (a beam of the side that has
 * just moved may already point at a piece: the editor's person sets up what they see).
 */
import { EDITIONS, type Edition, type EditionId } from './editions';
import { parseKfenData } from './kfen';
import { KIND_NAMES, OBELISK, PHARAOH, SCARAB, SPHINX, STACK, colorOf, kindOf, oriOf } from './pieces';
import { SETUPS } from './setups';
import { SQUARES, squareName } from './squares';

/** One reason a board is not a position to play from; `squares` are the ones at fault, if any. */
export interface SetupProblem {
  text: string;
  squares: number[];
}

/** How many pieces of each kind a side has at the start (its Classic army), indexed by kind; obelisks as singles. */
export function armyOf(edition: Edition | EditionId): readonly number[] {
  const ed = typeof edition === 'string' ? EDITIONS[edition] : edition;
  const known = armies.get(ed.id);
  if (known) return known;
  const r = parseKfenData(SETUPS[ed.id].classic, ed);
  if (!r.ok) throw new Error(`the Classic setup of ${ed.name} does not read: ${r.error.message}`);
  const counts = new Array<number>(8).fill(0);
  for (const p of r.value.board) if (p !== 0 && colorOf(p) === 0) counts[countedKind(p)] += kindOf(p) === STACK ? 2 : 1;
  armies.set(ed.id, counts);
  return counts;
}

/** The armies read so far, by edition (the setups are constants). */
const armies = new Map<EditionId, readonly number[]>();

/** The kind a piece is counted as: a stack is two obelisks. */
const countedKind = (p: number): number => (kindOf(p) === STACK ? OBELISK : kindOf(p));

/** A kind's name in an edition, plural when `n` is not 1: Djeds in Khet 1.0 and Deflexion. */
function kindWord(kind: number, ed: Edition, n = 1): string {
  const one = kind === SCARAB && ed.scarabLetter === 'D' ? 'Djed' : KIND_NAMES[kind];
  if (n === 1) return one;
  return kind === SPHINX ? 'Sphinxes' : `${one}s`;
}

const names = (sqs: number[]): string => {
  const n = sqs.map(squareName);
  return n.length <= 1 ? n.join('') : `${n.slice(0, -1).join(', ')} and ${n[n.length - 1]}`;
};

/** The legal ways a side's Sphinx may face (docs/rules.md §2.1): the first player N or W, the second S or E. */
export function sphinxFacings(color: number): readonly number[] {
  return color === 0 ? [0, 3] : [2, 1];
}

/**
 * Every reason `board` (80 piece codes) is not a position of `edition` to play from, in the order
 * a person would fix them: kinds, Pharaohs, Sphinxes, reserved squares, counts. Empty when it is one.
 */
export function setupProblems(board: ArrayLike<number>, edition: Edition | EditionId): SetupProblem[] {
  const ed = typeof edition === 'string' ? EDITIONS[edition] : edition;
  const problems: SetupProblem[] = [];
  const where: number[][] = Array.from({ length: 16 }, () => []);
  const foreign: number[] = [];
  for (let sq = 0; sq < SQUARES; sq++) {
    const p = board[sq];
    if (p === 0) continue;
    if (!ed.kinds[kindOf(p)]) foreign.push(sq);
    else where[colorOf(p) * 8 + kindOf(p)].push(sq);
  }
  if (foreign.length > 0)
    problems.push({
      text: `${ed.name} has no ${[...new Set(foreign.map((s) => KIND_NAMES[kindOf(board[s])]))].join(' or ')}: remove the piece on ${names(foreign)}.`,
      squares: foreign,
    });
  for (const c of [0, 1]) {
    const at = where[c * 8 + PHARAOH];
    if (at.length === 0)
      problems.push({ text: `${ed.colorNames[c]} has no Pharaoh: each side needs one.`, squares: [] });
    else if (at.length > 1)
      problems.push({
        text: `${ed.colorNames[c]} has ${at.length} Pharaohs (${names(at)}): each side has one.`,
        squares: at,
      });
  }
  if (ed.sphinx) for (const c of [0, 1]) problems.push(...sphinxProblems(where[c * 8 + SPHINX], c, board, ed));
  problems.push(...reservedProblems(board, ed));
  problems.push(...countProblems(where, ed));
  return problems;
}

/** A side's Sphinx: exactly one, on its laser square, facing one of its two ways. */
function sphinxProblems(at: number[], c: number, board: ArrayLike<number>, ed: Edition): SetupProblem[] {
  const home = ed.laserSquare[c];
  const who = ed.colorNames[c];
  const out: SetupProblem[] = [];
  const away = at.filter((sq) => sq !== home);
  if (away.length > 0)
    out.push({
      text: `${who}'s Sphinx may stand only on ${squareName(home)}, not on ${names(away)}.`,
      squares: away,
    });
  if (!at.includes(home)) {
    out.push({ text: `${who} has no Sphinx on ${squareName(home)}: it fires ${who}'s laser.`, squares: [home] });
    return out;
  }
  const facing = oriOf(board[home]);
  const legal = sphinxFacings(c);
  if (!legal.includes(facing))
    out.push({
      text: `${who}'s Sphinx on ${squareName(home)} faces ${'NESW'[facing]}: it may face only ${legal.map((d) => 'NESW'[d]).join(' or ')}.`,
      squares: [home],
    });
  return out;
}

/** Pieces on squares the other side keeps (docs/rules.md §1). */
function reservedProblems(board: ArrayLike<number>, ed: Edition): SetupProblem[] {
  const out: SetupProblem[] = [];
  for (let sq = 0; sq < SQUARES; sq++) {
    const p = board[sq];
    if (p === 0 || !ed.kinds[kindOf(p)]) continue;
    const c = colorOf(p);
    // a Sphinx away from home is said above
    if (kindOf(p) === SPHINX && sq !== ed.laserSquare[c]) continue;
    if ((ed.reserved[c * 3 + (sq >> 5)] & (1 << (sq & 31))) !== 0)
      out.push({
        text: `${ed.colorNames[c]}'s ${kindWord(kindOf(p), ed)} on ${squareName(sq)} stands on a square kept for ${ed.colorNames[c ^ 1]}.`,
        squares: [sq],
      });
  }
  return out;
}

/** More pieces of a kind than the edition gives a side (Pharaohs and Sphinxes are said above). */
function countProblems(where: number[][], ed: Edition): SetupProblem[] {
  const army = armyOf(ed);
  const out: SetupProblem[] = [];
  for (const c of [0, 1]) {
    for (let kind = 1; kind < 8; kind++) {
      if (kind === PHARAOH || kind === SPHINX || kind === STACK || !ed.kinds[kind]) continue;
      const at = kind === OBELISK ? [...where[c * 8 + OBELISK], ...where[c * 8 + STACK]] : where[c * 8 + kind];
      const n = kind === OBELISK ? where[c * 8 + OBELISK].length + 2 * where[c * 8 + STACK].length : at.length;
      if (n <= army[kind]) continue;
      out.push({
        text: `${ed.colorNames[c]} has ${n} ${kindWord(kind, ed, n)}${kind === OBELISK && where[c * 8 + STACK].length > 0 ? ' (a stack counts two)' : ''}: ${ed.name} gives a side ${army[kind]}.`,
        squares: at,
      });
    }
  }
  return out;
}
