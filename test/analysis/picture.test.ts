/**
 * Pictures (src/analysis/picture/): the files are read back here by decoders of our own (PNG and
 * APNG with Node's zlib, GIF with an LZW decoder) and must hold the rasterized pixels (exactly for
 * PNG, within the palette's error for GIF); the SVG has one path per shape; and the drawing puts the
 * beam, the pieces and the notes where the position says.
 */
import { deflateSync, inflateSync } from 'node:zlib';
import { zlibSync } from 'fflate';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { SETUPS, parseMove, toKfen } from '../../src/core/index';
import { boardPicture } from '../../src/analysis/picture/board-picture';
import { encodeGif } from '../../src/analysis/picture/gif';
import { lineFrames, positionPicture, stillFile } from '../../src/analysis/picture/picture';
import { encodeApng, encodePng } from '../../src/analysis/picture/png';
import { type Image, rasterize } from '../../src/analysis/picture/raster';
import { load } from '../core/helpers';

const u32 = (b: Uint8Array, at: number): number =>
  ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;

/** The chunks of a PNG file: type and data. */
function chunks(file: Uint8Array): { type: string; data: Uint8Array }[] {
  expect(Array.from(file.subarray(0, 8))).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  const out: { type: string; data: Uint8Array }[] = [];
  for (let at = 8; at < file.length; ) {
    const len = u32(file, at);
    out.push({
      type: String.fromCharCode(...file.subarray(at + 4, at + 8)),
      data: file.subarray(at + 8, at + 8 + len),
    });
    at += 12 + len;
  }
  return out;
}

/** Unfilters zlib'd RGBA rows (every PNG filter type). */
function unfilter(z: Uint8Array, w: number, h: number): Uint8ClampedArray {
  const raw = inflateSync(z);
  const out = new Uint8ClampedArray(w * h * 4);
  const stride = w * 4;
  for (let y = 0; y < h; y++) {
    const f = raw[y * (stride + 1)];
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i];
      const a = i >= 4 ? out[y * stride + i - 4] : 0;
      const b = y > 0 ? out[(y - 1) * stride + i] : 0;
      const c = i >= 4 && y > 0 ? out[(y - 1) * stride + i - 4] : 0;
      const p = a + b - c;
      const pr =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c;
      out[y * stride + i] = (x + [0, a, b, (a + b) >> 1, pr][f]) & 255;
    }
  }
  return out;
}

/** The frames of a PNG or APNG file, composed as a viewer shows them. */
function decodePng(file: Uint8Array): { frames: Image[]; delays: number[] } {
  const cs = chunks(file);
  const w = u32(cs[0].data, 0);
  const h = u32(cs[0].data, 4);
  expect(cs[0].type).toBe('IHDR');
  expect([cs[0].data[8], cs[0].data[9]]).toEqual([8, 6]);
  const frames: Image[] = [];
  const delays: number[] = [];
  let canvas = new Uint8ClampedArray(w * h * 4);
  let fc: Uint8Array | undefined;
  for (const c of cs) {
    if (c.type === 'fcTL') fc = c.data;
    if (c.type !== 'IDAT' && c.type !== 'fdAT') continue;
    const data = c.type === 'fdAT' ? c.data.subarray(4) : c.data;
    const [fw, fh, fx, fy] = fc ? [u32(fc, 4), u32(fc, 8), u32(fc, 12), u32(fc, 16)] : [w, h, 0, 0];
    const px = unfilter(data, fw, fh);
    canvas = canvas.slice();
    for (let y = 0; y < fh; y++) canvas.set(px.subarray(y * fw * 4, (y + 1) * fw * 4), ((fy + y) * w + fx) * 4);
    frames.push({ width: w, height: h, data: canvas });
    if (fc) delays.push((((fc[20] << 8) | fc[21]) * 1000) / ((fc[22] << 8) | fc[23]));
  }
  return { frames, delays };
}

