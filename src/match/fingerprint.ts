/**
 * The rules dialect of an engine of another protocol, found before a match's first game
 * (docs/match.md, "Rules dialects and fingerprints"): perft where the engine answers it (UKI
 * engines count it on their command line: `khetplayer.dailey perft 3`), otherwise probe positions
 * chosen so that the dialects' moves differ: a position whose only winning (or only saving) move
 * exists under one switch; what the engine plays says whether it has the move. A switch no probe
 * can see is taken from what is known of the protocol's engines (foreign/protocols.ts), and the
 * evidence says so.
 */
import {
  THOTH_DIALECT,
  type Dialect,
  SETUPS,
  DIALECT_SWITCHES,
  dialectRules,
  dialectSetup,
  parseKfen,
  parseMove,
  perftEndsAsLeaves,
  switchField,
} from '../core/index';
import { type ForeignProtocol, PROTOCOLS, type Translator, knownDialect } from '../foreign/foreign';
import { LineProcess } from '../process/child';
import { EngineProcess, type EngineSpec } from './engine-process';

/** Every move switch on: the translator then reads any move an engine may play. */
const SUPERSET: Dialect = {
  pharaohRotation: true,
  twoScarabRotations: true,
  swapOntoReserved: true,
  swapSphinx: true,
  turnedScarabs: false,
};

/** A probe: a position (a KFEN, or a named setup and moves) and what the engine's answer says. */
interface Probe {
  /** The switch it looks at. */
  switch: keyof Dialect;
  /** In words, for the evidence. */
  what: string;
  kfen: string;
  /** Moves from a named setup: the position is sent as the engine's own Classic and these moves. */
  setupMoves?: string[];
  /** The answers that show the switch on, and those that show it off (others say nothing). */
  on: readonly string[];
  off?: readonly string[];
  /** How many times to ask (an engine that breaks ties at random may show a second rotation). */
  tries?: number;
}

/**
 * The probes (test/core/dialect.test.ts and test/match/fingerprint.test.ts check each position):
 * - Pharaoh rotation: Silver's every move but a turn of the Pharaoh on j8 loses within two plies;
 * - swap onto a reserved square: the only win pushes the Red Pyramid on i5 onto j5;
 * - swap with the Sphinx: the only win swaps the Sphinx to i2, whence it fires along rank 2;
 * - two Scarab rotations: the only win turns the Scarab on j4 (`j4-` shows the second turn);
 * - turned Scarabs: after these moves from the engine's own Classic, the only win is e3f4 with
 *   Thoth's Scarabs and e4f4 with turned ones.
 */
const PROBES: readonly Probe[] = [
  {
    switch: 'pharaohRotation',
    what: 'a Pharaoh turn saves the game',
    kfen: 'xv6pv1K/p>9/10/6k3/1p^8/10/4a>1p<3/3a<5X< s 0 1',
    on: ['j8+', 'j8-'],
  },
  {
    switch: 'swapOntoReserved',
    what: 'a swap onto a reserved square wins',
    kfen: 'xv7k1/10/10/8pvS^/10/4K5/10/9X^ s 0 1',
    on: ['j5i5'],
  },
  {
    switch: 'swapSphinx',
    what: 'a swap with the Sphinx wins',
    kfen: 'xv9/10/10/10/10/4K5/2k5S^1/9X< s 0 1',
    on: ['i2j1'],
  },
  {
    switch: 'twoScarabRotations',
    what: 'a Scarab turn wins',
    kfen: 'xv9/5K4/10/10/2k6S>/10/10/9X^ s 0 1',
    on: ['j4-'],
    tries: 3,
  },
  {
    switch: 'turnedScarabs',
    what: "a win through the Scarabs of the engine's own Classic",
    kfen: SETUPS.khet2.classic,
    setupMoves: ['f4e3', 'f5g6', 'j5+', 'h4g5', 'c4d5', 'e8-'],
    on: ['e4f4'],
    off: ['e3f4'],
  },
];

/** The probes, as data for the tests. */
export const FINGERPRINT_PROBES = PROBES;

export interface Fingerprint {
  dialect: Dialect;
  /** How each switch was found, in words. */
  evidence: string[];
}

/** The line an engine's named Classic and moves are set with, in its own protocol (no such form: undefined). */
function namedSetupLine(proto: ForeignProtocol, moves: string[]): string | undefined {
  switch (proto) {
    case 'uki':
      return `position classic moves ${moves.join(' ')}`;
    case 'kei':
      return `position startpos classic moves ${moves.join(' ')}`;
    case 'khet2ai':
      return `position standard ${moves.join(' ')}`;
    default:
      return undefined;
  }
}

/**
 * perft(3) from Classic by the engine's command line (`<cmd> perft 3`, as ddket counts it: a game
 * end is a leaf), or undefined when it prints no such count within the time.
 */
async function argvPerft(spec: EngineSpec, timeoutMs: number, signal?: AbortSignal): Promise<number | undefined> {
  const p = new LineProcess([...spec.command, 'perft', '3'], { cwd: spec.dir, ownGroup: true });
  let n: number | undefined;
  p.onLine = (line) => {
    const m = /^perft\s+3\s+(\d+)\s*$/.exec(line.trim());
    if (m) n = Number(m[1]);
  };
  const ended = new Promise<void>((resolve) => {
    p.onExit = () => resolve();
  });
  p.start();
  p.endInput();
  let timer: NodeJS.Timeout | undefined;
  const onAbort = (): void => p.kill();
  signal?.addEventListener('abort', onAbort, { once: true });
  await Promise.race([ended, new Promise<void>((r) => (timer = setTimeout(r, timeoutMs)))]);
  clearTimeout(timer);
  signal?.removeEventListener('abort', onAbort);
  p.kill();
  await p.closed();
  return n;
}

