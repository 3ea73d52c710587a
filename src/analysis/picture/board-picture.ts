/**
 * A picture of a Khet board as shapes (shapes.ts), drawn the way the GUI's board draws it: the
 * squares with the reserved ones tinted, the pieces turned to face their way, the last move, the
 * beams (a move's shot with its victim crossed out), lichess-coloured arrows and marked squares,
 * the danger map (src/core/threats.ts), coordinates and a caption. svg.ts writes it as SVG,
 * raster.ts draws it into pixels for png.ts and gif.ts. Plain data, no DOM: `thoth picture` and
 * the page's export buttons draw the same picture.
 */
import {
  ANUBIS,
  BLOCK,
  type BeamStep,
  type Edition,
  OBELISK,
  PHARAOH,
  PYRAMID,
  SCARAB,
  SPHINX,
  STACK,
  type ThreatMap,
  colorOf,
  fileOf,
  kindOf,
  moveFrom,
  moveTo,
  oriOf,
  rankOf,
} from '../../core/index';
import type { NoteArrow, SquareMark } from '../../core/record';
import { Canvas, type Shape, quadratic, rotate, scale, textWidth, translate, writeText } from './shapes';

/** What a picture shows besides the pieces. */
interface PictureOptions {
  /** The side of a square in pixels (default 64). */
  squarePx?: number;
  /** Red (the second player) at the bottom. */
  flip?: boolean;
  /** Beams to draw, each as tracePath's steps from its laser. */
  beams?: readonly (readonly BeamStep[])[];
  /** A square whose piece a shot removes now: drawn crossed out, with a burst. */
  killed?: number;
  /** The move just made: its squares tinted. */
  lastMove?: number;
  arrows?: readonly NoteArrow[];
  squareMarks?: readonly SquareMark[];
  /** The danger map to overlay: a dot on each square the beam can reach, a ring on each piece it can remove. */
  danger?: ThreatMap;
  /** A line under the board (the move, in the font's letters: a–j, u, digits, `.`, `+`, `-`). */
  caption?: string;
}

/** A picture ready to be written: its shapes, its size in pixels and the colour under them. */
export interface Picture {
  shapes: Shape[];
  width: number;
  height: number;
  background: string;
}

const BACKGROUND = '#1d2028';
const SQUARE = '#2c313c';
const GRID = '#1a1d24';
const COORD = '#8b8f99';
const MIRROR = '#8fe3ff';
const DIR_X = [0, 1, 0, -1];
const DIR_Y = [-1, 0, 1, 0];

/** lichess's colours of arrows and marked squares. */
const SHAPE_RGB: Readonly<Record<string, string>> = { G: '#15781b', R: '#882020', Y: '#e68f00', B: '#003088' };

/** Each side's piece colour and edge, by edition: Silver and Red, or Gold and Silver in Deflexion. */
function sideColors(ed: Edition): [string, string][] {
  const silver: [string, string] = ['#c9d0d9', '#5b6472'];
  const red: [string, string] = ['#d3362a', '#6d130d'];
  const gold: [string, string] = ['#e8b83a', '#7a5a0c'];
  return ed.id === 'deflexion' ? [gold, silver] : [silver, red];
}

/** The reserved squares' tints: [first player's, second player's]. */
function reservedTints(ed: Edition): [string, string] {
  return ed.id === 'deflexion' ? ['#4a4634', '#424855'] : ['#434853', '#4d3236'];
}

/** Where things go: the square's top-left corner and the screen direction of the board's N, E, S, W. */
class Layout {
  constructor(
    readonly s: number,
    readonly margin: number,
    readonly flip: boolean,
  ) {}
  x(sq: number): number {
    const f = this.flip ? 9 - fileOf(sq) : fileOf(sq);
    return this.margin + f * this.s;
  }
  y(sq: number): number {
    const r = this.flip ? rankOf(sq) : 7 - rankOf(sq);
    return this.margin + r * this.s;
  }
  cx(sq: number): number {
    return this.x(sq) + this.s / 2;
  }
  cy(sq: number): number {
    return this.y(sq) + this.s / 2;
  }
  dx(dir: number): number {
    return this.flip ? -DIR_X[dir] : DIR_X[dir];
  }
  dy(dir: number): number {
    return this.flip ? -DIR_Y[dir] : DIR_Y[dir];
  }
}

