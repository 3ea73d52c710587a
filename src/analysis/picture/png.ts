/**
 * PNG and animated PNG (APNG) files of RGBA images: the chunks written here, the image data
 * compressed by the host's zlib (node:zlib in the CLI, fflate in the page: no module here pays for
 * loading a compressor it may not use). Each row filtered by `Sub` (the
 * boards are mostly runs of one colour). APNG is the PNG extension every current browser shows:
 * `acTL` (frames and plays), then per frame `fcTL` (size, place, delay) and the data (`IDAT` for
 * the first frame, which is also the still image, `fdAT` after it).
 */
import type { Image } from './raster';

/** Compresses bytes into the zlib format (RFC 1950) at level 6: the PNG's image data. */
export type Zlib = (raw: Uint8Array) => Uint8Array;

const CRC_TABLE = new Uint32Array(256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  CRC_TABLE[n] = c >>> 0;
}

function crc32(bytes: Uint8Array, start: number, end: number): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ bytes[i]) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A chunk: length, type, data, CRC of type and data. */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  v.setUint32(8 + data.length, crc32(out, 4, 8 + data.length));
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const SIGNATURE = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);

function header(width: number, height: number): Uint8Array {
  const d = new Uint8Array(13);
  const v = new DataView(d.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  d[8] = 8; // bits per channel
  d[9] = 6; // RGBA
  return chunk('IHDR', d);
}

/** The image's rows, each with filter byte 1 (`Sub`: each byte less the one 4 to its left), compressed. */
function imageData(img: Image, zlib: Zlib): Uint8Array {
  const stride = img.width * 4;
  const raw = new Uint8Array((stride + 1) * img.height);
  for (let y = 0; y < img.height; y++) {
    const o = y * (stride + 1);
    const s = y * stride;
    raw[o] = 1;
    for (let i = 0; i < stride; i++) raw[o + 1 + i] = (img.data[s + i] - (i >= 4 ? img.data[s + i - 4] : 0)) & 255;
  }
  return zlib(raw);
}

/** A PNG file of one image. */
export function encodePng(img: Image, zlib: Zlib): Uint8Array {
  return concat([
    SIGNATURE,
    header(img.width, img.height),
    chunk('IDAT', imageData(img, zlib)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

/** The smallest rectangle holding every pixel where `b` differs from `a` (x, y, width, height), or a pixel's. */
function changed(a: Image, b: Image): [number, number, number, number] {
  let x0 = b.width;
  let y0 = b.height;
  let x1 = -1;
  let y1 = -1;
  const w = b.width;
  for (let y = 0; y < b.height; y++) {
    for (let x = 0; x < w; x++) {
      const p = (y * w + x) * 4;
      if (a.data[p] !== b.data[p] || a.data[p + 1] !== b.data[p + 1] || a.data[p + 2] !== b.data[p + 2]) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        y1 = y;
      }
    }
  }
  return x1 < 0 ? [0, 0, 1, 1] : [x0, y0, x1 - x0 + 1, y1 - y0 + 1];
}

function crop(img: Image, x: number, y: number, w: number, h: number): Image {
  const data = new Uint8ClampedArray(w * h * 4);
  for (let r = 0; r < h; r++)
    data.set(img.data.subarray(((y + r) * img.width + x) * 4, ((y + r) * img.width + x + w) * 4), r * w * 4);
  return { width: w, height: h, data };
}

/**
 * An animated PNG of frames of one size, each shown for its delay (ms), played for ever. After
 * the first, a frame holds only the rectangle where it differs from the one before (drawn over
 * it: `dispose_op` none, `blend_op` source).
 */
export function encodeApng(frames: readonly Image[], delaysMs: readonly number[], zlib: Zlib): Uint8Array {
  if (frames.length === 0) throw new Error('an animation needs at least one frame');
  const { width, height } = frames[0];
  const parts: Uint8Array[] = [SIGNATURE, header(width, height)];
  const actl = new Uint8Array(8);
  new DataView(actl.buffer).setUint32(0, frames.length); // then plays: 0 = for ever
  parts.push(chunk('acTL', actl));
  let seq = 0;
  frames.forEach((f, i) => {
    if (f.width !== width || f.height !== height) throw new Error('the frames of an animation differ in size');
    const [x, y, w, h] = i === 0 ? [0, 0, width, height] : changed(frames[i - 1], f);
    const fc = new Uint8Array(26);
    const v = new DataView(fc.buffer);
    v.setUint32(0, seq++);
    v.setUint32(4, w);
    v.setUint32(8, h);
    v.setUint32(12, x);
    v.setUint32(16, y);
    v.setUint16(20, Math.max(0, Math.min(65535, Math.round(delaysMs[i] ?? 1000))));
    v.setUint16(22, 1000); // the delay in thousandths of a second
    parts.push(chunk('fcTL', fc));
    const data = imageData(i === 0 ? f : crop(f, x, y, w, h), zlib);
    if (i === 0) {
      parts.push(chunk('IDAT', data));
    } else {
      const fd = new Uint8Array(4 + data.length);
      new DataView(fd.buffer).setUint32(0, seq++);
      fd.set(data, 4);
      parts.push(chunk('fdAT', fd));
    }
  });
  parts.push(chunk('IEND', new Uint8Array(0)));
  return concat(parts);
}
