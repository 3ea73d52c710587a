/**
 * What makes a run's games what they are (each engine's command, options and limits, the variant,
 * the openings and their seed, the schedule's shape, the game-end rules), written into every game
 * record as the `MatchSettings` tag, so that `-resume` can tell a run resumed with other flags and
 * name the difference (a time control, an option, an engine) instead of mixing two runs in one
 * result. Settings that do not change a game (rounds, concurrency, output files, the SPRT's bounds)
 * are left out: a run may be resumed with more rounds.
 *
 * The tag's text is `key=value` items joined by ` | `; keys hold no `=`.
 */
import { formatCommandLine } from '../process/command-line';
import type { MatchConfig } from './config';
import { describeLimits } from './timecontrol';

/** The record tag that holds the settings. */
export const SETTINGS_TAG = 'MatchSettings';

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
  cfg.engines.forEach((e, i) => {
    const who = `engine ${names[i] ?? e.name}`;
    const options = [...e.options]
      .map(([n, v]): [string, string] => [n.toLowerCase(), v])
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([n, v]) => `${n}=${v}`)
      .join(' ');
    items.push([`${who} cmd`, formatCommandLine(e.command)]);
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

function parseSettings(text: string): Map<string, string> {
  const m = new Map<string, string>();
  for (const item of text.split(SEP)) {
    const eq = item.indexOf('=');
    if (eq > 0) m.set(item.slice(0, eq), item.slice(eq + 1));
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