/** The picture of `board` (piece codes by square) in edition `ed`. */
export function boardPicture(board: ArrayLike<number>, ed: Edition, opts: PictureOptions = {}): Picture {
  const s = opts.squarePx ?? 64;
  const margin = Math.round(s * 0.42);
  const captionH = opts.caption !== undefined ? Math.round(s * 0.7) : 0;
  const width = 10 * s + 2 * margin;
  const height = 8 * s + 2 * margin + captionH;
  const L = new Layout(s, margin, opts.flip === true);
  const cv = new Canvas();
  drawSquares(cv, L, ed);
  drawCoordinates(cv, L);
  if (opts.lastMove !== undefined && opts.lastMove >= 0) {
    for (const sq of new Set([moveFrom(opts.lastMove), moveTo(opts.lastMove)]))
      cv.rect(L.x(sq), L.y(sq), s, s, '#e8b83a', 0.22);
  }
  if (opts.danger !== undefined) drawDangerSquares(cv, L, opts.danger);
  const colors = sideColors(ed);
  for (let sq = 0; sq < 80; sq++) {
    const p = board[sq];
    if (p === 0) continue;
    drawPiece(cv, L, sq, p, colors, sq === opts.killed ? 0.45 : 1);
  }
  if (opts.danger !== undefined) drawDangerPieces(cv, L, board, opts.danger);
  for (const m of opts.squareMarks ?? []) drawSquareMark(cv, L, m);
  for (const beam of opts.beams ?? []) drawBeam(cv, L, beam, ed.sphinx);
  if (opts.killed !== undefined && opts.killed >= 0) drawKill(cv, L, opts.killed);
  for (const a of opts.arrows ?? []) drawArrow(cv, L, a);
  if (opts.caption !== undefined) {
    const size = s * 0.34;
    writeText(cv, opts.caption, (width - textWidth(opts.caption, size)) / 2, height - captionH * 0.32, size, '#e9e6df');
  }
  return { shapes: cv.shapes, width, height, background: BACKGROUND };
}

function drawSquares(cv: Canvas, L: Layout, ed: Edition): void {
  const tints = reservedTints(ed);
  cv.rect(L.margin - 2, L.margin - 2, 10 * L.s + 4, 8 * L.s + 4, GRID);
  for (let sq = 0; sq < 80; sq++) {
    let color = SQUARE;
    for (const c of [0, 1]) if ((ed.reserved[c * 3 + (sq >> 5)] >>> (sq & 31)) & 1) color = tints[c ^ 1];
    const inset = L.s * 0.012;
    cv.rect(L.x(sq) + inset, L.y(sq) + inset, L.s - 2 * inset, L.s - 2 * inset, color);
  }
}

function drawCoordinates(cv: Canvas, L: Layout): void {
  const size = L.s * 0.2;
  for (let f = 0; f < 10; f++) {
    const sq = f;
    const t = 'abcdefghij'[f];
    const x = L.cx(sq) - textWidth(t, size) / 2;
    writeText(cv, t, x, L.margin + 8 * L.s + L.margin * 0.62, size, COORD);
  }
  for (let r = 0; r < 8; r++) {
    const sq = r * 10;
    const t = String(r + 1);
    writeText(cv, t, (L.margin - textWidth(t, size)) / 2, L.cy(sq) + size / 2, size, COORD);
  }
}

