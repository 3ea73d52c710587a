/** What the `thoth db` actions share: the filters, the database file, the network. */
import type Database from 'better-sqlite3';
import { isEditionId } from '../core/index';
import { RESULT_TOKENS } from '../core/record';
import type { Network } from '../nnue/network';
import { loadNetworkFile } from '../node/network-file';
import { DbError, openDatabase } from '../db/database';
import type { GameFilter } from '../db/query';
import { CommandError, UsageError, intOption, type CommandSpec, type ParsedArgs } from './args';

export const FILTERS: CommandSpec['options'] = [
  { name: 'player', value: 'NAME', help: 'games of this player, either side (`*` matches any text; no case)' },
  { name: 'white', value: 'NAME', help: 'games whose first player is NAME' },
  { name: 'black', value: 'NAME', help: 'games whose second player is NAME' },
  { name: 'result', value: 'R', help: '1-0, 0-1, 1/2-1/2 (or draw) or *' },
  {
    name: 'ending',
    value: 'WORDS',
    help: 'how it ended: words of the Termination tag or the ending comment (e.g. repetition)',
  },
  { name: 'min-plies', value: 'N', help: 'games at least N plies long' },
  { name: 'max-plies', value: 'N', help: 'games at most N plies long' },
  { name: 'from', value: 'DATE', help: 'games played on or after DATE (YYYY.MM.DD)' },
  { name: 'to', value: 'DATE', help: 'games played on or before DATE' },
  { name: 'reviewed', help: 'only reviewed games' },
];

/** The filter the options give (`withSetup`: --setup filters games, else it is a position's start). */
export function filterOf(args: ParsedArgs, withSetup: boolean): GameFilter {
  const one = (n: string): string | undefined => args.options.get(n)?.[0];
  const f: GameFilter = {};
  if (one('player') !== undefined) f.player = one('player');
  if (one('white') !== undefined) f.white = one('white');
  if (one('black') !== undefined) f.black = one('black');
  const result = one('result');
  if (result !== undefined) {
    const r = result === 'draw' ? '1/2-1/2' : result;
    if (!(RESULT_TOKENS as readonly string[]).includes(r))
      throw new UsageError(`--result must be 1-0, 0-1, 1/2-1/2 (draw) or *, not '${result}'`);
    f.result = r;
  }
  const variant = one('variant');
  if (variant !== undefined) {
    if (!isEditionId(variant)) throw new UsageError(`unknown variant '${variant}' (khet2, khet1 or deflexion)`);
    f.variant = variant;
  }
  if (withSetup && one('setup') !== undefined) f.setup = one('setup');
  if (one('ending') !== undefined) f.ending = one('ending');
  if (args.options.has('min-plies')) f.minPlies = intOption(args, 'min-plies', 0, 0, 1_000_000);
  if (args.options.has('max-plies')) f.maxPlies = intOption(args, 'max-plies', 0, 0, 1_000_000);
  for (const d of ['from', 'to'] as const) {
    const v = one(d);
    if (v === undefined) continue;
    if (!/^\d{4}[.-]\d\d[.-]\d\d$/.test(v)) throw new UsageError(`--${d} must be a date YYYY.MM.DD, not '${v}'`);
    f[d] = v;
  }
  if (args.options.has('reviewed')) f.reviewed = true;
  return f;
}

export function dbPath(args: ParsedArgs): string {
  return args.options.get('db')?.[0] ?? 'games.db';
}

/**
 * Opens the database, its DbError (which names the file) as a CommandError: the catch of `thoth db`,
 * which names the file for the errors of a query, must not name it twice.
 */
export function open(args: ParsedArgs, readonly: boolean): Database.Database {
  try {
    return openDatabase(dbPath(args), { readonly });
  } catch (e) {
    if (e instanceof DbError) throw new CommandError(e.message);
    throw e;
  }
}

/** The network of --net (the shipped one by default), or null for `none`. */
export function evaluationNet(args: ParsedArgs): { bytes: SharedArrayBuffer | null; net: Network | null } {
  const file = args.options.get('net')?.[0] ?? 'default';
  if (file === 'none') return { bytes: null, net: null };
  const r = loadNetworkFile(file);
  if (!r.ok) throw new UsageError(`--net: ${r.error}`);
  return { bytes: r.value.bytes, net: r.value.net };
}