/** The frames of a GIF file, composed (transparency, dispose 1), and their delays. */
function decodeGif(b: Uint8Array): { frames: Image[]; delays: number[] } {
  expect(String.fromCharCode(...b.subarray(0, 6))).toBe('GIF89a');
  const w = b[6] | (b[7] << 8);
  const h = b[8] | (b[9] << 8);
  let at = 13;
  let table: number[][] = [];
  if (b[10] & 0x80) {
    const n = 2 << (b[10] & 7);
    for (let i = 0; i < n; i++) table.push([b[at + 3 * i], b[at + 3 * i + 1], b[at + 3 * i + 2]]);
    at += 3 * n;
  }
  const frames: Image[] = [];
  const delays: number[] = [];
  let canvas = new Uint8ClampedArray(w * h * 4);
  let transparent = -1;
  let delay = 0;
  const subBlocks = (): Uint8Array => {
    const parts: number[] = [];
    while (b[at] !== 0) {
      parts.push(...b.subarray(at + 1, at + 1 + b[at]));
      at += 1 + b[at];
    }
    at++;
    return Uint8Array.from(parts);
  };
  while (at < b.length && b[at] !== 0x3b) {
    if (b[at] === 0x21) {
      const label = b[at + 1];
      at += 2;
      const data = subBlocks();
      if (label === 0xf9) {
        transparent = data[0] & 1 ? data[3] : -1;
        delay = (data[1] | (data[2] << 8)) * 10;
      }
      continue;
    }
    expect(b[at]).toBe(0x2c);
    const x0 = b[at + 1] | (b[at + 2] << 8);
    const y0 = b[at + 3] | (b[at + 4] << 8);
    const fw = b[at + 5] | (b[at + 6] << 8);
    const fh = b[at + 7] | (b[at + 8] << 8);
    const packed = b[at + 9];
    at += 10;
    let local = table;
    if (packed & 0x80) {
      local = [];
      const n = 2 << (packed & 7);
      for (let i = 0; i < n; i++) local.push([b[at + 3 * i], b[at + 3 * i + 1], b[at + 3 * i + 2]]);
      at += 3 * n;
    }
    if (frames.length === 0) table = local;
    const minCode = b[at++];
    const index = lzw(subBlocks(), minCode, fw * fh);
    canvas = canvas.slice();
    for (let p = 0; p < fw * fh; p++) {
      if (index[p] === transparent) continue;
      const q = ((y0 + Math.floor(p / fw)) * w + x0 + (p % fw)) * 4;
      const [r, g, bl] = local[index[p]];
      canvas[q] = r;
      canvas[q + 1] = g;
      canvas[q + 2] = bl;
      canvas[q + 3] = 255;
    }
    frames.push({ width: w, height: h, data: canvas });
    delays.push(delay);
  }
  return { frames, delays };
}

/** GIF's variable-width LZW. */
function lzw(data: Uint8Array, minCode: number, n: number): Uint8Array {
  const out = new Uint8Array(n);
  const clear = 1 << minCode;
  const end = clear + 1;
  let size = minCode + 1;
  let dict: number[][] = [];
  const reset = (): void => {
    dict = [];
    for (let i = 0; i < clear; i++) dict.push([i]);
    dict.push([], []);
    size = minCode + 1;
  };
  reset();
  let bit = 0;
  let prev: number[] | undefined;
  let o = 0;
  while (o < n) {
    let code = 0;
    for (let k = 0; k < size; k++, bit++) code |= ((data[bit >> 3] >> (bit & 7)) & 1) << k;
    if (code === clear) {
      reset();
      prev = undefined;
      continue;
    }
    if (code === end) break;
    const entry = code < dict.length ? dict[code] : prev ? [...prev, prev[0]] : [];
    for (const v of entry) if (o < n) out[o++] = v;
    if (prev) dict.push([...prev, entry[0]]);
    prev = entry;
    if (dict.length === 1 << size && size < 12) size++;
  }
  return out;
}

