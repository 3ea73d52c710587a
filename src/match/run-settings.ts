/**
 * What makes a run's games what they are (each engine's command, options and limits, the variant,
 * the openings and their seed, the schedule's shape, the game-end rules), written into every game
 * record as the `MatchSettings` tag, so that `-resume` can tell a run resumed with other flags and
 * name the difference (a time control, an option, an engine) instead of mixing two runs in one
 * result. Settings that do not change a game (rounds, concurrency, output files, the SPRT's bounds)
 * are left out: a run may be resumed with more rounds.
 *
 * The tag's text is `key=value` items joined by ` | `; keys hold no `=`. PGN allows a tag value
 * 255 characters at most, so the text is cut at items into `MatchSettings`, `MatchSettings2`, … (each
 * at most 255 characters); an item longer than that (a long engine command) goes on in `key+=rest`
 * items.
 */
import { formatDialect } from '../core/dialect';
import { formatCommandLine } from '../process/command-line';
import type { MatchConfig } from './config';
import { describeLimits } from './timecontrol';

/** The record tag that holds the settings. */
const SETTINGS_TAG = 'MatchSettings';

const SEP = ' | ';

/** The settings as ordered key → value pairs; `names` are the players' names by engine index. */
export function runSettings(cfg: MatchConfig, names: readonly string[]): [string, string][] {
  const o = cfg.openings;
  const adj = cfg.adjudication;
  const items: [string, string][] = [
    ['variant', cfg.variant],
    [
      'openings',
      o.kind === 'setups'
        ? `setups=${o.setups.join(',')} plies=${o.plies}`
        : `file=${o.path} order=${o.order} start=${o.start} plies=${o.plies}`,
    ],
    ['srand', String(cfg.srand)],
    ['games', String(cfg.games)],
    ['tournament', cfg.tournament],
    ['noremoval', String(cfg.noRemovalLimit)],
    [
      'draw',
      adj.draw ? `movenumber=${adj.draw.moveNumber} movecount=${adj.draw.moveCount} score=${adj.draw.score}` : 'off',
    ],
    [
      'resign',
      adj.resign
        ? `movecount=${adj.resign.moveCount} score=${adj.resign.score} twosided=${adj.resign.twoSided}`
        : 'off',
    ],
    ['maxplies', String(adj.maxPlies)],
  ];
  // (only in runs that have them, so that the records of older runs still match)
  if (cfg.rules !== undefined) items.push(['rules', formatDialect(cfg.rules)]);
  if (cfg.plyLimit !== undefined) items.push(['plylimit', String(cfg.plyLimit)]);
  cfg.engines.forEach((e, i) => {
    const who = `engine ${names[i] ?? e.name}`;
    const options = [...e.options]
      .map(([n, v]): [string, string] => [n.toLowerCase(), v])
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([n, v]) => `${n}=${v}`)
      .join(' ');
    items.push([`${who} cmd`, formatCommandLine(e.command)]);
    if (e.proto !== undefined) items.push([`${who} proto`, e.proto]);
    if (e.ponder) items.push([`${who} ponder`, 'true']);
    if (e.dir !== undefined) items.push([`${who} dir`, e.dir]);
    items.push([`${who} options`, options === '' ? '(none)' : options]);
    items.push([`${who} limits`, describeLimits(e.limits)]);
    items.push([`${who} timemargin`, String(e.timeMarginMs)]);
  });
  return items;
}

/** The tag's text. */
export function settingsText(items: readonly [string, string][]): string {
  return items.map(([k, v]) => `${k}=${v}`).join(SEP);
}

/** PGN's limit on a tag value's length. */
export const TAG_VALUE_MAX = 255;

/** The tags that hold the settings, in order, each value at most `TAG_VALUE_MAX` characters. */
export function settingsTags(items: readonly [string, string][]): [string, string][] {
  const pieces: string[] = [];
  for (const [k, v] of items) {
    // An item too long for one tag: `key=start`, then `key+=more` items.
    let rest = v;
    let key = `${k}=`;
    do {
      const room = TAG_VALUE_MAX - key.length;
      pieces.push(key + rest.slice(0, room));
      rest = rest.slice(room);
      key = `${k}+=`;
    } while (rest.length > 0);
  }
  const values: string[] = [];
  for (const p of pieces) {
    const last = values.length - 1;
    if (last >= 0 && values[last].length + SEP.length + p.length <= TAG_VALUE_MAX) values[last] += SEP + p;
    else values.push(p);
  }
  return values.map((v, i) => [i === 0 ? SETTINGS_TAG : `${SETTINGS_TAG}${i + 1}`, v]);
}

/** The settings text a record's tags hold (`MatchSettings`, `MatchSettings2`, …), or undefined without them. */
export function recordedSettings(tags: ReadonlyMap<string, string>): string | undefined {
  const first = tags.get(SETTINGS_TAG);
  if (first === undefined) return undefined;
  const parts = [first];
  for (let i = 2; tags.has(`${SETTINGS_TAG}${i}`); i++) parts.push(tags.get(`${SETTINGS_TAG}${i}`)!);
  return parts.join(SEP);
}

function parseSettings(text: string): Map<string, string> {
  const m = new Map<string, string>();
  for (const item of text.split(SEP)) {
    const eq = item.indexOf('=');
    if (eq <= 0) continue;
    const key = item.slice(0, eq);
    if (key.endsWith('+') && m.has(key.slice(0, -1)))
      m.set(key.slice(0, -1), m.get(key.slice(0, -1))! + item.slice(eq + 1));
    else m.set(key, item.slice(eq + 1));
  }
  return m;
}

/**
 * The differences between the settings a record was played with (`recorded`, the tag's text) and
 * this run's, in words (`engine old limits: 10+0.1 in the record, 5+0.05 now`); empty when they agree.
 */
export function settingsDifferences(recorded: string, now: readonly [string, string][]): string[] {
  const was = parseSettings(recorded);
  const is = new Map(now);
  const out: string[] = [];
  for (const [k, v] of now) {
    const w = was.get(k);
    if (w === undefined) out.push(`${k}: not in the record, ${v} now`);
    else if (w !== v) out.push(`${k}: ${w} in the record, ${v} now`);
  }
  for (const [k, w] of was) if (!is.has(k)) out.push(`${k}: ${w} in the record, not in this run`);
  return out;
}