/** A piece of colour codes `colors[side]` = [fill, edge], drawn in a square of 100 facing north, then placed. */
function drawPiece(cv: Canvas, L: Layout, sq: number, p: number, colors: [string, string][], alpha: number): void {
  const [fill, edge] = colors[colorOf(p)];
  const turn = (oriOf(p) * 90 + (L.flip ? 180 : 0)) % 360;
  cv.within(translate(L.cx(sq), L.cy(sq)), () =>
    cv.within(scale(L.s / 100), () =>
      cv.within(rotate(turn), () => {
        switch (kindOf(p)) {
          case PYRAMID: {
            const body = [-40, -40, -40, 40, 40, 40];
            cv.stroke(body, 6, edge, alpha, true);
            cv.fill([body], fill, alpha);
            cv.fill([[-40, -40, -14, 14, -40, 40]], '#ffffff', 0.22 * alpha);
            cv.stroke([-37, -37, 37, 37], 9, MIRROR, alpha);
            break;
          }
          case SCARAB:
            cv.within(rotate(45), () => {
              cv.stroke([-31, 0, 31, 0], 46, edge, alpha);
              cv.stroke([-31, 0, 31, 0], 40, fill, alpha);
              cv.stroke([-44, 0, 44, 0], 10, MIRROR, alpha);
            });
            break;
          case ANUBIS: {
            const body = [-30, -26, 30, -26, 30, 38, -30, 38];
            cv.stroke(body, 5, edge, alpha, true);
            cv.fill([body], fill, alpha);
            cv.circle(0, 10, 7, '#000000', 0.35 * alpha);
            const shield = [
              -40,
              -22,
              ...quadratic(-40, -22, 0, -50, 40, -22),
              40,
              -12,
              ...quadratic(40, -12, 0, -38, -40, -12),
            ];
            cv.stroke(shield, 3, '#6b4e0c', alpha, true);
            cv.fill([shield], '#f2d27a', alpha);
            break;
          }
          case SPHINX: {
            const body = [-38, -38, 38, -38, 38, 38, -38, 38];
            cv.stroke(body, 5, edge, alpha, true);
            cv.fill([body], fill, alpha);
            cv.fill([[0, -46, 17, -12, -17, -12]], '#ff3b2f', alpha);
            cv.circle(0, 0, 17, '#1b1e26', alpha);
            cv.circle(0, 0, 8, '#ff5a47', alpha);
            break;
          }
          case PHARAOH:
            cv.circle(0, 0, 42, edge, alpha);
            cv.circle(0, 0, 39, fill, alpha);
            cv.ring(0, 0, 31, 2.5, '#000000', 0.35 * alpha);
            cv.fill([[-22, 14, -24, -12, -11, 0, 0, -20, 11, 0, 24, -12, 22, 14]], '#f2d27a', alpha);
            break;
          case OBELISK:
            drawObelisk(cv, 0, 0, fill, edge, alpha);
            break;
          case STACK:
            drawObelisk(cv, 7, 7, fill, edge, alpha);
            drawObelisk(cv, -7, -7, fill, edge, alpha);
            cv.within(rotate(-turn), () => {
              cv.circle(26, -26, 14, '#e8b83a', alpha);
              cv.circle(26, -26, 12, '#11131a', alpha);
              writeText(cv, '2', 26 - textWidth('2', 14) / 2, -19, 14, '#e8b83a', alpha);
            });
            break;
        }
      }),
    ),
  );
}

function drawObelisk(cv: Canvas, dx: number, dy: number, fill: string, edge: string, alpha: number): void {
  const body = [dx - 31, dy - 31, dx + 31, dy - 31, dx + 31, dy + 31, dx - 31, dy + 31];
  cv.stroke(body, 5, edge, alpha, true);
  cv.fill([body], fill, alpha);
  cv.stroke([dx - 31, dy - 31, dx + 31, dy + 31], 2, '#000000', 0.3 * alpha);
  cv.stroke([dx + 31, dy - 31, dx - 31, dy + 31], 2, '#000000', 0.3 * alpha);
  cv.rect(dx - 9, dy - 9, 18, 18, '#ffffff', 0.35 * alpha);
}

/** A beam through the centres of its squares: from its Sphinx, or from the board's edge for a fixed laser. */
function drawBeam(cv: Canvas, L: Layout, steps: readonly BeamStep[], sphinx: boolean): void {
  if (steps.length === 0) return;
  const pts: number[] = [];
  const first = steps[0];
  if (!sphinx) {
    // a fixed laser's beam comes in from outside the board: north on j1, south on a8
    const dir = first.square === 9 ? 0 : 2;
    pts.push(L.cx(first.square) - (L.dx(dir) * L.s) / 2, L.cy(first.square) - (L.dy(dir) * L.s) / 2);
  }
  for (const st of steps) pts.push(L.cx(st.square), L.cy(st.square));
  const last = steps[steps.length - 1];
  if (last.out < 4)
    pts.push(L.cx(last.square) + (L.dx(last.out) * L.s) / 2, L.cy(last.square) + (L.dy(last.out) * L.s) / 2);
  cv.stroke(pts, L.s * 0.2, '#ff2a1a', 0.55);
  cv.stroke(pts, L.s * 0.05, '#ffd2c8', 0.95);
  if (last.out === BLOCK) cv.circle(L.cx(last.square), L.cy(last.square), L.s * 0.08, '#ffd2c8');
}

