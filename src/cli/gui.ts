/** `thoth gui [--port N] [--engine "<command>"] [--verbose]`: the browser GUI (src/gui). */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_HANDSHAKE_MS } from '../gui/bridge';
import { startGuiServer, type GuiServer } from '../gui/server';
import { formatCommandLineError, splitCommandLine } from '../process/command-line';
import { CODE_DIR, ownEngineCommand, packageRoot } from './own-engine';
import { CommandError, EXIT, UsageError, intOption, parseArgs, type CommandSpec } from './args';

const DEFAULT_GUI_PORT = 7700;

export const GUI_SPEC: CommandSpec = {
  name: 'gui',
  summary:
    'The browser GUI: play Thoth, two players on one board, or analysis. Serves the page on 127.0.0.1 only and ' +
    "prints its address with this run's secret token; Ctrl-C stops it.",
  options: [
    {
      name: 'port',
      value: 'N',
      help: 'the port (0 = any free port; a busy default port falls back to a free one)',
      default: String(DEFAULT_GUI_PORT),
    },
    {
      name: 'engine',
      value: '"<command>"',
      help: 'the engine to run (split like a POSIX shell would, without a shell)',
      default: 'node dist/cli.js',
    },
    {
      name: 'start-timeout',
      value: 'MS',
      help: "how long the engine may take for each step of its start: 'uci' to 'uciok', then 'isready' to 'readyok' (a busy machine may need more)",
      default: String(DEFAULT_HANDSHAKE_MS),
    },
    { name: 'verbose', help: 'print the protocol traffic on stderr' },
  ],
};

/** dist/gui/: the page's files. */
function defaultStaticDir(): string {
  const beside = path.join(CODE_DIR, 'gui');
  return existsSync(path.join(beside, 'index.html')) ? beside : path.join(packageRoot(), 'dist', 'gui');
}

export async function guiCommand(argv: string[], write: (s: string) => void): Promise<void> {
  const args = parseArgs(argv, GUI_SPEC);
  if (args.positional.length > 0) throw new UsageError(`unexpected '${args.positional[0]}' (thoth gui --help)`);
  const portGiven = args.options.has('port');
  const port = intOption(args, 'port', DEFAULT_GUI_PORT, 0, 65535);
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
  const staticDir = defaultStaticDir();
  if (!existsSync(path.join(staticDir, 'index.html'))) {
    throw new UsageError(`the page's files are missing (${staticDir}); run \`npm run build\` first`);
  }
  const handshakeMs = intOption(args, 'start-timeout', DEFAULT_HANDSHAKE_MS, 1, 3_600_000);
  const verbose = args.options.has('verbose');
  const log = (s: string): void => {
    if (verbose) process.stderr.write(s + '\n');
  };
  const start = (p: number): Promise<GuiServer> =>
    startGuiServer({ port: p, staticDir, engine, engineCwd: process.cwd(), log, handshakeMs });
  let server: GuiServer;
  try {
    server = await start(port);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' && !portGiven) server = await start(0);
    else if (code === 'EADDRINUSE') throw new UsageError(`port ${port} is in use (try --port 0 for any free port)`);
    else if (code === 'EACCES')
      throw new UsageError(`port ${port} needs privileges (try a port above 1023, or --port 0)`);
    else throw e;
  }
  // An engine that cannot start is said here, on the terminal, not only on the page.
  if ((await server.bridge.settled()) !== 'ready') {
    const { message, timedOut } = server.bridge;
    const why = timedOut ? `${message}; --start-timeout MS gives it longer (now ${handshakeMs})` : message;
    await server.close();
    throw new CommandError(why, EXIT.failure);
  }
  // Ctrl-C is caught before the address is printed: one that comes as soon as it is seen (a script
  // reading it) still closes the server and its engine.
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
  write(`Thoth GUI: ${server.url}`);
  write(`Engine: ${server.bridge.commandText}`);
  write("Open the address above in a browser (it holds this run's secret token). Ctrl-C stops the server.");
  await stopped;
  // Ctrl-C is how the server ends: exit code 130, as every command that Ctrl-C stops (docs/cli.md)
  throw new CommandError('interrupted: the server and its engine are stopped', EXIT.interrupted);
}
