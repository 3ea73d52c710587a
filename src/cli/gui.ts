/**
 * `thoth gui [--port N] [--host ADDRESS] [--tabs N] [--engine "<command>" [--engine-proto P]]
 * [--verbose]`: the browser GUI (src/gui).
 */
import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ForeignProtocol, isProtocolName } from '../foreign/foreign';
import { DEFAULT_PAGES, fullStrength, startGuiServer, type GuiServer } from '../gui/server';
import { plural } from '../core/plural';
import { formatCommandLineError, splitCommandLine } from '../process/command-line';
import { CommandError, EXIT, UsageError, intOption, parseArgs, type CommandSpec } from './args';

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
    { name: 'verbose', help: 'print the protocol traffic on stderr' },
  ],
};

/** The folder of this code: dist/ when bundled, src/cli/ under tsx. */
const here = path.dirname(fileURLToPath(import.meta.url));

/** The repository root: the nearest folder above this code holding package.json. */
function repoRoot(): string {
  let d = here;
  for (let i = 0; i < 6; i++) {
    if (existsSync(path.join(d, 'package.json'))) return d;
    d = path.dirname(d);
  }
  return process.cwd();
}

/** dist/cli.js: the engine that `thoth gui` starts by default. */
function defaultEngineCommand(): string[] {
  const beside = path.join(here, 'cli.js');
  const cli = existsSync(beside) ? beside : path.join(repoRoot(), 'dist', 'cli.js');
  return [process.execPath, cli];
}

/** dist/gui/: the page's files. */
function defaultStaticDir(): string {
  const beside = path.join(here, 'gui');
  return existsSync(path.join(beside, 'index.html')) ? beside : path.join(repoRoot(), 'dist', 'gui');
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
  let engine: string[];
  const engineText = args.options.get('engine')?.[0];
  if (engineText !== undefined) {
    const words = splitCommandLine(engineText);
    if (!words.ok) throw new UsageError(`--engine: ${formatCommandLineError(words.error)}`);
    engine = words.value;
    if (engine.length === 0) throw new UsageError('--engine needs a command');
  } else {
    engine = defaultEngineCommand();
  }
  const protoText = args.options.get('engine-proto')?.[0];
  let engineProto: ForeignProtocol | undefined;
  if (protoText !== undefined) {
    if (!isProtocolName(protoText) || protoText === 'thoth')
      throw new UsageError(`--engine-proto must be uki, kei, khet2ai or khetai, not '${protoText}'`);
    if (engineText === undefined) throw new UsageError('--engine-proto goes with --engine "<command>"');
    engineProto = protoText;
  }
  const staticDir = defaultStaticDir();
  if (!existsSync(path.join(staticDir, 'index.html'))) {
    throw new UsageError(`the page's files are missing (${staticDir}); run \`npm run build\` first`);
  }
  const verbose = args.options.has('verbose');
  const log = (s: string): void => {
    if (verbose) process.stderr.write(s + '\n');
  };
  const strength = fullStrength();
  const start = (p: number): Promise<GuiServer> =>
    startGuiServer({ port: p, staticDir, engine, engineCwd: process.cwd(), engineProto, log, strength, host, most });
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
    const why = server.engines.message;
    await server.close();
    throw new CommandError(why, EXIT.failure);
  }
  write(`Thoth GUI: ${server.url}`);
  for (const u of server.networkUrls) write(`On the network: ${u}`);
  write(`Engine: ${server.engines.commandText}`);
  write(
    `Serves up to ${plural(most, 'tab')} at once, an engine process each; ${plural(strength.threads, 'thread')} ` +
      `at full strength, shared between the tabs open.`,
  );
  write(
    host === '127.0.0.1'
      ? "Open the address above in a browser (it holds this run's secret token). Ctrl-C stops the server."
      : "Open an address above in a browser on this network (it holds this run's secret token). Ctrl-C stops the server.",
  );
  await new Promise<void>((resolve) => {
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
}