/** A removed piece: a red cross over it and a burst. */
function drawKill(cv: Canvas, L: Layout, sq: number): void {
  const cx = L.cx(sq);
  const cy = L.cy(sq);
  const r = L.s * 0.36;
  const star: number[] = [];
  for (let k = 0; k < 16; k++) {
    const a = (Math.PI * k) / 8;
    const rr = k % 2 === 0 ? r : r * 0.5;
    star.push(cx + rr * Math.cos(a), cy + rr * Math.sin(a));
  }
  cv.fill([star], '#ffcf40', 0.55);
  const d = L.s * 0.28;
  cv.stroke([cx - d, cy - d, cx + d, cy + d], L.s * 0.09, '#ff3b2f', 0.95);
  cv.stroke([cx + d, cy - d, cx - d, cy + d], L.s * 0.09, '#ff3b2f', 0.95);
}

/** An arrow from centre to centre, its head ending near the target's centre (as lichess draws them). */
function drawArrow(cv: Canvas, L: Layout, a: NoteArrow): void {
  const from = squareIndex(a.from);
  const to = squareIndex(a.to);
  const color = SHAPE_RGB[a.color] ?? SHAPE_RGB.G;
  if (from < 0 || to < 0) return;
  if (from === to) {
    drawSquareMark(cv, L, { color: a.color, square: a.to });
    return;
  }
  const x0 = L.cx(from);
  const y0 = L.cy(from);
  const x1 = L.cx(to);
  const y1 = L.cy(to);
  const len = Math.hypot(x1 - x0, y1 - y0);
  const ux = (x1 - x0) / len;
  const uy = (y1 - y0) / len;
  const head = L.s * 0.36;
  const tipX = x1 - ux * L.s * 0.12;
  const tipY = y1 - uy * L.s * 0.12;
  const bx = tipX - ux * head;
  const by = tipY - uy * head;
  const w = L.s * 0.15;
  const hw = L.s * 0.22;
  cv.fill(
    [
      [
        x0 - uy * (w / 2),
        y0 + ux * (w / 2),
        bx - uy * (w / 2),
        by + ux * (w / 2),
        bx - uy * hw,
        by + ux * hw,
        tipX,
        tipY,
        bx + uy * hw,
        by - ux * hw,
        bx + uy * (w / 2),
        by - ux * (w / 2),
        x0 + uy * (w / 2),
        y0 - ux * (w / 2),
      ],
    ],
    color,
    0.8,
  );
}

function drawSquareMark(cv: Canvas, L: Layout, m: SquareMark): void {
  const sq = squareIndex(m.square);
  if (sq < 0) return;
  cv.ring(L.cx(sq), L.cy(sq), L.s * 0.44, L.s * 0.07, SHAPE_RGB[m.color] ?? SHAPE_RGB.G, 0.85);
}

/** The danger map's squares: a dot where the beam can reach after one move. */
function drawDangerSquares(cv: Canvas, L: Layout, map: ThreatMap): void {
  for (let sq = 0; sq < 80; sq++)
    if ((map.reach[sq >> 5] >>> (sq & 31)) & 1) cv.circle(L.cx(sq), L.cy(sq), L.s * 0.09, '#ff5a47', 0.55);
}

/** The danger map's pieces: a ring round each piece a shot can remove, a thick halo round a Pharaoh in danger. */
function drawDangerPieces(cv: Canvas, L: Layout, board: ArrayLike<number>, map: ThreatMap): void {
  for (let sq = 0; sq < 80; sq++) {
    if (!((map.hits[sq >> 5] >>> (sq & 31)) & 1)) continue;
    const pharaoh = kindOf(board[sq]) === PHARAOH && colorOf(board[sq]) !== map.attacker;
    cv.ring(L.cx(sq), L.cy(sq), L.s * 0.46, L.s * (pharaoh ? 0.1 : 0.05), '#ff3b2f', pharaoh ? 0.9 : 0.7);
  }
}

function squareIndex(name: string): number {
  const f = name.charCodeAt(0) - 97;
  const r = name.charCodeAt(1) - 49;
  return name.length === 2 && f >= 0 && f < 10 && r >= 0 && r < 8 ? r * 10 + f : -1;
}
