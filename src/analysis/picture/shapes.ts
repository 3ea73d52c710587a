/**
 * The pictures' drawing vocabulary: everything is a filled shape (one or more closed outlines,
 * filled by the nonzero rule, in one colour with an opacity), so that the SVG writer (svg.ts) and
 * the rasterizer (raster.ts) draw exactly the same thing. Strokes, circles, rings, arrows and the
 * few letters a picture writes (a small stroke font) become outlines here. Plain numbers, no DOM.
 */

/** A filled shape: outlines as flat lists x0, y0, x1, y1, …; a colour `#rrggbb`; an opacity 0–1. */
export interface Shape {
  outlines: number[][];
  color: string;
  alpha: number;
}

/** An affine map of the plane: x' = a·x + c·y + e, y' = b·x + d·y + f (SVG's matrix order). */
interface Transform {
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
}

const IDENTITY: Transform = { a: 1, b: 0, c: 0, d: 1, e: 0, f: 0 };

/** First `inner`, then `outer`. */
function compose(outer: Transform, inner: Transform): Transform {
  return {
    a: outer.a * inner.a + outer.c * inner.b,
    b: outer.b * inner.a + outer.d * inner.b,
    c: outer.a * inner.c + outer.c * inner.d,
    d: outer.b * inner.c + outer.d * inner.d,
    e: outer.a * inner.e + outer.c * inner.f + outer.e,
    f: outer.b * inner.e + outer.d * inner.f + outer.f,
  };
}

export const translate = (x: number, y: number): Transform => ({ a: 1, b: 0, c: 0, d: 1, e: x, f: y });
export const scale = (s: number): Transform => ({ a: s, b: 0, c: 0, d: s, e: 0, f: 0 });
/** A turn by `deg` degrees clockwise on the screen (y grows downwards). */
export function rotate(deg: number): Transform {
  const r = (deg * Math.PI) / 180;
  const cos = Math.round(Math.cos(r) * 1e12) / 1e12;
  const sin = Math.round(Math.sin(r) * 1e12) / 1e12;
  return { a: cos, b: sin, c: -sin, d: cos, e: 0, f: 0 };
}

/** The outline mapped by `t`. */
function mapOutline(points: readonly number[], t: Transform): number[] {
  const out = new Array<number>(points.length);
  for (let i = 0; i < points.length; i += 2) {
    const x = points[i];
    const y = points[i + 1];
    out[i] = t.a * x + t.c * y + t.e;
    out[i + 1] = t.b * x + t.d * y + t.f;
  }
  return out;
}

/** A list of shapes drawn in order, with the transform that places what is added next. */
export class Canvas {
  readonly shapes: Shape[] = [];
  t: Transform = IDENTITY;

  /** Draws `fn` with `t` applied on top of the current transform. */
  within(t: Transform, fn: () => void): void {
    const was = this.t;
    this.t = compose(was, t);
    fn();
    this.t = was;
  }

  fill(outlines: number[][], color: string, alpha = 1): void {
    if (alpha <= 0 || outlines.length === 0) return;
    this.shapes.push({ outlines: outlines.map((o) => mapOutline(o, this.t)), color, alpha });
  }

  rect(x: number, y: number, w: number, h: number, color: string, alpha = 1): void {
    this.fill([[x, y, x + w, y, x + w, y + h, x, y + h]], color, alpha);
  }

  circle(cx: number, cy: number, r: number, color: string, alpha = 1): void {
    this.fill([circleOutline(cx, cy, r)], color, alpha);
  }

  /** A ring of the given width centred on radius `r`. */
  ring(cx: number, cy: number, r: number, width: number, color: string, alpha = 1): void {
    this.fill([circleOutline(cx, cy, r + width / 2), reversed(circleOutline(cx, cy, r - width / 2))], color, alpha);
  }

  /** A polyline of the given width with round joints and ends, as one shape (no double blending). */
  stroke(points: readonly number[], width: number, color: string, alpha = 1, closed = false): void {
    this.fill(strokeOutlines(points, width, closed), color, alpha);
  }
}

/** A circle as a polygon of 48 sides (clockwise on the screen). */
function circleOutline(cx: number, cy: number, r: number, n = 48): number[] {
  const out: number[] = [];
  for (let k = 0; k < n; k++) {
    const a = (2 * Math.PI * k) / n;
    out.push(cx + r * Math.cos(a), cy + r * Math.sin(a));
  }
  return out;
}

/** The outlines of a stroked polyline: a rectangle per segment and a disc per point, all clockwise. */
function strokeOutlines(points: readonly number[], width: number, closed = false): number[][] {
  const h = width / 2;
  const out: number[][] = [];
  const n = points.length / 2;
  const last = closed ? n : n - 1;
  for (let k = 0; k < last; k++) {
    const x0 = points[2 * k];
    const y0 = points[2 * k + 1];
    const x1 = points[(2 * (k + 1)) % (2 * n)];
    const y1 = points[((2 * (k + 1)) % (2 * n)) + 1];
    const len = Math.hypot(x1 - x0, y1 - y0);
    if (len === 0) continue;
    const nx = (-(y1 - y0) / len) * h;
    const ny = ((x1 - x0) / len) * h;
    out.push(clockwise([x0 + nx, y0 + ny, x1 + nx, y1 + ny, x1 - nx, y1 - ny, x0 - nx, y0 - ny]));
  }
  for (let k = 0; k < n; k++) out.push(circleOutline(points[2 * k], points[2 * k + 1], h, 16));
  return out;
}

/** Twice the signed area (positive: clockwise on the screen, where y grows downwards). */
function area2(p: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < p.length; i += 2) {
    const j = (i + 2) % p.length;
    s += p[i] * p[j + 1] - p[j] * p[i + 1];
  }
  return s;
}

