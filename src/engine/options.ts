/**
 * The engine's options, each declared once with its type, default, range and handler (as
 * Stockfish's `options.add(name, Option(…, handler))`): the handshake's `option` lines, the
 * checking of `setoption` values and their effect all come from the declaration.
 */
import { EDITION_IDS, type EditionId } from '../core/index';
import { err, ok, type Result } from '../core/result';
import { DEFAULT_FEATURES, type SearchFeatures } from '../search/search';
import { DEFAULT_PARAMS, PARAM_SPECS, type SearchParams } from '../search/params';
import { MAX_ELO, MAX_SKILL, MIN_ELO } from '../search/skill';
import { DEFAULT_EVAL_FILE } from './host';
import { clip, quote } from '../core/quote';
import { formatOptionLine, type OptionSpec } from '../core/option-line';

export type { OptionSpec };

/** Threads: up to twice the machine's cores (EngineHost.cores). */
export function maxThreads(cores: number): number {
  return Math.max(2, cores * 2);
}

/** The developer switches (option name, search feature), in the handshake's order. */
const FEATURE_SWITCHES: ReadonlyArray<readonly [string, keyof SearchFeatures]> = [
  ['LMR', 'lmr'],
  ['Aspiration', 'aspiration'],
  ['NullMove', 'nullMove'],
  ['LMP', 'lmp'],
  ['HistoryMalus', 'historyMalus'],
];

/** A `setoption` value the option does not take: `message` follows the option's name. */
export interface OptionError {
  option: string;
  message: string;
}

export function formatOptionError(e: OptionError): string {
  return `${e.option} ${e.message}`;
}

/** The option's handshake line (src/core/option-line.ts formats and parses it). */
export const optionLine = formatOptionLine;

/** One option of the engine, as `setoption` sees it. */
export interface SettableOption {
  readonly spec: OptionSpec;
  /** Checks the `value` text; when it is good, takes it and runs the handler. */
  set(text: string | undefined): Result<void, OptionError>;
}

type Handler<T> = (value: T, previous: T) => void;

/** An option with a value: the handler runs on every `setoption` that passes the check. */
abstract class Valued<T> implements SettableOption {
  value: T;
  abstract readonly spec: OptionSpec;

  constructor(
    readonly name: string,
    readonly defaultValue: T,
    private readonly onChange: Handler<T> = () => {},
  ) {
    this.value = defaultValue;
  }

  /** The value of `text`, or what is wrong with it (after the option's name). */
  protected abstract parse(text: string | undefined): Result<T, string>;

  set(text: string | undefined): Result<void, OptionError> {
    const r = this.parse(text);
    if (!r.ok) return err({ option: this.name, message: r.error });
    const previous = this.value;
    this.value = r.value;
    try {
      this.onChange(r.value, previous);
    } catch (e) {
      this.value = previous; // a handler that failed changed nothing
      throw e;
    }
    return ok(undefined);
  }
}

class Spin extends Valued<number> {
  readonly spec: OptionSpec;

  constructor(
    name: string,
    defaultValue: number,
    readonly min: number,
    readonly max: number,
    onChange?: Handler<number>,
  ) {
    super(name, defaultValue, onChange);
    this.spec = { name, type: 'spin', default: defaultValue, min, max };
  }

  protected parse(text: string | undefined): Result<number, string> {
    if (text === undefined || !/^-?\d+$/.test(text)) return err(`needs a whole number, not ${quote(text ?? '')}`);
    const n = Number(text);
    // The value as given (clipped), not as a double: 20,000 nines are not `Infinity`, 1 and 30 zeros not `1e+30`.
    if (n < this.min || n > this.max) return err(`must be from ${this.min} to ${this.max}, not ${clip(text)}`);
    return ok(n);
  }
}

class Check extends Valued<boolean> {
  readonly spec: OptionSpec;

  constructor(name: string, defaultValue: boolean, onChange?: Handler<boolean>) {
    super(name, defaultValue, onChange);
    this.spec = { name, type: 'check', default: defaultValue };
  }

  protected parse(text: string | undefined): Result<boolean, string> {
    const v = text?.toLowerCase();
    if (v !== 'true' && v !== 'false') return err(`must be true or false, not ${quote(text ?? '')}`);
    return ok(v === 'true');
  }
}

class Combo<T extends string> extends Valued<T> {
  readonly spec: OptionSpec;

  constructor(
    name: string,
    defaultValue: T,
    readonly vars: readonly T[],
    onChange?: Handler<T>,
  ) {
    super(name, defaultValue, onChange);
    this.spec = { name, type: 'combo', default: defaultValue, vars };
  }

  protected parse(text: string | undefined): Result<T, string> {
    const v = text?.toLowerCase();
    const hit = this.vars.find((x) => x.toLowerCase() === v);
    return hit === undefined ? err(`must be one of ${this.vars.join(', ')}, not ${quote(text ?? '')}`) : ok(hit);
  }
}

/**
 * A text option. `check` may refuse a value (the message follows the option's name) before the
 * handler sees it; an empty value is `<empty>` in the protocol.
 */
class Str extends Valued<string> {
  readonly spec: OptionSpec;

