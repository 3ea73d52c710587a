/**
 * The evaluation graph of a game's main line, as SVG text: the first player's win chance at each
 * position (0 = lost, 1 = won), the shown position marked, the reviewed mistakes dotted, each
 * point's win chance its title (shown on hover). Pure: it draws what it is given.
 */
import type { GraphMark } from '../../../analysis/svg-graph';
import { plural } from '../../../core/plural';
import { winText } from '../state/evaluation';

const GRAPH_W = 600;
const GRAPH_H = 120;

const x = (i: number, n: number): number => (n <= 0 ? 0 : (i / n) * GRAPH_W);
const y = (w: number): number => (1 - w) * GRAPH_H;

/**
 * `wins[i]` is the win chance at the position after i moves (null where not known); `current` the
 * shown position's index, or -1 off the main line.
 */
export function graphSvg(wins: readonly (number | null)[], current: number, marks: readonly GraphMark[] = []): string {
  const n = wins.length - 1;
  const known = wins
    .map((w, i) => (w === null ? null : ([x(i, n), y(w)] as const)))
    .filter((p): p is readonly [number, number] => p !== null);
  const parts: string[] = [
    `<svg viewBox="0 0 ${GRAPH_W} ${GRAPH_H}" preserveAspectRatio="none" role="img" aria-label="Evaluation graph">`,
  ];
  parts.push(`<line class="mid" x1="0" y1="${GRAPH_H / 2}" x2="${GRAPH_W}" y2="${GRAPH_H / 2}"/>`);
  if (known.length > 0) {
    const line = known.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(' ');
    const first = known[0];
    const last = known[known.length - 1];
    parts.push(
      `<polygon class="area" points="${first[0].toFixed(1)},${GRAPH_H} ${line} ${last[0].toFixed(1)},${GRAPH_H}"/>`,
    );
  }
  if (current >= 0 && n > 0)
    parts.push(`<line class="cursor-line" x1="${x(current, n)}" y1="0" x2="${x(current, n)}" y2="${GRAPH_H}"/>`);
  wins.forEach((w, i) => {
    if (w !== null)
      parts.push(
        `<circle class="dot" data-index="${i}" cx="${x(i, n).toFixed(1)}" cy="${y(w).toFixed(1)}" r="2.5"><title>${winText(w)} after ${plural(i, 'ply', 'plies')}</title></circle>`,
      );
  });
  for (const m of marks) {
    const index = m.ply + 1; // the position after the move
    const w = wins[index];
    if (w === null || w === undefined) continue;
    const cls = m.judgement === 'inaccuracy' ? 'mark-dubious' : 'mark-bad';
    parts.push(
      `<circle class="${cls}" data-index="${index}" cx="${x(index, n).toFixed(1)}" cy="${y(w).toFixed(1)}" r="5"/>`,
    );
  }
  parts.push('</svg>');
  return parts.join('');
}

/** The position index a click at `fraction` (0–1 across the graph) means. */
export function graphIndexAt(fraction: number, positions: number): number {
  if (positions <= 1) return 0;
  return Math.max(0, Math.min(positions - 1, Math.round(fraction * (positions - 1))));
}