/** The outline run the other way round. */
function reversed(p: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = p.length - 2; i >= 0; i -= 2) out.push(p[i], p[i + 1]);
  return out;
}

/** The outline turned clockwise (so that outlines of one shape add up under the nonzero rule). */
function clockwise(p: number[]): number[] {
  return area2(p) >= 0 ? p : reversed(p);
}

/** A quadratic Bézier from p0 through control c to p1, as `n` points after p0. */
export function quadratic(x0: number, y0: number, cx: number, cy: number, x1: number, y1: number, n = 12): number[] {
  const out: number[] = [];
  for (let k = 1; k <= n; k++) {
    const t = k / n;
    const u = 1 - t;
    out.push(u * u * x0 + 2 * u * t * cx + t * t * x1, u * u * y0 + 2 * u * t * cy + t * t * y1);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// A stroke font: the letters of coordinates and moves (a–j, u, digits, `.`, `+`, `-`), on a grid
// 4 wide and 6 high (the baseline at 6; g and j go below it to 8).
// ---------------------------------------------------------------------------------------------

const BOWL = [4, 3, 3, 2, 1, 2, 0, 3, 0, 5, 1, 6, 3, 6, 4, 5];
const GLYPHS: Record<string, number[][]> = {
  a: [[4, 2, 4, 6], BOWL],
  b: [
    [0, 0, 0, 6],
    [0, 3, 1, 2, 3, 2, 4, 3, 4, 5, 3, 6, 1, 6, 0, 5],
  ],
  c: [BOWL],
  d: [[4, 0, 4, 6], BOWL],
  e: [[0, 4, 4, 4, 4, 3, 3, 2, 1, 2, 0, 3, 0, 5, 1, 6, 3, 6, 4, 5.5]],
  f: [
    [3.5, 0, 2.5, 0, 1.5, 1, 1.5, 6],
    [0, 2.5, 3.5, 2.5],
  ],
  g: [
    [4, 2, 4, 7, 3, 8, 1, 8, 0, 7],
    [4, 3, 3, 2, 1, 2, 0, 3, 0, 4.5, 1, 5.5, 3, 5.5, 4, 4.5],
  ],
  h: [
    [0, 0, 0, 6],
    [0, 3, 1, 2, 3, 2, 4, 3, 4, 6],
  ],
  i: [
    [2, 2, 2, 6],
    [2, 0.2, 2, 0.6],
  ],
  j: [
    [2.5, 2, 2.5, 7, 1.5, 8, 0.5, 8],
    [2.5, 0.2, 2.5, 0.6],
  ],
  u: [
    [0, 2, 0, 5, 1, 6, 3, 6, 4, 5],
    [4, 2, 4, 6],
  ],
  '0': [[1, 0, 3, 0, 4, 1, 4, 5, 3, 6, 1, 6, 0, 5, 0, 1, 1, 0]],
  '1': [
    [1, 1, 2, 0, 2, 6],
    [1, 6, 3, 6],
  ],
  '2': [[0, 1, 1, 0, 3, 0, 4, 1, 4, 2, 0, 6, 4, 6]],
  '3': [[0, 0, 4, 0, 2, 2.5, 3, 2.5, 4, 3.5, 4, 5, 3, 6, 1, 6, 0, 5]],
  '4': [[3, 6, 3, 0, 0, 4, 4, 4]],
  '5': [[4, 0, 0, 0, 0, 2.5, 3, 2.5, 4, 3.5, 4, 5, 3, 6, 1, 6, 0, 5]],
  '6': [[3.5, 0, 2, 0, 0, 2.5, 0, 5, 1, 6, 3, 6, 4, 5, 4, 3.5, 3, 2.5, 1, 2.5, 0, 3.5]],
  '7': [[0, 0, 4, 0, 1.5, 6]],
  '8': [
    [1, 0, 3, 0, 4, 1, 4, 2, 3, 3, 1, 3, 0, 4, 0, 5, 1, 6, 3, 6, 4, 5, 4, 4, 3, 3],
    [1, 3, 0, 2, 0, 1, 1, 0],
  ],
  '9': [[4, 2.5, 3, 3.5, 1, 3.5, 0, 2.5, 0, 1, 1, 0, 3, 0, 4, 1, 4, 3.5, 2, 6, 0.5, 6]],
  '.': [[2, 5.6, 2, 6]],
  '+': [
    [2, 1.5, 2, 5.5],
    [0, 3.5, 4, 3.5],
  ],
  '-': [[0.5, 3.5, 3.5, 3.5]],
};

/** The advance of a letter, in grid units. */
const ADVANCE = 5.5;

/** The width of `text` written `size` high (the height of a digit). */
export function textWidth(text: string, size: number): number {
  return ((text.length * ADVANCE - 1.5) * size) / 6;
}

/**
 * Writes `text` (the letters the font has; others leave a space) with its left end at x and its
 * baseline at y, `size` high, strokes `size / 7` wide.
 */
export function writeText(
  cv: Canvas,
  text: string,
  x: number,
  y: number,
  size: number,
  color: string,
  alpha = 1,
): void {
  const s = size / 6;
  const outlines: number[][] = [];
  for (let k = 0; k < text.length; k++) {
    const g = GLYPHS[text[k]];
    if (g === undefined) continue;
    const ox = x + k * ADVANCE * s;
    for (const line of g) {
      const pts = line.map((v, i) => (i % 2 === 0 ? ox + v * s : y - 6 * s + v * s));
      outlines.push(...strokeOutlines(pts, size / 7));
    }
  }
  cv.fill(outlines, color, alpha);
}
