/**
 * The status page of a distributed run: fetches /api/status every two seconds and shows the
 * standings, Elo ± error, the workers and the LLR over games against the SPRT bounds. Data goes
 * into the page as text only.
 */
import { plural } from '../../core/plural';
import type { RunStatus } from '../status';

interface Api {
  runs: string[];
  status: RunStatus | null;
  llr: [number, number][];
  /** Why the run's status cannot be shown (written by another version of Thoth, or by hand). */
  error?: string;
}

const $ = <T extends Element>(id: string): T => document.getElementById(id) as unknown as T;
const el = {
  title: $<HTMLElement>('title'),
  meta: $<HTMLElement>('meta'),
  encounters: $<HTMLTableSectionElement>('encounters').querySelector('tbody')!,
  ratings: $<HTMLTableElement>('ratings'),
  sprtSection: $<HTMLElement>('sprt-section'),
  sprtText: $<HTMLElement>('sprt-text'),
  llr: $<SVGSVGElement>('llr'),
  workers: $<HTMLUListElement>('workers'),
  summary: $<HTMLPreElement>('summary'),
};

const numberText = (x: number | null, digits = 1): string => (x === null ? '—' : x.toFixed(digits));
const plusMinus = (x: number | null, e: number | null): string =>
  x === null ? '—' : `${x >= 0 ? '+' : ''}${x.toFixed(1)} ± ${e === null ? '∞' : e.toFixed(1)}`;

function row(cells: string[]): HTMLTableRowElement {
  const tr = document.createElement('tr');
  for (const c of cells) {
    const td = document.createElement('td');
    td.textContent = c;
    tr.append(td);
  }
  return tr;
}

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The LLR after each counted pair, with the bounds and zero, scaled to the box. */
function drawLlr(points: [number, number][], lower: number, upper: number): void {
  const g = el.llr;
  g.replaceChildren();
  const W = 640;
  const H = 300;
  const L = 48;
  const R = 12;
  const T = 12;
  const B = 30;
  // a loop, not Math.max(...points): spreading a long series overflows the stack
  let maxGames = 10;
  let lo = lower * 1.15;
  let hi = upper * 1.15;
  for (const [games, llr] of points) {
    maxGames = Math.max(maxGames, games);
    lo = Math.min(lo, llr);
    hi = Math.max(hi, llr);
  }
  const x = (games: number): number => L + ((W - L - R) * games) / maxGames;
  const y = (llr: number): number => T + ((H - T - B) * (hi - llr)) / (hi - lo);
  g.append(svg('line', { class: 'axis', x1: L, y1: T, x2: L, y2: H - B }));
  g.append(svg('line', { class: 'axis', x1: L, y1: H - B, x2: W - R, y2: H - B }));
  for (const [v, cls, label] of [
    [upper, 'bound', `H1 ${upper.toFixed(2)}`],
    [lower, 'bound', `H0 ${lower.toFixed(2)}`],
    [0, 'zero', '0'],
  ] as const) {
    g.append(svg('line', { class: cls, x1: L, y1: y(v), x2: W - R, y2: y(v) }));
    g.append(svg('text', { x: 4, y: y(v) + 4 }, label));
  }
  g.append(svg('text', { x: W - R, y: H - 8, 'text-anchor': 'end' }, `${plural(maxGames, 'game')}`));
  g.append(svg('text', { x: L, y: H - 8 }, '0'));
  const path = [[0, 0] as [number, number], ...points]
    .map(([a, b]) => `${x(a).toFixed(1)},${y(b).toFixed(1)}`)
    .join(' ');
  g.append(svg('polyline', { class: 'llr', points: path }));
}

function render(d: Api): void {
  const s = d.status;
  if (!s) {
    el.meta.textContent =
      d.error ?? (d.runs.length === 0 ? 'No distributed run in this Redis yet.' : 'No status for this run yet.');
    return;
  }
  document.title = `Thoth: ${s.names.join(' vs ')} (${plural(s.games, 'game')})`;
  el.title.textContent = `${s.names.join(' vs ')}`;
  const age = Math.max(0, Math.round((Date.now() - s.updated) / 1000));
  el.meta.replaceChildren();
  const state = document.createElement('strong');
  state.className = `state-${s.state}`;
  state.textContent = s.state;
  el.meta.append(
    `Run ${s.run} | ${s.variant} | ${s.timeControl} | `,
    state,
    `${s.message ? ` (${s.message})` : ''} | games ${s.games}${s.total !== null ? `/${s.total}` : ''} | pairs queued ${s.pairsQueued}, in progress ${s.pairsActive} | updated ${age} s ago`,
  );
  el.encounters.replaceChildren(
    ...s.encounters.map((e) => {
      const n = e.wins + e.losses + e.draws;
      return row([
        `${e.a} vs ${e.b}`,
        `${e.wins} - ${e.losses} - ${e.draws}`,
        n > 0 ? ((e.wins + e.draws / 2) / n).toFixed(3) : '—',
        plusMinus(e.elo, e.eloError),
        plusMinus(e.nElo, e.nEloError),
        e.los === null ? '—' : `${numberText(e.los)} %`,
        `[${e.penta.join(', ')}]`,
      ]);
    }),
  );
  el.ratings.hidden = s.ratings.length === 0;
  el.ratings
    .querySelector('tbody')!
    .replaceChildren(
      ...[...s.ratings]
        .sort((a, b) => (b.elo ?? -1e9) - (a.elo ?? -1e9))
        .map((r) => row([r.name, numberText(r.elo), String(r.games), numberText(r.points)])),
    );
  el.sprtSection.hidden = s.sprt === null;
  if (s.sprt) {
    const p = s.sprt;
    el.sprtText.textContent =
      `elo0 ${p.elo0}, elo1 ${p.elo1} (${p.model}), alpha ${p.alpha}, beta ${p.beta}: LLR ${numberText(p.llr, 2)} ` +
      `(bounds ${p.lower.toFixed(2)} … ${p.upper.toFixed(2)})${p.decision ? ` - ${p.decision} accepted` : ''}`;
    drawLlr(d.llr, p.lower, p.upper);
  }
  el.workers.replaceChildren(
    ...s.workers.map((w) => {
      const li = document.createElement('li');
      li.textContent = `${w.id}: ${w.busy}/${w.concurrency} slots busy, ${plural(w.pairs, 'pair')} played`;
      return li;
    }),
    ...Object.entries(s.refusals).map(([w, why]) => {
      const li = document.createElement('li');
      li.textContent = `${w} refuses this run: ${why}`;
      return li;
    }),
  );
  if (s.workers.length === 0 && Object.keys(s.refusals).length === 0) {
    const li = document.createElement('li');
    li.textContent = 'no worker connected';
    el.workers.replaceChildren(li);
  }
  el.summary.textContent = s.lines.join('\n');
}

async function refresh(): Promise<void> {
  try {
    const r = await fetch(
      `api/status${location.search.includes('run=') ? `?run=${new URLSearchParams(location.search).get('run')}` : ''}`,
      { credentials: 'same-origin' },
    );
    if (r.ok) render((await r.json()) as Api);
    else el.meta.textContent = `The server answers ${r.status}`;
  } catch {
    el.meta.textContent = 'The status server is not reachable.';
  }
}

void refresh();
setInterval(() => void refresh(), 2000);
