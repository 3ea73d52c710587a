/**
 * The `thoth match` command line, in cutechess-cli / fastchess style: single-dash flags, each
 * followed by its values, engine settings as `key=value` words:
 *
 *   -engine cmd=./thoth name=new option.Hash=16 tc=10+0.1 -engine cmd=./old name=old
 *   -each tc=10+0.1 option.Threads=1 -rounds 500 -games 2 -concurrency 2
 *   -sprt elo0=0 elo1=5 -openings setups=classic,imhotep plies=4 -pgnout games.pgn
 */
import { availableParallelism } from 'node:os';
import {
  NO_REMOVAL_PLIES,
  SETUP_NAMES,
  isEditionId,
  isSetupName,
  setupsOf,
  type EditionId,
  type SetupName,
} from '../core/index';
import { err, ok, type Result } from '../core/result';
import { type Dialect, parseDialect } from '../core/dialect';
import { PROTOCOL_NAMES, type ProtocolName, isProtocolName } from '../foreign/foreign';
import { applyProtocolDraws, checkForeignEngine } from './foreign-config';
import { formatCommandLineError, splitCommandLine } from '../process/command-line';
import { defaultName, type EngineSpec } from './engine-process';
import { didYouMean } from '../core/suggest';
import { MatchConfigError } from './errors';
import type { Adjudication, DrawAdjudication, ResignAdjudication } from './adjudicator';
import type { MoveData } from './referee';
import type { TrafficLogSetting } from './traffic-log';
import type { OpeningSource } from './openings';
import type { SprtModel } from './stats/sprt';
import { applyLimit, hasLimit, type EngineLimits } from './timecontrol';

export interface SprtConfig {
  elo0: number;
  elo1: number;
  alpha: number;
  beta: number;
  model: SprtModel;
}

export type TournamentKind = 'roundrobin' | 'gauntlet';

export interface MatchConfig {
  engines: EngineSpec[];
  /** Rounds to play; Infinity = until the SPRT decides. */
  rounds: number;
  /** Games per encounter per round (2 = a game pair with colours swapped). */
  games: number;
  tournament: TournamentKind;
  concurrency: number;
  variant: EditionId;
  openings: OpeningSource;
  srand: number;
  sprt?: SprtConfig;
  adjudication: Adjudication;
  /** The no-removal draw rule in plies (0 = off). */
  noRemovalLimit: number;
  recover: boolean;
  pgnout?: string;
  resume?: string;
  /** `-resume-force`: resume even when the record's games were played with other settings. */
  resumeForce: boolean;
  /** Points for a draw in the standings (ratings always use ½). */
  drawScore: number;
  /** Summary every N finished games (0 = only at the end). */
  ratingInterval: number;
  event: string;
  /** Name of the engine whose rating is fixed at 0 (default: the first). */
  anchor?: string;
  pingTimeoutMs: number;
  startTimeoutMs: number;
  /** How long a search without a clock (depth=, nodes=) may take before it counts as a timeout loss. */
  searchTimeoutMs: number;
  /** `-report json=FILE`: a JSON line per finished game and per summary, appended to FILE. */
  jsonReport?: string;
  /** The records' Site tag. */
  site?: string;
  /** Notes for the user (e.g. concurrency lowered to the number of cores). */
  notes: string[];
  /** `-distributed redis[s]://… [timeout=S] [ca=FILE] [passwordfile=FILE] [sign=FILE]`: the games are played by workers (src/distributed). */
  distributed?: DistributedSetting;
  /**
   * The rules dialect the games are played under (docs/rules.md §3.1): `-rules`, or found before
   * the first game from the engines' fingerprints (rules-check.ts). Undefined: Thoth's rules.
   */
  rules?: Dialect;
  /** `-rules` was given (the engines are then only checked against it). */
  rulesGiven?: boolean;
  /** A draw after this many plies of the game, the rule of an engine's protocol (KEI: 300); 0 = none. */
  plyLimit?: number;
  /** `-pgnout FILE nodes=true seldepth=true pv=true`: what the records keep of each move beyond score, depth and time. */
  moveData?: MoveData;
  /** `-log FILE [faults]`: the engines' traffic of every game, or of the games with a fault. */
  log?: TrafficLogSetting;
  /** `-tournament knockout`: a bracket of matches (knockout.ts); `rounds` is then game pairs a pairing. */
  knockout?: boolean;
}

