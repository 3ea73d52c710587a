/**
 * The arguments of the protocol's smaller commands, each read whole before anything changes (as
 * go.ts reads `go` and position-command.ts `position`): a bad one gives the error's message.
 */
import { err, ok, type Result } from '../core/result';
import { quote } from '../core/quote';
import { BENCH_DEPTH } from '../search/bench';
import { MAX_PERFT_DEPTH } from './go';

/** The deepest `bench`. */
const MAX_BENCH_DEPTH = 30;

const whole = (v: string, min: number, max: number): boolean => /^\d+$/.test(v) && Number(v) >= min && Number(v) <= max;

/** `debug on|off`: whether debug lines are on. */
export function parseDebug(args: readonly string[]): Result<boolean, string> {
  if (args.length !== 1 || (args[0] !== 'on' && args[0] !== 'off')) {
    return err(`debug: expected 'debug on' or 'debug off', not ${quote(`debug ${args.join(' ')}`)}`);
  }
  return ok(args[0] === 'on');
}

/** `setoption name <id...> [value <x...>]`: the option's name and the value's text (none for a button). */
export function parseSetoption(args: readonly string[]): Result<{ name: string; value?: string }, string> {
  if (args[0] !== 'name') return err("setoption: expected 'setoption name <id> [value <x>]'");
  const vi = args.indexOf('value');
  const name = (vi >= 0 ? args.slice(1, vi) : args.slice(1)).join(' ');
  return ok(vi >= 0 ? { name, value: args.slice(vi + 1).join(' ') } : { name });
}

/** `bench [depth [threads]]`, threads up to `maxThreads`. */
export function parseBench(
  args: readonly string[],
  maxThreads: number,
): Result<{ depth: number; threads: number }, string> {
  if (args.length > 2) return err(`bench: unexpected ${quote(args[2])} (bench [depth [threads]])`);
  const [depth = String(BENCH_DEPTH), threads = '1'] = args;
  if (!whole(depth, 1, MAX_BENCH_DEPTH)) {
    return err(`bench: depth must be a whole number from 1 to ${MAX_BENCH_DEPTH}, not ${quote(depth)}`);
  }
  if (!whole(threads, 1, maxThreads)) {
    return err(`bench: threads must be a whole number from 1 to ${maxThreads}, not ${quote(threads)}`);
  }
  return ok({ depth: Number(depth), threads: Number(threads) });
}

/** `perft <depth>`. */
export function parsePerft(args: readonly string[]): Result<number, string> {
  const v = args[0];
  if (v === undefined || !whole(v, 1, MAX_PERFT_DEPTH)) {
    return err(`perft: depth must be a whole number from 1 to ${MAX_PERFT_DEPTH}, not ${quote(v ?? '')}`);
  }
  if (args.length > 1) return err(`perft: unexpected ${quote(args[1])} (perft <depth>)`);
  return ok(Number(v));
}
