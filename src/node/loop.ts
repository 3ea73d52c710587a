/** Runs the protocol on stdin/stdout, after the command-line arguments given as commands. */
import { createInterface } from 'node:readline';
import { nodeHost } from './node-host';
import { UciEngine, isKnownCommand } from '../protocol/uci';

/**
 * Command-line arguments run as commands, then the engine quits: each argument is a command
 * when each starts with a known command word (`thoth "go perft 4" quit`), otherwise all of them
 * form one command (`thoth bench 8`).
 */
function argsToCommands(argv: string[]): string[] {
  if (argv.length === 0) return [];
  const each = argv.every((a) => isKnownCommand(a.trim().split(/\s+/)[0]));
  return each ? argv : [argv.join(' ')];
}

/**
 * Runs the protocol; resolves when the engine has quit, to the messages of the errors that
 * commands given as arguments met (on stdin, errors are the protocol's business: none counted).
 */
export function runProtocol(argv: string[]): Promise<string[]> {
  return new Promise((resolve) => {
    const out = (line: string): void => {
      process.stdout.write(line + '\n');
    };
    const engine = new UciEngine(out, nodeHost);
    const commands = argsToCommands(argv);
    let rl: ReturnType<typeof createInterface> | undefined;
    const errors: string[] = [];
    engine.setQuitHandler(() => {
      rl?.close();
      // let stdout drain, then leave
      process.stdout.write('', () => resolve(errors));
    });
    if (commands.length > 0) {
      engine.setErrorHandler((msg) => errors.push(msg));
      for (const c of commands) engine.inputInOrder(c);
      engine.inputInOrder('quit');
      return;
    }
    rl = createInterface({ input: process.stdin, terminal: false, crlfDelay: Infinity });
    rl.on('line', (line) => engine.input(line));
    rl.on('close', () => engine.endOfInput());
  });
}