export interface DistributedSetting {
  /** The Redis address as given (checked by src/distributed/redis.ts). */
  url: string;
  /** How long Redis may be unreachable before the coordinator gives up. */
  redisTimeoutMs: number;
  /** `ca=FILE`: the CAs of a `rediss://` server. */
  caFile?: string;
  /** `passwordfile=FILE`: the Redis password (first line). */
  passwordFile?: string;
  /** `sign=FILE`: the coordinator's Ed25519 private key that signs the run for the workers (else THOTH_SIGN_KEY). */
  signKey?: string;
}

/** The fixed default seed (as fastchess has one): runs are reproducible unless -srand is given. */
export const DEFAULT_SEED = 951356066;

/** The default of `-searchtimeout` in seconds: generous for any depth/nodes search, yet not forever. */
export const DEFAULT_SEARCH_TIMEOUT_S = 300;

const FLAG_RE = /^--?[A-Za-z][A-Za-z0-9_-]*$/;

interface Flag {
  name: string;
  values: string[];
}

function splitFlags(argv: string[]): Flag[] {
  const flags: Flag[] = [];
  for (const a of argv) {
    if (FLAG_RE.test(a)) flags.push({ name: a.replace(/^--?/, '').toLowerCase(), values: [] });
    else if (flags.length === 0) throw new MatchConfigError(`'${a}': expected a flag such as -engine`);
    else flags[flags.length - 1].values.push(a);
  }
  return flags;
}

/** `key=value` words into pairs (a value may itself contain '='). */
function keyValues(flag: Flag): [string, string][] {
  return flag.values.map((w) => {
    const eq = w.indexOf('=');
    if (eq <= 0) throw new MatchConfigError(`-${flag.name}: expected key=value, not '${w}'`);
    return [w.slice(0, eq), w.slice(eq + 1)];
  });
}

function one(flag: Flag): string {
  if (flag.values.length !== 1) throw new MatchConfigError(`-${flag.name} takes one value`);
  return flag.values[0];
}

function int(flag: string, text: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(text)) throw new MatchConfigError(`${flag} must be a whole number, not '${text}'`);
  const n = Number(text);
  if (n < min || n > max) throw new MatchConfigError(`${flag} must be from ${min} to ${max}, not ${n}`);
  return n;
}

function num(flag: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n)) throw new MatchConfigError(`${flag} must be a number, not '${text}'`);
  if (n < min || n > max) throw new MatchConfigError(`${flag} must be from ${min} to ${max}, not ${n}`);
  return n;
}

interface RawEngine {
  cmd?: string;
  name?: string;
  args: string[];
  dir?: string;
  options: [string, string][];
  limits: EngineLimits;
  timeMarginMs?: number;
  /** The engine's own key=value words, applied after -each. */
  own: [string, string][];
  proto?: ProtocolName;
  ponder?: boolean;
}

function applyEngineKey(e: RawEngine, key: string, value: string, where: string): void {
  const limit = applyLimit(e.limits, key, value);
  if (!limit.ok) throw limit.error;
  if (limit.value) return;
  if (key.startsWith('option.')) {
    const name = key.slice(7);
    if (name === '') throw new MatchConfigError(`${where}: option.<name>=<value> needs a name`);
    const i = e.options.findIndex(([n]) => n.toLowerCase() === name.toLowerCase());
    if (i >= 0) e.options[i] = [name, value];
    else e.options.push([name, value]);
    return;
  }
  switch (key) {
    case 'cmd':
      e.cmd = value;
      return;
    case 'name':
      e.name = value;
      return;
    case 'args':
      e.args = commandWords(value, `${where}: args=`);
      return;
    case 'dir':
      e.dir = value;
      return;
    case 'timemargin':
      e.timeMarginMs = int(`${where} timemargin=`, value, 0, 3_600_000);
      return;
    case 'proto': {
      const p = value === 'uci' ? 'thoth' : value;
      if (!isProtocolName(p))
        throw new MatchConfigError(
          `${where}: unknown proto=${value}${didYouMean(value, [...PROTOCOL_NAMES], '')} (uci or thoth: Thoth's protocol; ${PROTOCOL_NAMES.slice(1).join(', ')}: other engines')`,
        );
      e.proto = p;
      return;
    }
    case 'ponder':
      if (value !== 'true' && value !== 'false')
        throw new MatchConfigError(`${where}: ponder= must be true or false, not '${value}'`);
      e.ponder = value === 'true';
      return;
    case 'restart':
      return; // accepted for cutechess compatibility; engines always stay up between games
    default:
      throw new MatchConfigError(
        `${where}: unknown engine setting '${key}' (cmd, name, args, dir, proto, option.X, tc, st, depth, nodes, timemargin)`,
      );
  }
}