  constructor(
    name: string,
    defaultValue: string,
    onChange?: Handler<string>,
    private readonly check: (text: string) => Result<void, string> = () => ok(undefined),
  ) {
    super(name, defaultValue, onChange);
    this.spec = { name, type: 'string', default: defaultValue };
  }

  protected parse(text: string | undefined): Result<string, string> {
    const v = text === undefined || text === '<empty>' ? '' : text;
    const c = this.check(v);
    return c.ok ? ok(v) : err(c.error);
  }
}

/** An option without a value: setting it runs the handler (any value is ignored). */
class Button implements SettableOption {
  readonly spec: OptionSpec;

  constructor(
    readonly name: string,
    private readonly press: () => void,
  ) {
    this.spec = { name, type: 'button' };
  }

  set(): Result<void, OptionError> {
    this.press();
    return ok(undefined);
  }
}

/** What the options with an effect beyond their value do to the engine. */
export interface OptionHost {
  /** A new, empty table of this many MB. */
  resizeHash(mb: number): void;
  clearHash(): void;
  setThreads(n: number): void;
  variantChanged(variant: EditionId, previous: EditionId): void;
  /** A rule of the dialect changed (PharaohRotation and the options after it): the position is replayed. */
  rulesChanged(on: boolean, previous: boolean): void;
  /** Reads and checks a network file; on success it is the network from now on. */
  loadNetwork(file: string): Result<void, string>;
  /** Whether a network is loaded (UseNNUE's default). */
  hasNetwork(): boolean;
  /** The evaluation the search uses may have changed (EvalFile loaded, UseNNUE set). */
  evaluationChanged(): void;
}

/** The engine's options, in the handshake's order; the others read their values. `Threads` goes up to `threadsMax`. */
export function createOptions(host: OptionHost, threadsMax: number) {
  const named = {
    hash: new Spin('Hash', 16, 1, 8192, (mb) => host.resizeHash(mb)),
    clearHash: new Button('Clear Hash', () => host.clearHash()),
    threads: new Spin('Threads', 1, 1, threadsMax, (n) => host.setThreads(n)),
    multiPV: new Spin('MultiPV', 1, 1, 256),
    ponder: new Check('Ponder', false),
    moveOverhead: new Spin('Move Overhead', 10, 0, 5000),
    variant: new Combo<EditionId>('UCI_Variant', 'khet2', EDITION_IDS, (v, was) => host.variantChanged(v, was)),
    pharaohRotation: new Check('PharaohRotation', false, (on, was) => host.rulesChanged(on, was)),
    // the other switches of the rules dialects (docs/rules.md §3.1), so that Thoth plays other engines' rules
    twoScarabRotations: new Check('TwoScarabRotations', false, (on, was) => host.rulesChanged(on, was)),
    swapOntoReserved: new Check('SwapOntoReserved', false, (on, was) => host.rulesChanged(on, was)),
    swapSphinx: new Check('SwapWithSphinx', false, (on, was) => host.rulesChanged(on, was)),
    noRemovalDraw: new Spin('NoRemovalDraw', 100, 0, 100000),
    skillLevel: new Spin('Skill Level', MAX_SKILL, 0, MAX_SKILL),
    limitStrength: new Check('UCI_LimitStrength', false),
    elo: new Spin('UCI_Elo', MAX_ELO, MIN_ELO, MAX_ELO),
    random: new Check('Random', false),
    // `wdl W D L` in the info lines: the win chances of the fitted curve (docs/review.md)
    showWdl: new Check('UCI_ShowWDL', false),
    // the evaluation: the network (NNUE) in EvalFile, or the hand-written one
    useNNUE: new Check('UseNNUE', host.hasNetwork(), () => host.evaluationChanged()),
    evalFile: new Str(
      'EvalFile',
      DEFAULT_EVAL_FILE,
      () => host.evaluationChanged(),
      (file) => host.loadNetwork(file),
    ),
  };
  // Developer switches, so that matches can measure each search feature.
  const features = FEATURE_SWITCHES.map(([name, key]) => ({ key, option: new Check(name, DEFAULT_FEATURES[key]) }));
  // The search's numeric parameters (src/search/params.ts), for tuning.
  const params = PARAM_SPECS.map((p) => ({
    key: p.key,
    option: new Spin(p.name, DEFAULT_PARAMS[p.key], p.min, p.max),
  }));
  const all: readonly SettableOption[] = [
    ...Object.values(named),
    ...features.map((f) => f.option),
    ...params.map((p) => p.option),
  ];
  return {
    ...named,
    all,
    /** The search switches as set. */
    features(): SearchFeatures {
      const f = { ...DEFAULT_FEATURES };
      for (const { key, option } of features) f[key] = option.value;
      return f;
    },
    /** The search parameters as set. */
    params(): SearchParams {
      const v = { ...DEFAULT_PARAMS };
      for (const { key, option } of params) v[key] = option.value;
      return v;
    },
    /** The option of that name (names are case-insensitive). */
    find(name: string): SettableOption | undefined {
      const n = name.toLowerCase();
      return all.find((o) => o.spec.name.toLowerCase() === n);
    },
  };
}

export type EngineOptions = ReturnType<typeof createOptions>;
