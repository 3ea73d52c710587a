/**
 * The Import/export card's pictures, made in the page with no server (the static build too): the
 * shown position as PNG or SVG (its last move, both lasers when *Display* shows them, the danger
 * map when it is on), and the line through the shown position, from the start to its end, as an
 * animated GIF with each shot drawn. The drawing and the encoders are `thoth picture`'s
 * (src/analysis/picture/).
 */
import { zlibSync } from 'fflate';
import { animationFile, lineFrames, positionPicture, stillFile } from '../../../analysis/picture/picture';
import { toKfen } from '../../../core/index';
import type { PageState } from '../state/state';
import * as S from '../state/state';
import { lineEnd, nodeAt, positionAt } from '../state/tree';

export type PictureKind = 'png' | 'svg' | 'gif';

/** The PNG encoder's compressor in the page (no zlib of the browser's is synchronous). */
const pageZlib = (raw: Uint8Array): Uint8Array => zlibSync(raw, { level: 6 });

const TYPES: Record<PictureKind, string> = { png: 'image/png', svg: 'image/svg+xml', gif: 'image/gif' };

/** The file of a picture of the page's state: its name, its type and its bytes. */
export function pictureOf(s: PageState, kind: PictureKind): { name: string; type: string; bytes: Uint8Array } {
  if (kind === 'gif') {
    const end = lineEnd(s.tree, s.path);
    const moves = end.map((_, i) => nodeAt(s.tree, end.slice(0, i + 1))?.ply.move ?? -1).filter((m) => m >= 0);
    const frames = lineFrames(positionAt(s.tree, []), moves, { flip: s.flipped, squarePx: 48, delayMs: 1000 });
    return {
      name: `thoth-line-${moves.length}-moves.gif`,
      type: TYPES.gif,
      bytes: animationFile(frames, 'gif', pageZlib),
    };
  }
  const pos = S.viewPosition(s);
  const pic = positionPicture(pos, {
    flip: s.flipped,
    beams: s.settings.showLasers ? 'both' : 'none',
    danger: (s.settings.danger ?? 'off') !== 'off',
  });
  return {
    name: `thoth-position-move-${pos.moveNumber}.${kind}`,
    type: TYPES[kind],
    bytes: stillFile(pic, kind, pageZlib, `${pos.edition.name}: ${toKfen(pos)}`),
  };
}

/** Saves a file the way a download link does (a blob address, clicked, then let go). */
export function download(doc: Document, file: { name: string; type: string; bytes: Uint8Array }): void {
  const a = doc.createElement('a');
  a.href = URL.createObjectURL(new Blob([new Uint8Array(file.bytes)], { type: file.type }));
  a.download = file.name;
  a.hidden = true;
  doc.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
}