/** A command line split into words like a shell would (an unclosed quote is an error). */
function commandWords(text: string, where: string): string[] {
  const r = splitCommandLine(text);
  if (!r.ok) throw new MatchConfigError(`${where}: ${formatCommandLineError(r.error)}`);
  return r.value;
}

function sprtSetting(f: Flag): SprtConfig {
  const s: SprtConfig = { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05, model: 'normalized' };
  for (const [k, v] of keyValues(f)) {
    if (k === 'elo0') s.elo0 = num('-sprt elo0', v, -1000, 1000);
    else if (k === 'elo1') s.elo1 = num('-sprt elo1', v, -1000, 1000);
    else if (k === 'alpha') s.alpha = num('-sprt alpha', v, 1e-9, 0.5);
    else if (k === 'beta') s.beta = num('-sprt beta', v, 1e-9, 0.5);
    else if (k === 'model') {
      if (v !== 'normalized' && v !== 'logistic')
        throw new MatchConfigError(`-sprt model must be normalized or logistic, not '${v}'`);
      s.model = v;
    } else throw new MatchConfigError(`-sprt: unknown setting '${k}' (elo0, elo1, alpha, beta, model)`);
  }
  if (!(s.elo1 > s.elo0)) throw new MatchConfigError('-sprt: elo1 must be greater than elo0');
  return s;
}

/** Parses the words of `-sprt` (`elo0=0 elo1=5 …`), as `thoth match` does (also for `thoth stats`). */
export function parseSprt(words: string[]): Result<SprtConfig, MatchConfigError> {
  try {
    return ok(sprtSetting({ name: 'sprt', values: words }));
  } catch (e) {
    if (e instanceof MatchConfigError) return err(e);
    throw e;
  }
}

/** Parses the `thoth match` arguments; a bad one is a MatchConfigError with a one-line message. */
export function parseMatchArgs(argv: string[]): Result<MatchConfig, MatchConfigError> {
  try {
    return ok(parseFlags(argv));
  } catch (e) {
    if (e instanceof MatchConfigError) return err(e);
    throw e;
  }
}

/** What parsing has gathered: the config so far and what is applied once every flag is read. */
interface ParseState {
  cfg: MatchConfig;
  raw: RawEngine[];
  each: [string, string][];
  roundsGiven: boolean;
  concurrencyGiven: boolean;
  globalMargin: number;
  openingsFlag?: Flag;
}

function defaultConfig(): MatchConfig {
  return {
    engines: [],
    rounds: 1,
    games: 2,
    tournament: 'roundrobin',
    concurrency: 1,
    variant: 'khet2',
    openings: { kind: 'setups', setups: ['classic'], plies: 4 },
    srand: DEFAULT_SEED,
    adjudication: { maxPlies: 0 },
    noRemovalLimit: NO_REMOVAL_PLIES,
    recover: false,
    resumeForce: false,
    drawScore: 0.5,
    ratingInterval: 10,
    event: 'Thoth match',
    pingTimeoutMs: 10_000,
    startTimeoutMs: 30_000,
    searchTimeoutMs: DEFAULT_SEARCH_TIMEOUT_S * 1000,
    notes: [],
  };
}

function noValue(f: Flag, hint = ''): void {
  if (f.values.length > 0) throw new MatchConfigError(`-${f.name} takes no value${hint}`);
}

function drawSetting(f: Flag): DrawAdjudication {
  const d = { moveNumber: 0, moveCount: 1, score: 0 };
  for (const [k, v] of keyValues(f)) {
    if (k === 'movenumber') d.moveNumber = int('-draw movenumber', v, 0, 100000);
    else if (k === 'movecount') d.moveCount = int('-draw movecount', v, 1, 100000);
    else if (k === 'score') d.score = int('-draw score', v, 0, 100000);
    else throw new MatchConfigError(`-draw: unknown setting '${k}' (movenumber, movecount, score)`);
  }
  return d;
}