/** The (Pharaoh rotation, two Scarab rotations, turned Scarabs) that give `n` as a game-end-as-leaf perft(3) of Classic. */
function perftDialects(n: number): Dialect[] {
  const out: Dialect[] = [];
  for (const pharaohRotation of [false, true]) {
    for (const twoScarabRotations of [false, true]) {
      for (const turnedScarabs of [false, true]) {
        const d: Dialect = { ...THOTH_DIALECT, pharaohRotation, twoScarabRotations, turnedScarabs };
        const r = parseKfen(dialectSetup('classic', d)!, 'khet2', dialectRules(d));
        if (r.ok && perftEndsAsLeaves(r.value, 3) === n) out.push(d);
      }
    }
  }
  return out;
}

/** Asks the engine for its move in a probe position (depth 3); undefined when it gives none in time. */
async function answer(e: EngineProcess, probe: Probe, proto: ForeignProtocol, timeoutMs: number, signal?: AbortSignal) {
  e.send('ucinewgame');
  const moves = probe.setupMoves ?? [];
  e.send(`position kfen ${probe.kfen}${moves.length > 0 ? ` moves ${moves.join(' ')}` : ''}`);
  if (probe.setupMoves !== undefined) {
    // the engine's own Classic: the moves in its notation, its setup by name
    const f = e.foreign;
    const line = f && namedSetupLine(proto, foreignMoves(f.translator, moves));
    if (!f || line === undefined) return undefined;
    f.sendRaw(line);
  }
  // an answer the translator could not read tells nothing
  let fault = false;
  e.onLine = (l) => {
    if (l.startsWith('info string error: ')) fault = true;
  };
  e.send('go depth 3');
  const r = await e.waitFor((l) => l.startsWith('bestmove'), timeoutMs, signal);
  e.onLine = undefined;
  if (r.kind !== 'line') {
    e.send('stop');
    await e.waitFor((l) => l.startsWith('bestmove'), 2000, signal);
    return undefined;
  }
  return fault ? undefined : r.line.split(/\s+/)[1];
}

/** Moves of Classic in the translator's notation. */
function foreignMoves(t: Translator, moves: string[]): string[] {
  const r = parseKfen(SETUPS.khet2.classic, 'khet2', dialectRules(SUPERSET));
  if (!r.ok) return [];
  const pos = r.value;
  const out: string[] = [];
  for (const text of moves) {
    const m = parseMove(pos, text);
    if (!m.ok) return [];
    out.push(t.writeMove(pos, m.value));
    pos.make(m.value);
  }
  return out;
}

/**
 * The dialect of an engine of another protocol: started on its own (not the run's process), asked
 * for perft where its protocol has it, then the probes; what neither shows comes from what is known
 * of the protocol's engines.
 */
export async function fingerprint(
  spec: EngineSpec & { proto: ForeignProtocol },
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<Fingerprint | string> {
  const proto = spec.proto;
  const info = PROTOCOLS[proto];
  const known = knownDialect(proto);
  const found: Partial<Dialect> = {};
  const evidence: string[] = [];
  if (info.perft === 'argv') {
    const n = await argvPerft(spec, Math.max(timeoutMs, 60_000), signal);
    if (n !== undefined) {
      const fits = perftDialects(n);
      if (fits.length === 1) {
        found.pharaohRotation = fits[0].pharaohRotation;
        found.twoScarabRotations = fits[0].twoScarabRotations;
        found.turnedScarabs = fits[0].turnedScarabs;
      }
      evidence.push(
        `perft 3 from Classic ${n.toLocaleString('en-US')}${fits.length === 1 ? '' : ' (no dialect gives it)'}`,
      );
    }
  }
  const e = new EngineProcess(spec, SUPERSET);
  e.start();
  try {
    const problem = await e.handshake('khet2', timeoutMs, signal);
    if (problem !== undefined) return typeof problem === 'string' ? problem : problem.text;
    for (const probe of PROBES) {
      if (found[probe.switch] !== undefined) continue;
      let seen: boolean | undefined;
      const answers: string[] = [];
      for (let i = 0; i < (probe.tries ?? 1) && seen !== true; i++) {
        const a = await answer(e, probe, proto, timeoutMs, signal);
        if (a === undefined) break;
        answers.push(a);
        if (probe.on.includes(a)) seen = true;
        else if (probe.off === undefined || probe.off.includes(a)) seen = false;
      }
      // a second rotation shown is proof; not shown, it is only likely absent (so are the
      // switches the protocol's engines cannot show off: PROTOCOLS' unseen)
      const blind =
        probe.switch === 'twoScarabRotations' || info.known.unseen.some((s) => switchField(s) === probe.switch);
      if (seen === true || (seen === false && !blind)) {
        found[probe.switch] = seen;
        evidence.push(`${probe.what}: ${answers.join(', ')} → ${seen ? 'yes' : 'no'}`);
      }
    }
  } finally {
    await e.quit(300);
  }
  const dialect = { ...known };
  const fromSource: string[] = [];
  for (const s of DIALECT_SWITCHES) {
    const k = switchField(s);
    if (found[k] !== undefined) dialect[k] = found[k];
    else fromSource.push(`${s} ${known[k] ? 'on' : 'off'}`);
  }
  if (fromSource.length > 0) evidence.push(`not seen, as ${info.known.engine} plays: ${fromSource.join(', ')}`);
  return { dialect, evidence };
}
