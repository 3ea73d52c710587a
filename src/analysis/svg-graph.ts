/**
 * The evaluation of a game as a standalone SVG: the first player's win chance after every ply
 * (the area above the middle in the first player's colour, below it in the second's), the marked
 * moves as dots with a tooltip, move numbers along the bottom. Plain strings, no Node, no DOM.
 */
import type { Judgement } from './review';

/**
 * A reviewed move on a win-chance graph: the one shape of `thoth analyse --graph` and the GUI
 * page's graph (src/gui/page/view/graph.ts).
 */
export interface GraphMark {
  /** Index of the move in the game, from 0 (the dot sits on the position after it). */
  ply: number;
  judgement: Judgement;
  /** Tooltip text (`12. e4d5?? better f4g5`); none: no tooltip. */
  text?: string;
}

export interface GraphInput {
  /** The first player's win chance (0–1) of each position: before the first move, then after each. */
  wins: readonly number[];
  marks?: readonly GraphMark[];
  /** A title line (players, result). */
  title: string;
  /** The colours' names, [first, second] (`Silver`, `Red`). */
  colorNames: readonly [string, string];
  /** Move number and side of the first move, for the labels along the bottom. */
  firstMoveNumber?: number;
  firstSide?: 0 | 1;
}

const WIDTH = 800;
const HEIGHT = 320;
const LEFT = 48;
const RIGHT = 16;
const TOP = 40;
const BOTTOM = 36;
const MARK_COLORS: Record<Judgement, string> = { inaccuracy: '#d4a017', mistake: '#e67e22', blunder: '#c0392b' };

/** Text safe in XML content and attribute values. */
function xmlEscape(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const f = (x: number): string => (Math.round(x * 10) / 10).toString();

/** The graph as an SVG document (with its XML declaration). */
export function evalGraphSvg(g: GraphInput): string {
  const n = Math.max(1, g.wins.length - 1);
  const plotW = WIDTH - LEFT - RIGHT;
  const plotH = HEIGHT - TOP - BOTTOM;
  const x = (ply: number): number => LEFT + (plotW * ply) / n;
  const y = (win: number): number => TOP + plotH * (1 - Math.min(1, Math.max(0, win)));
  const mid = y(0.5);
  const pts = g.wins.map((w, i) => `${f(x(i))},${f(y(w))}`);
  const area =
    g.wins.length > 0 ? `M${f(x(0))},${f(mid)} L${pts.join(' L')} L${f(x(g.wins.length - 1))},${f(mid)} Z` : '';
  const [first, second] = g.colorNames;
  const out: string[] = [];
  out.push('<?xml version="1.0" encoding="UTF-8"?>');
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
  );
  out.push(`<title>${xmlEscape(g.title)}</title>`);
  out.push(
    `<desc>${xmlEscape(`${first}'s win chance after every ply (50% = even), from the engine's scores.`)}</desc>`,
  );
  out.push('<defs>');
  out.push(`<clipPath id="above"><rect x="${LEFT}" y="${TOP}" width="${plotW}" height="${f(mid - TOP)}"/></clipPath>`);
  out.push(
    `<clipPath id="below"><rect x="${LEFT}" y="${f(mid)}" width="${plotW}" height="${f(TOP + plotH - mid)}"/></clipPath>`,
  );
  out.push('</defs>');
  out.push(`<rect x="0" y="0" width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`);
  out.push(`<text x="${LEFT}" y="18" font-size="14" font-weight="bold">${xmlEscape(g.title)}</text>`);
  out.push(
    `<text x="${WIDTH - RIGHT}" y="18" text-anchor="end" fill="#555555">${xmlEscape(`${first}'s win chance`)}</text>`,
  );
  out.push(`<rect x="${LEFT}" y="${TOP}" width="${plotW}" height="${plotH}" fill="#fafafa" stroke="#cccccc"/>`);
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    const yy = f(y(p));
    const style = p === 0.5 ? 'stroke="#999999" stroke-dasharray="4 3"' : 'stroke="#dddddd"';
    out.push(`<line x1="${LEFT}" y1="${yy}" x2="${WIDTH - RIGHT}" y2="${yy}" ${style}/>`);
    out.push(
      `<text x="${LEFT - 6}" y="${yy}" text-anchor="end" dominant-baseline="middle" fill="#555555">${Math.round(p * 100)}%</text>`,
    );
  }
  if (area !== '') {
    out.push(`<path d="${area}" fill="#9aa7b4" fill-opacity="0.75" clip-path="url(#above)"/>`);
    out.push(`<path d="${area}" fill="#c0392b" fill-opacity="0.35" clip-path="url(#below)"/>`);
    out.push(`<polyline points="${pts.join(' ')}" fill="none" stroke="#333333" stroke-width="1.5"/>`);
  }
  // Move numbers along the bottom: about ten labels.
  const first0 = g.firstMoveNumber ?? 1;
  const side0 = g.firstSide ?? 0;
  const step = Math.max(2, Math.ceil(n / 10 / 2) * 2);
  for (let ply = 0; ply <= n; ply += step) {
    const moveNo = first0 + Math.floor((ply + side0) / 2);
    out.push(`<text x="${f(x(ply))}" y="${HEIGHT - BOTTOM + 16}" text-anchor="middle" fill="#555555">${moveNo}</text>`);
  }
  out.push(`<text x="${f(LEFT + plotW / 2)}" y="${HEIGHT - 6}" text-anchor="middle" fill="#555555">move</text>`);
  out.push(`<text x="${LEFT + 6}" y="${TOP + 14}" fill="#333333">${xmlEscape(first)} better</text>`);
  out.push(`<text x="${LEFT + 6}" y="${TOP + plotH - 6}" fill="#333333">${xmlEscape(second)} better</text>`);
  for (const m of g.marks ?? []) {
    const i = Math.min(m.ply + 1, g.wins.length - 1);
    if (i < 0) continue;
    out.push(
      `<circle cx="${f(x(i))}" cy="${f(y(g.wins[i]))}" r="4.5" fill="${MARK_COLORS[m.judgement]}" stroke="#ffffff" stroke-width="1">` +
        `${m.text === undefined ? '' : `<title>${xmlEscape(m.text)}</title>`}</circle>`,
    );
  }
  // The legend of the dots.
  let lx = WIDTH - RIGHT - 290;
  for (const [mark, name] of [
    ['?!', 'inaccuracy'],
    ['?', 'mistake'],
    ['??', 'blunder'],
  ] as const) {
    out.push(`<circle cx="${lx}" cy="${HEIGHT - 10}" r="4.5" fill="${MARK_COLORS[name]}"/>`);
    out.push(`<text x="${lx + 8}" y="${HEIGHT - 10}" dominant-baseline="middle" fill="#555555">${mark} ${name}</text>`);
    lx += 98;
  }
  out.push('</svg>');
  return out.join('\n') + '\n';
}