const classic = load(SETUPS.khet2.classic!);

/** j4i4 a4a3 j1- from Classic, as moves. */
function threeMoves(): number[] {
  const pos = classic.clone();
  return ['j4i4', 'a4a3', 'j1-'].map((t) => {
    const m = parseMove(pos, t);
    if (!m.ok) throw new Error(t);
    pos.make(m.value);
    return m.value;
  });
}

/** The pixel at (x, y) as [r, g, b]. */
const pixel = (img: Image, x: number, y: number): number[] =>
  Array.from(
    img.data.subarray(
      (Math.round(y) * img.width + Math.round(x)) * 4,
      (Math.round(y) * img.width + Math.round(x)) * 4 + 3,
    ),
  );

/** The two compressors the encoders are given: the CLI's (node:zlib) and the page's (fflate). */
const ZLIBS = [
  ['node:zlib', (raw: Uint8Array) => deflateSync(raw, { level: 6 })],
  ['fflate', (raw: Uint8Array) => zlibSync(raw, { level: 6 })],
] as const;

describe('picture files', () => {
  it.each(ZLIBS)('a PNG holds exactly the rasterized pixels (%s)', (_, zlib) => {
    const pic = positionPicture(classic, { beams: 'both', danger: true, squarePx: 24 });
    const img = rasterize(pic.shapes, pic.width, pic.height, pic.background);
    const { frames } = decodePng(encodePng(img, zlib));
    expect(frames).toHaveLength(1);
    expect(frames[0].data).toEqual(img.data);
  });

  it.each(ZLIBS)('an APNG holds every frame exactly, each with its delay (%s)', (_, zlib) => {
    const moves = threeMoves();
    const frames = lineFrames(classic, moves, { squarePx: 16, delayMs: 500 });
    expect(frames).toHaveLength(4);
    const images = frames.map((f) =>
      rasterize(f.picture.shapes, f.picture.width, f.picture.height, f.picture.background),
    );
    const back = decodePng(encodeApng(images, [500, 500, 500, 1500], zlib));
    expect(back.delays).toEqual([500, 500, 500, 1500]);
    back.frames.forEach((f, i) => expect(f.data, `frame ${i}`).toEqual(images[i].data));
    // the start is not changed by drawing the line
    expect(toKfen(classic)).toBe(SETUPS.khet2.classic);
  });

  it('a GIF holds every frame within the palette error, and loops', () => {
    const moves = threeMoves();
    const frames = lineFrames(classic, moves, { squarePx: 24, delayMs: 300 });
    const images = frames.map((f) =>
      rasterize(f.picture.shapes, f.picture.width, f.picture.height, f.picture.background),
    );
    const file = encodeGif(images, [300, 300, 300, 900]);
    expect(new TextDecoder().decode(file.subarray(0, 2000))).toContain('NETSCAPE2.0');
    const back = decodeGif(file);
    expect(back.delays).toEqual([300, 300, 300, 900]);
    back.frames.forEach((f, i) => {
      let sum = 0;
      let far = 0;
      for (let p = 0; p < f.data.length; p += 4)
        for (let c = 0; c < 3; c++) {
          const d = Math.abs(f.data[p + c] - images[i].data[p + c]);
          sum += d;
          if (d > 40) far++;
        }
      expect(sum / ((f.data.length / 4) * 3), `frame ${i}: mean error`).toBeLessThan(4);
      expect(far / (f.data.length / 4), `frame ${i}: pixels far off`).toBeLessThan(0.005);
    });
  });

  it('an SVG has one filled path per shape, and says what it shows', () => {
    const pic = positionPicture(classic, { beams: 'mover', arrows: [{ color: 'G', from: 'c4', to: 'd5' }] });
    const svg = new TextDecoder().decode(stillFile(pic, 'svg', ZLIBS[0][1], 'Khet 2.0 & co'));
    const doc = new XMLParser({ ignoreAttributes: false }).parse(svg);
    expect(doc.svg['@_width']).toBe(String(pic.width));
    expect(doc.svg.title).toBe('Khet 2.0 & co');
    expect(doc.svg.path).toHaveLength(pic.shapes.length);
  });
});

