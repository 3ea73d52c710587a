/**
 * `thoth gui [--port N] [--host ADDRESS] [--tabs N] [--engine "<command>" [--engine-proto P]]
 * [--db FILE] [--verbose]`: the browser GUI (src/gui).
 */
import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { type ForeignProtocol, isProtocolName } from '../foreign/foreign';
import { DEFAULT_HANDSHAKE_MS } from '../gui/bridge';
import { DEFAULT_PAGES, fullStrength, startGuiServer, type GuiServer } from '../gui/server';
import { plural } from '../core/plural';
import { formatCommandLineError, splitCommandLine } from '../process/command-line';
import { CODE_DIR, ownEngineCommand, packageRoot } from './own-engine';
import { CommandError, EXIT, UsageError, intOption, parseArgs, type CommandSpec } from './args';
import type Database from 'better-sqlite3';
import {
  EDITION_IDS,
  formatKfenError,
  isEditionId,
  parseKfen,
  SETUPS,
  setupsOf,
  toKfen,
  type Position,
} from '../core/index';
import type { ExplorerMove } from '../analysis/explorer';
import { keyOf } from '../analysis/game-keys';
import { DbError, openDatabase } from '../db/database';
import { countGames, explorerMoves, getGame } from '../db/query';
import type { GameDatabase } from '../gui/database-api';

const DEFAULT_GUI_PORT = 7700;

export const GUI_SPEC: CommandSpec = {
  name: 'gui',
  summary:
    'The browser GUI: play Thoth, two players on one board, or analysis. Serves the page on 127.0.0.1 (unless ' +
    "--host opens it to a network) and prints its address with this run's secret token; Ctrl-C stops it.",
  options: [
    {
      name: 'port',
      value: 'N',
      help: 'the port (0 = any free port; a busy default port falls back to a free one)',
      default: String(DEFAULT_GUI_PORT),
    },
    {
      name: 'host',
      value: 'ADDRESS',
      help:
        "the IP address to listen on: 0.0.0.0 opens the GUI to every network of this computer (a club's devices " +
        'open the address printed, token and all; anyone on the network who reads the traffic can read the token)',
      default: '127.0.0.1',
    },
    {
      name: 'tabs',
      value: 'N',
      help: 'the most tabs served at once, on this computer or others, each with an engine process of its own',
      default: String(DEFAULT_PAGES),
    },
    {
      name: 'engine',
      value: '"<command>"',
      help: 'the engine to run (split like a POSIX shell would, without a shell)',
      default: 'node dist/cli.js',
    },
    {
      name: 'engine-proto',
      value: 'P',
      help: 'the engine\'s protocol when it is another Khet engine\'s: uki, kei, khet2ai or khetai (docs/match.md, "Other engines")',
    },
    {
      name: 'start-timeout',
      value: 'MS',
      help: "how long the engine may take for each step of its start: 'uci' to 'uciok', then 'isready' to 'readyok' (a busy machine may need more)",
      default: String(DEFAULT_HANDSHAKE_MS),
    },
    {
      name: 'db',
      value: 'FILE',
      help: "a game database (thoth db, docs/db.md) for the opening explorer of the page's analysis board, read only",
    },
    { name: 'verbose', help: 'print the protocol traffic on stderr' },
  ],
};

/** `--db FILE` opened for reading, as the page's explorer asks it (src/gui/database-api.ts). */
function gameDatabase(file: string): { database: GameDatabase; warm(): void; close(): void } {
  let db: Database.Database;
  try {
    db = openDatabase(file, { readonly: true });
  } catch (e) {
    throw new UsageError(`--db: ${e instanceof DbError ? e.message : String(e)}`);
  }
  const name = path.basename(file);
  let games = countGames(db, {});
  // Answers kept for the run, dropped whenever another process writes the file (SQLite's
  // data_version tells): a setup's start, which every game of the setup passes (about 19,000
  // of 150,000), is summed once, not at every new game on the page.
  const kept = new Map<string, ExplorerMove[]>();
  const version = db.prepare('PRAGMA data_version').pluck();
  let seen = version.get();
  const fresh = (): void => {
    const now = version.get();
    if (now === seen) return;
    seen = now;
    kept.clear();
    games = countGames(db, {});
  };
  const movesAt = (pos: Position): ExplorerMove[] => {
    const at = `${pos.edition.id} ${toKfen(pos)}`;
    let moves = kept.get(at);
    if (moves === undefined) {
      moves = explorerMoves(db, keyOf(pos), pos.side as 0 | 1);
      if (kept.size >= KEPT_ANSWERS) kept.delete(kept.keys().next().value as string);
      kept.set(at, moves);
    }
    return moves;
  };
  // The setups' starts summed before a page asks, a moment after the server is up.
  const starts = EDITION_IDS.flatMap((e) => setupsOf(e).map((n) => parseKfen(SETUPS[e][n] ?? '', e)));
  const warm = (): void => {
    const next = starts.shift();
    if (next === undefined) return;
    if (next.ok) movesAt(next.value);
    setImmediate(warm);
  };
  return {
    database: {
      info: () => {
        fresh();
        return { name, games };
      },
      explore(variant, kfen) {
        if (!isEditionId(variant)) return { ok: false, error: `unknown variant '${variant}'` };
        const pos = parseKfen(kfen, variant);
        if (!pos.ok) return { ok: false, error: `kfen: ${formatKfenError(pos.error)}` };
        fresh();
        return { ok: true, moves: movesAt(pos.value) };
      },
      record: (id) => getGame(db, id)?.record,
    },
    warm: () => setImmediate(warm),
    close: () => db.close(),
  };
}