function resignSetting(f: Flag): ResignAdjudication {
  const r = { moveCount: 1, score: 0, twoSided: false };
  let scoreGiven = false;
  for (const [k, v] of keyValues(f)) {
    if (k === 'movecount') r.moveCount = int('-resign movecount', v, 1, 100000);
    else if (k === 'score') {
      r.score = int('-resign score', v, 1, 100000);
      scoreGiven = true;
    } else if (k === 'twosided') r.twoSided = v === 'true' || v === '1' || v === 'on';
    else throw new MatchConfigError(`-resign: unknown setting '${k}' (movecount, score, twosided)`);
  }
  if (!scoreGiven) throw new MatchConfigError('-resign needs score=<centipawns>');
  return r;
}

function distributedSetting(f: Flag): DistributedSetting {
  const [url, ...rest] = f.values;
  if (url === undefined)
    throw new MatchConfigError('-distributed needs a Redis address: redis[s]://[USER[:PASSWORD]@]HOST:PORT[/DB]');
  const d: DistributedSetting = { url, redisTimeoutMs: 10_000 };
  for (const [k, v] of keyValues({ name: f.name, values: rest })) {
    if (k === 'timeout') d.redisTimeoutMs = Math.round(num('-distributed timeout', v, 0.1, 3600) * 1000);
    else if (k === 'ca') d.caFile = v;
    else if (k === 'passwordfile') d.passwordFile = v;
    else if (k === 'sign') d.signKey = v;
    else throw new MatchConfigError(`-distributed: unknown setting '${k}' (timeout, ca, passwordfile, sign)`);
  }
  return d;
}

function reportSetting(f: Flag): string {
  let file = '';
  for (const [k, v] of keyValues(f)) {
    if (k !== 'json') throw new MatchConfigError(`-report: unknown format '${k}' (json=FILE)`);
    if (v === '') throw new MatchConfigError('-report json= needs a file name');
    file = v;
  }
  if (f.values.length === 0) throw new MatchConfigError('-report needs json=FILE');
  return file;
}

/**
 * cutechess: -pgnout FILE [min] [fi]; fastchess: -pgnout file=FILE [key=value …], of which
 * nodes=, seldepth= and pv= (true/false) add those of each move to its comment.
 */
function pgnoutSetting(f: Flag, cfg: MatchConfig): string {
  const v = f.values;
  if (v.length === 0) throw new MatchConfigError('-pgnout needs a file name');
  const data: MoveData = { nodes: false, seldepth: false, pv: false };
  for (const w of v) {
    const m = /^(nodes|seldepth|pv)=(.*)$/.exec(w);
    if (!m) continue;
    if (m[2] !== 'true' && m[2] !== 'false')
      throw new MatchConfigError(`-pgnout ${m[1]}= must be true or false, not '${m[2]}'`);
    data[m[1] as keyof MoveData] = m[2] === 'true';
  }
  if (data.nodes || data.seldepth || data.pv) cfg.moveData = data;
  const kv = v.find((w) => w.startsWith('file='));
  return kv ? kv.slice(5) : v[0];
}

