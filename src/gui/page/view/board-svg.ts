/**
 * The board's SVG pieces: each piece's shape (drawn facing north, in a square of 100), its short
 * label and its title in words, and `pieceSvg` for pieces drawn outside the board. Pure markup:
 * the board (board.ts) places and turns them.
 */
import {
  ANUBIS,
  DIR_WORDS,
  OBELISK,
  PHARAOH,
  PYRAMID,
  SCARAB,
  SPHINX,
  STACK,
  colorOf,
  kindName,
  kindOf,
  oriOf,
  type Edition,
} from '../../../core/index';

const NS = 'http://www.w3.org/2000/svg';
/** The side of a square in the board's SVG units. */
export const SQ = 100;

export const el = <K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number> = {},
  cls?: string,
): SVGElementTagNameMap[K] => {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (cls) e.setAttribute('class', cls);
  return e;
};

/** The SVG of a piece, centred on (0, 0), in a square of 100; oriented pieces drawn facing N. */
export function pieceShape(kind: number): string {
  switch (kind) {
    case PYRAMID:
      // Right angle at the south-west corner; the mirror is the long side, facing north-east.
      return (
        '<polygon class="body" points="-40,-40 -40,40 40,40"/>' +
        '<polygon class="facet" points="-40,-40 -40,40 -14,14"/>' +
        '<line class="mirror" x1="-37" y1="-37" x2="37" y2="37"/>'
      );
    case SCARAB:
      // Two back-to-back mirrors along the diagonal `\`.
      return (
        '<g transform="rotate(45)">' +
        '<rect class="body" x="-52" y="-21" width="104" height="42" rx="20"/>' +
        '<rect class="mirror-bar" x="-49" y="-5" width="98" height="10" rx="4"/>' +
        '</g>'
      );
    case ANUBIS:
      // A body with a shield on its front (north).
      return (
        '<rect class="body" x="-30" y="-26" width="60" height="64" rx="16"/>' +
        '<circle class="mark" cx="0" cy="10" r="7"/>' +
        '<path class="shield" d="M -40 -22 Q 0 -50 40 -22 L 40 -12 Q 0 -38 -40 -12 Z"/>'
      );
    case SPHINX:
      // The laser: its lens points where it fires (north).
      return (
        '<rect class="body" x="-38" y="-38" width="76" height="76" rx="14"/>' +
        '<polygon class="lens" points="0,-46 17,-12 -17,-12"/>' +
        '<circle class="lens-ring" r="17"/>' +
        '<circle class="lens-core" r="8"/>'
      );
    case PHARAOH:
      return (
        '<circle class="body" r="40"/>' +
        '<circle class="ring" r="31"/>' +
        '<path class="crown" d="M -22 14 L -24 -12 L -11 0 L 0 -20 L 11 0 L 24 -12 L 22 14 Z"/>'
      );
    case OBELISK:
      return obelisk(0, 0);
    case STACK:
      return (
        obelisk(7, 7, 'ob-bottom') +
        obelisk(-7, -7, 'ob-top') +
        '<circle class="badge" cx="26" cy="-26" r="13"/><text class="badge-text" x="26" y="-21">2</text>'
      );
    default:
      return '';
  }
}

function obelisk(dx: number, dy: number, cls = ''): string {
  return (
    `<g transform="translate(${dx},${dy})"${cls ? ` class="${cls}"` : ''}>` +
    '<rect class="body" x="-31" y="-31" width="62" height="62" rx="5"/>' +
    '<path class="facet-line" d="M -31 -31 L 31 31 M 31 -31 L -31 31"/>' +
    '<rect class="cap" x="-9" y="-9" width="18" height="18" rx="2"/>' +
    '</g>'
  );
}

/** Short text describing a piece, for titles and tests: `P^`, `s>`, `K`. */
export function pieceLabel(p: number): string {
  const k = kindOf(p);
  let c = ['', 'X', 'K', 'P', 'A', 'S', 'O', 'T'][k];
  if (colorOf(p) === 1) c = c.toLowerCase();
  if (k === SPHINX || k === PYRAMID || k === ANUBIS || k === SCARAB) c += '^>v<'[oriOf(p)];
  return c;
}

export function pieceTitle(p: number, ed: Edition): string {
  const k = kindOf(p);
  const name = kindName(k, ed.scarabLetter);
  let s = `${ed.colorNames[colorOf(p)]} ${name}`;
  const o = oriOf(p);
  if (k === SPHINX) s += `, firing ${DIR_WORDS[o]}`;
  if (k === ANUBIS) s += `, shield ${DIR_WORDS[o]}`;
  if (k === PYRAMID) s += `, mirror facing ${['north-east', 'south-east', 'south-west', 'north-west'][o]}`;
  if (k === SCARAB) s += o % 2 === 0 ? ', mirror \\' : ', mirror /';
  return s;
}

/** SVG markup for a piece, for use outside the board (captured pieces, legends). */
export function pieceSvg(p: number, size = 28): string {
  const rot = kindOf(p) === PHARAOH || kindOf(p) >= OBELISK ? 0 : oriOf(p) * 90;
  return (
    `<svg class="mini" viewBox="-50 -50 100 100" width="${size}" height="${size}" aria-hidden="true">` +
    `<g class="piece p${colorOf(p)}" transform="rotate(${rot})">${pieceShape(kindOf(p))}</g></svg>`
  );
}
