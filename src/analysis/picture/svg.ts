/**
 * A picture (board-picture.ts) as a standalone SVG file: one path per shape, filled by the
 * nonzero rule, so that it shows exactly what the rasterizer draws.
 */
import type { Picture } from './board-picture';

const ENTITIES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' };

const hundredths = (x: number): string => String(Math.round(x * 100) / 100);

/** The SVG text of a picture. */
export function pictureSvg(p: Picture, title = 'Khet position'): string {
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${p.width}" height="${p.height}" viewBox="0 0 ${p.width} ${p.height}">`,
    `<title>${title.replace(/[<>&"]/g, (c) => ENTITIES[c])}</title>`,
    `<rect width="${p.width}" height="${p.height}" fill="${p.background}"/>`,
  ];
  for (const s of p.shapes) {
    const d = s.outlines
      .map((o) => {
        let t = `M${hundredths(o[0])} ${hundredths(o[1])}`;
        for (let i = 2; i < o.length; i += 2) t += `L${hundredths(o[i])} ${hundredths(o[i + 1])}`;
        return `${t}Z`;
      })
      .join('');
    const a = s.alpha < 1 ? ` fill-opacity="${hundredths(s.alpha)}"` : '';
    out.push(`<path d="${d}" fill="${s.color}"${a}/>`);
  }
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
