/**
 * Small helpers for the subcommands' arguments. A subcommand that cannot go on throws a
 * CommandError; the entry point (src/cli.ts) prints its message and exits with its code.
 */

/** The command failed although it was used rightly (e.g. an engine would not start): exit code 1 by default. */
export class CommandError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
  }
}

/** Bad arguments: exit code 2. */
export class UsageError extends CommandError {
  constructor(message: string) {
    super(message, 2);
  }
}

/** Splits `--name value` / `--flag` options from positional arguments. */
export interface ParsedArgs {
  positional: string[];
  options: Map<string, string[]>;
}

/**
 * Parses arguments. `valued` lists options that take values; `multi` those that take every
 * following non-option word (like `--moves a b c`). Others are flags.
 */
export function parseArgs(argv: string[], valued: string[], flags: string[], multi: string[] = []): ParsedArgs {
  const positional: string[] = [];
  const options = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
      if (multi.includes(name)) {
        const vals: string[] = eq >= 0 ? a.slice(eq + 1).split(/\s+/).filter(Boolean) : [];
        while (i + 1 < argv.length && !argv[i + 1].startsWith('--')) vals.push(...argv[++i].split(/\s+/).filter(Boolean));
        options.set(name, vals);
      } else if (valued.includes(name)) {
        const v = eq >= 0 ? a.slice(eq + 1) : argv[++i];
        if (v === undefined) throw new UsageError(`--${name} needs a value`);
        options.set(name, [v]);
      } else if (flags.includes(name)) {
        options.set(name, []);
      } else {
        throw new UsageError(`unknown option --${name}`);
      }
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