/** Every flag with its handler: the handler checks the flag's values and records them. */
const FLAG_HANDLERS: Record<string, (f: Flag, st: ParseState) => void> = {
  // Settings are applied after -each (an engine's own settings win), so keep them for later.
  engine: (f, st) => st.raw.push({ args: [], options: [], limits: {}, own: keyValues(f) }),
  each: (f, st) => st.each.push(...keyValues(f)),
  rounds: (f, st) => {
    st.cfg.rounds = int('-rounds', one(f), 1, 1e9);
    st.roundsGiven = true;
  },
  games: (f, st) => (st.cfg.games = int('-games', one(f), 1, 1000)),
  repeat: (f, st) => {
    if (f.values.length > 1) throw new MatchConfigError('-repeat takes at most one value');
    st.cfg.games = f.values.length === 1 ? int('-repeat', f.values[0], 1, 1000) : 2;
  },
  concurrency: (f, st) => {
    st.cfg.concurrency = int('-concurrency', one(f), 1, 1024);
    st.concurrencyGiven = true;
  },
  tournament: (f, st) => {
    const t = one(f);
    if (t === 'knockout') {
      st.cfg.knockout = true;
      return;
    }
    if (t !== 'roundrobin' && t !== 'gauntlet')
      throw new MatchConfigError(`-tournament must be roundrobin, gauntlet or knockout, not '${t}'`);
    st.cfg.tournament = t;
  },
  variant: (f, st) => {
    const v = one(f);
    if (!isEditionId(v)) throw new MatchConfigError(`unknown variant '${v}' (khet2, khet1 or deflexion)`);
    st.cfg.variant = v;
  },
  openings: (f, st) => (st.openingsFlag = f),
  srand: (f, st) => (st.cfg.srand = int('-srand', one(f), 0, 4294967295)),
  sprt: (f, st) => (st.cfg.sprt = sprtSetting(f)),
  draw: (f, st) => (st.cfg.adjudication.draw = drawSetting(f)),
  resign: (f, st) => (st.cfg.adjudication.resign = resignSetting(f)),
  maxplies: (f, st) => (st.cfg.adjudication.maxPlies = int('-maxplies', one(f), 0, 1e9)),
  maxmoves: (f, st) => (st.cfg.adjudication.maxPlies = 2 * int('-maxmoves', one(f), 0, 1e9)),
  noremoval: (f, st) => (st.cfg.noRemovalLimit = int('-noremoval', one(f), 0, 1e9)),
  recover: (f, st) => {
    noValue(f);
    st.cfg.recover = true;
  },
  timemargin: (f, st) => (st.globalMargin = int('-timemargin', one(f), 0, 3_600_000)),
  pgnout: (f, st) => (st.cfg.pgnout = pgnoutSetting(f, st.cfg)),
  resume: (f, st) => (st.cfg.resume = one(f)),
  'resume-force': (f, st) => {
    noValue(f, ' (it goes with -resume FILE)');
    st.cfg.resumeForce = true;
  },
  drawscore: (f, st) => (st.cfg.drawScore = num('-drawscore', one(f), 0, 1)),
  ratinginterval: (f, st) => (st.cfg.ratingInterval = int('-ratinginterval', one(f), 0, 1e9)),
  event: (f, st) => (st.cfg.event = f.values.join(' ')),
  site: (f, st) => (st.cfg.site = f.values.join(' ')),
  anchor: (f, st) => (st.cfg.anchor = one(f)),
  pingtimeout: (f, st) => (st.cfg.pingTimeoutMs = int('-pingtimeout', one(f), 1, 3_600_000)),
  starttimeout: (f, st) => (st.cfg.startTimeoutMs = int('-starttimeout', one(f), 1, 3_600_000)),
  searchtimeout: (f, st) => (st.cfg.searchTimeoutMs = Math.round(num('-searchtimeout', one(f), 0.001, 86_400) * 1000)),
  report: (f, st) => (st.cfg.jsonReport = reportSetting(f)),
  log: (f, st) => {
    const [file, ...rest] = f.values;
    const path = file?.startsWith('file=') ? file.slice(5) : file;
    if (path === undefined || path === '') throw new MatchConfigError('-log needs a file name: -log FILE [faults]');
    if (rest.some((w) => w !== 'faults'))
      throw new MatchConfigError(`-log FILE [faults]: unknown setting '${rest.find((w) => w !== 'faults')}'`);
    st.cfg.log = { path, faultsOnly: rest.includes('faults') };
  },
  rules: (f, st) => {
    const v = one(f);
    if (v === 'auto') return;
    const d = parseDialect(v);
    if (!d.ok) throw new MatchConfigError(`-rules: ${d.error}`);
    st.cfg.rules = d.value;
    st.cfg.rulesGiven = true;
  },
  distributed: (f, st) => (st.cfg.distributed = distributedSetting(f)),
};

/** Every flag `thoth match` knows (for "did you mean"). */
const MATCH_FLAGS = Object.keys(FLAG_HANDLERS);

/** An engine's settings: -each first, then its own; a complete EngineSpec or an error. */
function engineSpec(e: RawEngine, i: number, st: ParseState): EngineSpec {
  const where = `-engine #${i + 1}`;
  for (const [k, v] of st.each) applyEngineKey(e, k, v, '-each');
  for (const [k, v] of e.own) applyEngineKey(e, k, v, where);
  const command = [...commandWords(e.cmd ?? '', `${where} cmd=`), ...e.args];
  if (e.cmd === undefined || command.length === e.args.length) throw new MatchConfigError(`${where} has no cmd=`);
  if (!hasLimit(e.limits))
    throw new MatchConfigError(`${where} has no time control (tc=, st=, depth= or nodes=, or give them with -each)`);
  const proto = e.proto ?? 'thoth';
  if (proto !== 'thoth') checkForeignEngine(where, proto, e.limits, st.cfg.variant, e.ponder === true);
  return {
    name: e.name ?? defaultName(command),
    nameGiven: e.name !== undefined,
    command,
    dir: e.dir,
    options: e.options,
    limits: e.limits,
    timeMarginMs: e.timeMarginMs ?? st.globalMargin,
    ...(proto !== 'thoth' ? { proto } : {}),
    ...(e.ponder ? { ponder: true } : {}),
  };
}