describe('what a picture draws', () => {
  const S = 40;
  const margin = Math.round(S * 0.42);
  /** The centre of a square on the picture (Silver at the bottom, or flipped). */
  const centre = (name: string, flip = false): [number, number] => {
    const f = name.charCodeAt(0) - 97;
    const r = Number(name[1]) - 1;
    return flip
      ? [margin + (9 - f + 0.5) * S, margin + (r + 0.5) * S]
      : [margin + (f + 0.5) * S, margin + (7 - r + 0.5) * S];
  };
  const draw = (opts: Parameters<typeof positionPicture>[1], pos = classic): Image => {
    const pic = positionPicture(pos, { squarePx: S, ...opts });
    return rasterize(pic.shapes, pic.width, pic.height, pic.background);
  };
  const reddish = (p: number[]): boolean => p[0] > 150 && p[0] > p[1] + 40;

  it("draws a side's beam on the squares it crosses and nowhere else", () => {
    const none = draw({ beams: 'none' });
    const mover = draw({ beams: 'mover' });
    // Silver's beam in Classic: j1 up to j4, west to i4 and h4, north to h5, east to j5, up to j8 (docs/rules.md §7.3)
    for (const sq of ['j2', 'j3', 'i4', 'i5', 'j6', 'j7']) {
      const [x, y] = centre(sq);
      expect(reddish(mover ? pixel(mover, x, y) : []), sq).toBe(true);
      expect(reddish(pixel(none, x, y)), `${sq} without beams`).toBe(false);
    }
    for (const sq of ['i2', 'g6', 'a2']) expect(pixel(mover, ...centre(sq)), sq).toEqual(pixel(none, ...centre(sq)));
  });

  it('turns the board for the second player, and draws arrows and marked squares in their colours', () => {
    const flipped = draw({ beams: 'none', flip: true });
    const plain = draw({ beams: 'none' });
    // the Silver Pharaoh on e1 (a light piece) is at the top when flipped
    expect(pixel(flipped, ...centre('e1', true))).toEqual(pixel(plain, ...centre('e1')));
    const marked = draw({
      beams: 'none',
      squareMarks: [{ color: 'B', square: 'g6' }],
      arrows: [{ color: 'G', from: 'b3', to: 'b6' }],
    });
    const [gx, gy] = centre('g6');
    const ring = pixel(marked, gx + S * 0.44, gy);
    expect(ring[2]).toBeGreaterThan(ring[0]); // blue
    const shaft = pixel(marked, ...centre('b4'));
    expect(shaft[1]).toBeGreaterThan(shaft[0] + 30); // green
  });

  it('draws a shot: the beam, the victim crossed out in place, the caption', () => {
    const pos = load('xv4k3P>/10/10/10/10/10/10/4K4X^ s 0 1');
    const m = parseMove(pos, 'j8+');
    if (!m.ok) throw new Error('j8+');
    const frames = lineFrames(pos, [m.value], { squarePx: S });
    const shot = frames[1].picture;
    expect(shot.height).toBe(8 * S + 2 * margin + Math.round(S * 0.7));
    const img = rasterize(shot.shapes, shot.width, shot.height, shot.background);
    for (const sq of ['j5', 'i8', 'g8']) expect(reddish(pixel(img, ...centre(sq))), sq).toBe(true);
    // the Red Pharaoh on f8 is still drawn (dimmed) under the cross
    const before = boardPicture(pos.board, pos.edition, { squarePx: S, caption: '' });
    expect(before.shapes.length).toBeLessThan(shot.shapes.length);
  });
});
