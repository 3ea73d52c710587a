/**
 * The subcommands' arguments: each subcommand declares its options (name, value, default, help)
 * once, and the parser, the `--help` text and the "did you mean" hints come from that table. A
 * subcommand that cannot go on throws a CommandError; the entry point (src/cli.ts) prints its
 * message and exits with its code.
 */
import { didYouMean } from '../core/suggest';
import { fileErrorText, writeFileAtomic } from '../process/files';

/** The command failed although it was used rightly (e.g. an engine would not start): exit code 1 by default. */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** Bad arguments: exit code 2. */
export class UsageError extends CommandError {
  constructor(message: string) {
    super(message, 2);
  }
}

/** Exit codes, as scripts read them. */
export const EXIT = { ok: 0, failure: 1, usage: 2, interrupted: 130 } as const;

/** One option of a subcommand. */
export interface FlagSpec {
  /** `depth` for `--depth`. */
  name: string;
  /** Placeholder of its value (`N`, `FILE`); none for a flag. */
  value?: string;
  /** Takes every following word that is not an option (`--moves a b c`)… */
  multi?: boolean;
  /** The option may be given more than once, each with one value; all are kept in order. */
  repeat?: boolean;
  /** … and, when given, that this accepts: the list ends at the first word it refuses (`--moves a b 3`: 3 is not a move). */
  accepts?: (word: string) => boolean;
  /** What it does, in a few words. */
  help: string;
  /** Its default, as shown in the help. */
  default?: string;
}

/** A subcommand as the help and the parser see it. */
export interface CommandSpec {
  name: string;
  /** Positional arguments, as shown in the usage line (`<depth>`). */
  positional?: string;
  /** One line: what it does. */
  summary: string;
  options: FlagSpec[];
  /** Lines after the options: examples, notes. */
  notes?: string[];
}

/** `thoth perft <depth> [options]`. */
export function usageLine(spec: CommandSpec): string {
  return `thoth ${spec.name}${spec.positional ? ` ${spec.positional}` : ''}${spec.options.length > 0 ? ' [options]' : ''}`;
}

/** Words wrapped to lines of at most `width` characters, each after `indent`. */
function wrap(text: string, width: number, indent = ''): string[] {
  const lines: string[] = [];
  let line = '';
  for (const w of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && indent.length + line.length + 1 + w.length > width) {
      lines.push(indent + line);
      line = w;
    } else {
      line = line === '' ? w : `${line} ${w}`;
    }
  }
  if (line !== '') lines.push(indent + line);
  return lines;
}

/** The `--help` text of a subcommand: usage, summary, every option with its default. */
export function helpText(spec: CommandSpec): string {
  const lines = [`Usage: ${usageLine(spec)}`, '', ...wrap(spec.summary, 100)];
  if (spec.options.length > 0) {
    lines.push('', 'Options:');
    const left = spec.options.map((o) => `  --${o.name}${o.value ? ` ${o.value}${o.multi ? ' …' : ''}` : ''}`);
    left.push('  -h, --help');
    const width = Math.min(36, Math.max(...left.map((l) => l.length)) + 2);
    const texts = spec.options.map((o) => `${o.help}${o.default !== undefined ? ` (default: ${o.default})` : ''}`);
    texts.push('this text');
    left.forEach((l, i) => {
      const body = wrap(texts[i], 100, ' '.repeat(width));
      if (l.length + 2 > width) lines.push(l, ...body);
      else lines.push(l.padEnd(width) + body[0].trimStart(), ...body.slice(1));
    });
  }
  if (spec.notes) lines.push('', ...spec.notes);
  return lines.join('\n') + '\n';
}

/** True when the arguments ask for help (`--help`, `-h`, `-help`). */
export function wantsHelp(argv: readonly string[]): boolean {
  return argv.some((a) => a === '--help' || a === '-h' || a === '-help');
}

/** Splits `--name value` / `--flag` options from positional arguments. */
export interface ParsedArgs {
  positional: string[];
  options: Map<string, string[]>;
}

/**
 * Parses arguments against a subcommand's options. An unknown option is a UsageError naming the
 * closest known one; a valued option without a value too.
 */
export function parseArgs(argv: string[], spec: CommandSpec): ParsedArgs {
  const positional: string[] = [];
  const options = new Map<string, string[]>();
  const byName = new Map(spec.options.map((o) => [o.name, o]));
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=');
      const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
      const o = byName.get(name);
      if (!o) {
        throw new UsageError(
          `unknown option --${name}${didYouMean(name, [...byName.keys()], '--')}; thoth ${spec.name} --help lists the options`,
        );
      }
      if (o.multi) {
        const vals: string[] =
          eq >= 0
            ? a
                .slice(eq + 1)
                .split(/\s+/)
                .filter(Boolean)
            : [];
        const takes = (w: string): boolean =>
          !w.startsWith('--') && (o.accepts === undefined || w.split(/\s+/).filter(Boolean).every(o.accepts));
        while (i + 1 < argv.length && takes(argv[i + 1])) vals.push(...argv[++i].split(/\s+/).filter(Boolean));
        options.set(name, vals);
      } else if (o.value) {
        const v = eq >= 0 ? a.slice(eq + 1) : argv[++i];
        if (v === undefined) throw new UsageError(`--${name} needs a value (${o.value})`);
        options.set(name, o.repeat ? [...(options.get(name) ?? []), v] : [v]);
      } else {
        if (eq >= 0) throw new UsageError(`--${name} takes no value`);
        options.set(name, []);
      }
    } else if (/^-[A-Za-z]/.test(a)) {
      const name = a.replace(/^-+/, '');
      const hint = byName.has(name) ? ` (did you mean '--${name}'?)` : didYouMean(name, [...byName.keys()], '--');
      throw new UsageError(`unknown option ${a}${hint}; thoth ${spec.name} --help lists the options`);
    } else {
      positional.push(a);
    }
  }
  return { positional, options };
}

export function intOption(args: ParsedArgs, name: string, def: number, min: number, max: number): number {
  const v = args.options.get(name)?.[0];
  if (v === undefined) return def;
  if (!/^-?\d+$/.test(v)) throw new UsageError(`--${name} must be a whole number, not '${v}'`);
  const n = Number(v);
  if (n < min || n > max) throw new UsageError(`--${name} must be from ${min} to ${max}, not ${n}`);
  return n;
}

/** A file-system error in words (src/process/files.ts, where the commands' file helpers are). */
export { fileErrorText };

/**
 * Writes a command's output file whole (a temporary file renamed over it: never half a file); a
 * file that cannot be written is a usage error: `cannot write the graph 'g.svg': …`, or without
 * `what`, `cannot write 'g.svg': …`.
 */
export function writeOutput(file: string, data: string | Uint8Array, what?: string): void {
  try {
    writeFileAtomic(file, data);
  } catch (e) {
    throw new UsageError(`cannot write ${what === undefined ? '' : `the ${what} `}'${file}': ${fileErrorText(e)}`);
  }
}
