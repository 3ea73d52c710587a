/**
 * Animated GIF files of RGBA images with gifenc: one palette of up to 256 colours for the whole
 * animation, quantized from samples of every frame (the boards share their colours), each frame
 * mapped to it and written with its delay; the animation loops for ever.
 */
import * as gifencModule from 'gifenc';
import type { Image } from './raster';

/**
 * gifenc's functions: named exports where a bundler reads the package (esbuild, the page), the
 * CommonJS module object as the default export where Node's ESM loader does (the CLI).
 */
const gifenc: Pick<typeof gifencModule, 'GIFEncoder' | 'quantize' | 'applyPalette'> =
  typeof gifencModule.quantize === 'function' ? gifencModule : gifencModule.default;

/** An animated GIF of frames of one size, each shown for its delay (ms). */
export function encodeGif(frames: readonly Image[], delaysMs: readonly number[]): Uint8Array {
  if (frames.length === 0) throw new Error('an animation needs at least one frame');
  const { width, height } = frames[0];
  // samples of every frame, at most about a million pixels in all, for one shared palette
  const per = Math.max(1, Math.floor((frames.length * width * height) / 1_000_000));
  const n = Math.ceil((width * height) / per);
  const sample = new Uint8ClampedArray(frames.length * n * 4);
  let at = 0;
  for (const f of frames) {
    if (f.width !== width || f.height !== height) throw new Error('the frames of an animation differ in size');
    for (let p = 0; p < width * height; p += per) {
      sample.set(f.data.subarray(p * 4, p * 4 + 4), at);
      at += 4;
    }
  }
  // 255 colours and, at index 255, the "unchanged" one: a pixel a frame leaves as the frame
  // before drew it is transparent there (frames are kept: dispose 1), which compresses to little
  const palette = gifenc.quantize(sample.subarray(0, at), 255, { format: 'rgb444' });
  while (palette.length < 255) palette.push([0, 0, 0]);
  palette.push([0, 0, 0]);
  const gif = gifenc.GIFEncoder();
  let before: Uint8Array | undefined;
  frames.forEach((f, i) => {
    const index = gifenc.applyPalette(f.data, palette.slice(0, 255), 'rgb444');
    const shown = index.slice();
    if (before !== undefined) for (let p = 0; p < index.length; p++) if (index[p] === before[p]) index[p] = 255;
    gif.writeFrame(index, width, height, {
      palette: i === 0 ? palette : undefined,
      delay: delaysMs[i] ?? 1000,
      repeat: 0,
      transparent: before !== undefined,
      transparentIndex: 255,
      dispose: 1,
    });
    before = shown;
  });
  gif.finish();
  return gif.bytes();
}
