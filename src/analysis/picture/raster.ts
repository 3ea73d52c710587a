/**
 * A rasterizer for the pictures' shapes (shapes.ts): each shape filled by the nonzero rule,
 * anti-aliased (four sample rows per pixel, exact coverage across each row), blended over the
 * image in order. Plain JavaScript, no canvas: the same pixels in Node and in the page.
 */
import type { Shape } from './shapes';

const SUB = 4;

/** An RGBA image, 8 bits a channel, rows top to bottom. */
export interface Image {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

/** `#rrggbb` as [r, g, b]. */
function rgb(color: string): [number, number, number] {
  const n = Number.parseInt(color.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** Draws the shapes in order on an image of the given size filled with `background`. */
export function rasterize(shapes: readonly Shape[], width: number, height: number, background: string): Image {
  const data = new Uint8ClampedArray(width * height * 4);
  const [br, bg, bb] = rgb(background);
  for (let i = 0; i < width * height; i++) {
    data[i * 4] = br;
    data[i * 4 + 1] = bg;
    data[i * 4 + 2] = bb;
    data[i * 4 + 3] = 255;
  }
  const cover = new Float32Array(width + 1);
  const xs: number[] = [];
  const ws: number[] = [];
  for (const shape of shapes) fillShape(shape, { width, height, data }, cover, xs, ws);
  return { width, height, data };
}

/** The edges of a shape as rows of 5 (x0, y0, x1, y1, winding: +1 downwards, −1 upwards), by y0; horizontal ones left out. */
function edgesOf(shape: Shape): Float64Array {
  const rows: number[][] = [];
  for (const o of shape.outlines) {
    const n = o.length / 2;
    for (let k = 0; k < n; k++) {
      const x0 = o[2 * k];
      const y0 = o[2 * k + 1];
      const j = (k + 1) % n;
      const x1 = o[2 * j];
      const y1 = o[2 * j + 1];
      if (y0 === y1) continue;
      rows.push(y0 < y1 ? [x0, y0, x1, y1, 1] : [x1, y1, x0, y0, -1]);
    }
  }
  rows.sort((a, b) => a[1] - b[1]);
  const e = new Float64Array(rows.length * 5);
  rows.forEach((r, i) => e.set(r, i * 5));
  return e;
}

/** Adds the coverage of the span [a, b) (in pixels, one sample row) to `cover`, clipped to the image. */
function addSpan(cover: Float32Array, a: number, b: number, width: number): void {
  if (a < 0) a = 0;
  if (b > width) b = width;
  if (b <= a) return;
  const ia = Math.floor(a);
  const ib = Math.floor(b);
  const w = 1 / SUB;
  if (ia === ib) {
    cover[ia] += (b - a) * w;
    return;
  }
  cover[ia] += (ia + 1 - a) * w;
  for (let x = ia + 1; x < ib; x++) cover[x] += w;
  if (ib < width) cover[ib] += (b - ib) * w;
}

function fillShape(shape: Shape, img: Image, cover: Float32Array, xs: number[], ws: number[]): void {
  const edges = edgesOf(shape);
  const count = edges.length / 5;
  if (count === 0) return;
  let bottom = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < count; i++) bottom = Math.max(bottom, edges[i * 5 + 3]);
  const y0 = Math.max(0, Math.floor(edges[1]));
  const y1 = Math.min(img.height, Math.ceil(bottom));
  const [r, g, b] = rgb(shape.color);
  const alpha = shape.alpha;
  const { width, data } = img;
  // the edges that cross the current sample row: those from `next` on have not started yet
  const active: number[] = [];
  let next = 0;
  for (let y = y0; y < y1; y++) {
    let minX = width;
    let maxX = -1;
    for (let s = 0; s < SUB; s++) {
      const sy = y + (s + 0.5) / SUB;
      while (next < count && edges[next * 5 + 1] <= sy) active.push(next++);
      xs.length = 0;
      ws.length = 0;
      let keep = 0;
      for (let a = 0; a < active.length; a++) {
        const i = active[a] * 5;
        const ey0 = edges[i + 1];
        const ey1 = edges[i + 3];
        if (sy >= ey1) continue; // ended: dropped
        active[keep++] = active[a];
        if (sy < ey0) continue;
        const x = edges[i] + ((sy - ey0) / (ey1 - ey0)) * (edges[i + 2] - edges[i]);
        // insertion by x (a row crosses few edges)
        let k = xs.length;
        xs.push(x);
        ws.push(edges[i + 4]);
        while (k > 0 && xs[k - 1] > x) {
          xs[k] = xs[k - 1];
          ws[k] = ws[k - 1];
          k--;
        }
        xs[k] = x;
        ws[k] = edges[i + 4];
      }
      active.length = keep;
      let wind = 0;
      for (let k = 0; k + 1 < xs.length; k++) {
        wind += ws[k];
        if (wind !== 0) {
          addSpan(cover, xs[k], xs[k + 1], width);
          minX = Math.min(minX, Math.max(0, Math.floor(xs[k])));
          maxX = Math.max(maxX, Math.min(width - 1, Math.floor(xs[k + 1])));
        }
      }
    }
    for (let x = minX; x <= maxX; x++) {
      const c = cover[x];
      if (c <= 0) continue;
      cover[x] = 0;
      const a = Math.min(1, c) * alpha;
      const p = (y * width + x) * 4;
      data[p] = data[p] + (r - data[p]) * a;
      data[p + 1] = data[p + 1] + (g - data[p + 1]) * a;
      data[p + 2] = data[p + 2] + (b - data[p + 2]) * a;
    }
    if (maxX + 1 < cover.length) cover[maxX + 1] = 0;
  }
}