/** The parsing itself: the helpers throw MatchConfigError, which parseMatchArgs returns. */
function parseFlags(argv: string[]): MatchConfig {
  const cfg = defaultConfig();
  const st: ParseState = { cfg, raw: [], each: [], roundsGiven: false, concurrencyGiven: false, globalMargin: 0 };
  for (const f of splitFlags(argv)) {
    const handler = Object.hasOwn(FLAG_HANDLERS, f.name) ? FLAG_HANDLERS[f.name] : undefined;
    if (!handler) {
      throw new MatchConfigError(
        `unknown flag -${f.name}${didYouMean(f.name, MATCH_FLAGS, '-')}; thoth match --help lists the flags`,
      );
    }
    handler(f, st);
  }
  st.raw.forEach((e, i) => cfg.engines.push(engineSpec(e, i, st)));
  if (cfg.engines.length < 2) throw new MatchConfigError('a match needs at least two -engine');
  applyProtocolDraws(cfg);
  if (cfg.resumeForce && cfg.resume === undefined) throw new MatchConfigError('-resume-force goes with -resume FILE');
  if (cfg.sprt && cfg.engines.length !== 2) throw new MatchConfigError('-sprt needs exactly two engines');
  if (cfg.sprt && !st.roundsGiven) cfg.rounds = Infinity;
  if (cfg.knockout && (cfg.sprt || cfg.resume !== undefined || cfg.distributed))
    throw new MatchConfigError('-tournament knockout goes without -sprt, -resume and -distributed');

  cfg.openings = parseOpenings(st.openingsFlag, cfg.variant);

  const cores = availableParallelism();
  if (cfg.distributed) {
    if (st.concurrencyGiven)
      cfg.notes.push(
        '-concurrency is ignored with -distributed: each worker plays `thoth worker --concurrency N` pairs at once',
      );
  } else if (cfg.concurrency > cores) {
    cfg.notes.push(`-concurrency ${cfg.concurrency} lowered to ${cores}, the number of cores`);
    cfg.concurrency = cores;
  }
  return cfg;
}

function parseOpenings(f: Flag | undefined, variant: EditionId): OpeningSource {
  if (!f) return { kind: 'setups', setups: ['classic'], plies: 4 };
  let file: string | undefined;
  let setups: SetupName[] | undefined;
  let plies: number | undefined;
  let order: 'random' | 'sequential' = 'sequential';
  let start = 1;
  for (const [k, v] of keyValues(f)) {
    switch (k) {
      case 'file':
        file = v;
        break;
      case 'format':
        if (v !== 'kfen' && v !== 'epd')
          throw new MatchConfigError(`-openings format must be kfen (one KFEN per line), not '${v}'`);
        break;
      case 'order':
        if (v !== 'random' && v !== 'sequential')
          throw new MatchConfigError(`-openings order must be random or sequential, not '${v}'`);
        order = v;
        break;
      case 'start':
        start = int('-openings start', v, 1, 1e9);
        break;
      case 'plies':
        plies = int('-openings plies', v, 0, 1000);
        break;
      case 'setups':
      case 'setup': {
        const names =
          v === 'all'
            ? setupsOf(variant)
            : v
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean);
        for (const n of names) {
          if (!isSetupName(n))
            throw new MatchConfigError(`-openings: unknown setup '${n}' (${SETUP_NAMES.join(', ')} or all)`);
          if (!setupsOf(variant).includes(n))
            throw new MatchConfigError(
              `-openings: ${variant} has no ${n} setup (it has ${setupsOf(variant).join(', ')})`,
            );
        }
        if (names.length === 0) throw new MatchConfigError('-openings setups= needs at least one setup');
        setups = names as SetupName[];
        break;
      }
      case 'policy':
        break; // fastchess's policy=round: openings already change every round here
      default:
        throw new MatchConfigError(`-openings: unknown setting '${k}' (file, order, start, plies, setups)`);
    }
  }
  if (file !== undefined && setups !== undefined)
    throw new MatchConfigError('-openings: give file= or setups=, not both');
  if (file !== undefined) return { kind: 'file', path: file, order, start, plies: plies ?? 0 };
  return { kind: 'setups', setups: setups ?? ['classic'], plies: plies ?? 4 };
}
