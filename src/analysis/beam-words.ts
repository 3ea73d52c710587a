/**
 * A beam in words: the mirrors it bounces off (whose, and how many belong to the side it is about),
 * and how it ends. The danger map (`thoth analyse --threats`), the explanations of a review's marks,
 * of a puzzle's solution and of a Learn step say a shot with these sentences. Plain data, no Node:
 * the GUI bundles it.
 */
import {
  ANUBIS,
  BLOCK,
  KILL,
  PHARAOH,
  SPHINX,
  STACK,
  type BeamStep,
  type Edition,
  colorOf,
  kindOf,
  squareName,
} from '../core/index';
import { pieceName } from './words';

/** A piece the beam bounced off. */
interface Mirror {
  square: number;
  piece: number;
  color: number;
}

/** What a beam does, read from its steps (tracePath's). */
export interface BeamReading {
  /** The side that fired it. */
  shooter: number;
  /** Each piece it bounced off, in order (a Scarab met twice is listed twice). */
  mirrors: Mirror[];
  /** `hit`: a piece is removed; `blocked`: a Sphinx or an Anubis's shield stops it; `off`: it leaves the board. */
  end: 'hit' | 'blocked' | 'off';
  /** The square where it ends (the last square before the edge for `off`). */
  endSquare: number;
  /** The piece there (0 for `off` on an empty square). */
  endPiece: number;
}

/** Reads a beam's steps: with `sphinx`, the first step is the Sphinx that fires (not a mirror). */
export function readBeam(steps: readonly BeamStep[], shooter: number, sphinx: boolean): BeamReading {
  const mirrors: Mirror[] = [];
  steps.forEach((s, k) => {
    if (s.piece !== 0 && s.out < 4 && !(sphinx && k === 0))
      mirrors.push({ square: s.square, piece: s.piece, color: colorOf(s.piece) });
  });
  const last = steps[steps.length - 1];
  const end = last.out === KILL ? 'hit' : last.out === BLOCK ? 'blocked' : 'off';
  return { shooter, mirrors, end, endSquare: last.square, endPiece: last.piece };
}

/** `Red's`. */
function owner(ed: Edition, color: number): string {
  return `${ed.colorNames[color]}'s`;
}

/** `a, b and c`. */
export function listWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The mirrors in words, runs of one owner's kind merged: `Silver's Pyramids on c5 and c4, Red's Scarab on e5`. */
function mirrorWords(ed: Edition, mirrors: readonly Mirror[]): string {
  const groups: { color: number; name: string; squares: string[] }[] = [];
  for (const m of mirrors) {
    const name = pieceName(m.piece, ed);
    const g = groups[groups.length - 1];
    if (g !== undefined && g.color === m.color && g.name === name) g.squares.push(squareName(m.square));
    else groups.push({ color: m.color, name, squares: [squareName(m.square)] });
  }
  return listWords(
    groups.map((g) => `${owner(ed, g.color)} ${g.name}${g.squares.length > 1 ? 's' : ''} on ${listWords(g.squares)}`),
  );
}

/** How the beam ends, in words (`hits the Silver Pharaoh on e1: Red wins`). */
function endWords(ed: Edition, r: BeamReading): string {
  const at = squareName(r.endSquare);
  const p = r.endPiece;
  if (r.end === 'off') return `leaves the board past ${at}`;
  const c = colorOf(p);
  const whose = c === r.shooter ? `${owner(ed, c)} own` : owner(ed, c);
  const kind = kindOf(p);
  if (r.end === 'blocked') {
    if (kind === ANUBIS) return `stops on the shield of ${whose} Anubis on ${at}`;
    if (kind === SPHINX) return `stops on ${whose} Sphinx on ${at}`;
    return `stops on ${at}`;
  }
  if (kind === PHARAOH) return `hits ${whose} Pharaoh on ${at}: ${ed.colorNames[c ^ 1]} wins`;
  if (kind === STACK) return `takes the top Obelisk off ${whose} stack on ${at}`;
  return `removes ${whose} ${pieceName(p, ed)} on ${at}`;
}

/**
 * The beam in words, after "the beam": `bounces off Red's Pyramid on a5 and Silver's Pyramids on
 * c5 and c4, and hits Silver's Pharaoh on e1: Red wins (2 of its 3 mirrors are Silver's own
 * pieces)`. `about` is the side the sentence is told to (a review's mover, the side in danger):
 * when some mirrors are its pieces and it did not fire, the sentence says how many.
 */
export function beamSentence(ed: Edition, r: BeamReading, about: number = r.shooter ^ 1): string {
  const end = endWords(ed, r);
  if (r.mirrors.length === 0) return `runs straight and ${end}`;
  let s = `bounces off ${mirrorWords(ed, r.mirrors)}, and ${end}`;
  const mine = r.mirrors.filter((m) => m.color === about).length;
  if (about !== r.shooter && mine > 0) {
    const name = ed.colorNames[about];
    s +=
      r.mirrors.length === 1
        ? ` (its one mirror is ${name}'s own piece)`
        : mine === r.mirrors.length
          ? ` (all ${r.mirrors.length} of its mirrors are ${name}'s own pieces)`
          : ` (${mine} of its ${r.mirrors.length} mirrors ${mine === 1 ? 'is' : 'are'} ${name}'s own piece${mine === 1 ? '' : 's'})`;
  }
  return s;
}