/** The explorer's answers a `thoth gui --db` keeps. */
const KEPT_ANSWERS = 2000;

/** dist/gui/: the page's files. */
function defaultStaticDir(): string {
  const beside = path.join(CODE_DIR, 'gui');
  return existsSync(path.join(beside, 'index.html')) ? beside : path.join(packageRoot(), 'dist', 'gui');
}

/** The engine's command (--engine, else this Thoth) and its protocol (--engine-proto). */
function engineOptions(args: ReturnType<typeof parseArgs>): { engine: string[]; engineProto?: ForeignProtocol } {
  let engine: string[];
  const engineText = args.options.get('engine')?.[0];
  if (engineText !== undefined) {
    const words = splitCommandLine(engineText);
    if (!words.ok) throw new UsageError(`--engine: ${formatCommandLineError(words.error)}`);
    engine = words.value;
    if (engine.length === 0) throw new UsageError('--engine needs a command');
  } else {
    engine = ownEngineCommand();
  }
  const protoText = args.options.get('engine-proto')?.[0];
  if (protoText === undefined) return { engine };
  if (!isProtocolName(protoText) || protoText === 'thoth')
    throw new UsageError(`--engine-proto must be uki, kei, khet2ai or khetai, not '${protoText}'`);
  if (engineText === undefined) throw new UsageError('--engine-proto goes with --engine "<command>"');
  return { engine, engineProto: protoText };
}

/** What the terminal says once the server is up: its addresses, its engine, how many tabs it serves. */
function printAddress(
  server: GuiServer,
  host: string,
  most: number,
  threads: number,
  write: (s: string) => void,
  database?: { name: string; games: number },
): void {
  write(`Thoth GUI: ${server.url}`);
  for (const u of server.networkUrls) write(`On the network: ${u}`);
  write(`Engine: ${server.engines.commandText}`);
  if (database) write(`Explorer: ${database.name}, ${plural(database.games, 'game')} (the analysis board's explorer).`);
  write(
    `Serves up to ${plural(most, 'tab')} at once, an engine process each; ${plural(threads, 'thread')} ` +
      `at full strength, shared between the tabs open.`,
  );
  write(
    host === '127.0.0.1'
      ? "Open the address above in a browser (it holds this run's secret token). Ctrl-C stops the server."
      : "Open an address above in a browser on this network (it holds this run's secret token). Ctrl-C stops the server.",
  );
}

export async function guiCommand(argv: string[], write: (s: string) => void): Promise<void> {
  const args = parseArgs(argv, GUI_SPEC);
  if (args.positional.length > 0) throw new UsageError(`unexpected '${args.positional[0]}' (thoth gui --help)`);
  const portGiven = args.options.has('port');
  const port = intOption(args, 'port', DEFAULT_GUI_PORT, 0, 65535);
  const host = args.options.get('host')?.[0] ?? '127.0.0.1';
  if (isIP(host) === 0)
    throw new UsageError(`--host takes an IP address (0.0.0.0: every network of this computer), not '${host}'`);
  const most = intOption(args, 'tabs', DEFAULT_PAGES, 1, 64);
  const { engine, engineProto } = engineOptions(args);
  const staticDir = defaultStaticDir();
  if (!existsSync(path.join(staticDir, 'index.html'))) {
    throw new UsageError(`the page's files are missing (${staticDir}); run \`npm run build\` first`);
  }
  const handshakeMs = intOption(args, 'start-timeout', DEFAULT_HANDSHAKE_MS, 1, 3_600_000);
  const verbose = args.options.has('verbose');
  const log = (s: string): void => {
    if (verbose) process.stderr.write(s + '\n');
  };
  const dbFile = args.options.get('db')?.[0];
  const db = dbFile === undefined ? undefined : gameDatabase(dbFile);
  const strength = fullStrength();
  const start = (p: number): Promise<GuiServer> =>
    startGuiServer({
      port: p,
      staticDir,
      engine,
      engineCwd: process.cwd(),
      engineProto,
      log,
      strength,
      host,
      most,
      handshakeMs,
      database: db?.database,
    });
  let server: GuiServer;
  try {
    server = await start(port);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' && !portGiven) server = await start(0);
    else if (code === 'EADDRINUSE') throw new UsageError(`port ${port} is in use (try --port 0 for any free port)`);
    else if (code === 'EACCES')
      throw new UsageError(`port ${port} needs privileges (try a port above 1023, or --port 0)`);
    else if (code === 'EADDRNOTAVAIL') throw new UsageError(`--host ${host} is not an address of this computer`);
    else throw e;
  }
  // An engine that cannot start is said here, on the terminal, not only on the page.
  if ((await server.engines.settled()) !== 'ready') {
    const { message, timedOut } = server.engines;
    const why = timedOut ? `${message}; --start-timeout MS gives it longer (now ${handshakeMs})` : message;
    await server.close();
    throw new CommandError(why, EXIT.failure);
  }
  // Ctrl-C is caught before the address is printed: one that comes as soon as it is seen (a script
  // reading it) still closes the server and its engines.
  const stopped = new Promise<void>((resolve) => {
    let closing = false;
    const stop = (): void => {
      if (closing) return;
      closing = true;
      write('Stopping.');
      server.close().then(resolve, resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  printAddress(server, host, most, strength.threads, write, db?.database.info());
  db?.warm();
  await stopped;
  db?.close();
  // Ctrl-C is how the server ends: exit code 130, as every command that Ctrl-C stops (docs/cli.md)
  throw new CommandError('interrupted: the server and its engines are stopped', EXIT.interrupted);
}
