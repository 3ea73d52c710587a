/**
 * The protocols of other Khet engines that `-engine proto=…` names (docs/match.md, "Other
 * engines"), and what each allows: the `go` forms it has, the draw rules of its engines, and the
 * rules dialect its known engines play (docs/rules.md §3.1), which fingerprint.ts checks.
 */
import { type Dialect, type DialectSwitch, THOTH_DIALECT, parseDialect } from '../core/index';
import { KeiTranslator } from './kei';
import { Khet2aiTranslator } from './khet2ai';
import { KhetaiTranslator } from './khetai';
import type { Translator } from './translator';
import { UkiTranslator } from './uki';

/** `thoth`: Thoth's own protocol (protocol.md), spoken as it is; the others through a translator. */
export const PROTOCOL_NAMES = ['thoth', 'uki', 'kei', 'khet2ai', 'khetai'] as const;
export type ProtocolName = (typeof PROTOCOL_NAMES)[number];
export type ForeignProtocol = Exclude<ProtocolName, 'thoth'>;

export function isProtocolName(s: string): s is ProtocolName {
  return (PROTOCOL_NAMES as readonly string[]).includes(s);
}

/** The limits a protocol's `go` can carry (a clock may become a move time). */
export type LimitKind = 'tc' | 'movetime' | 'depth' | 'nodes';

export interface ProtocolInfo {
  /** In messages. */
  label: string;
  /** Its handshake and its ping, in its own words (for messages). */
  handshake: string;
  ping: string;
  limits: readonly LimitKind[];
  /** The draw rules its engines apply themselves (the referee applies them too: docs/match.md). */
  draws: { noRemovalLimit?: number; plyLimit?: number };
  /**
   * The dialect of the engines known to speak it (docs/match.md, "Other engines"), and the
   * switches whose probe cannot show them off for its engines (the fingerprint then takes them
   * from here unless a probe shows them on): khetai's laser leaves the corner after its Sphinx
   * swap, so the swap never wins the probe in its eyes.
   */
  known: { engine: string; dialect: string; unseen: readonly DialectSwitch[] };
  /** Whether it can be fingerprinted by perft: how. */
  perft?: 'argv';
}

const dialect = (text: string): Dialect => {
  const r = parseDialect(text);
  if (!r.ok) throw new Error(r.error);
  return r.value;
};

export const PROTOCOLS: Readonly<Record<ForeignProtocol, ProtocolInfo>> = {
  uki: {
    label: 'UKI',
    handshake: "'uki' → 'ukiok'",
    ping: "'isready' → 'readyok'",
    limits: ['tc', 'depth', 'nodes'],
    draws: {},
    known: { engine: 'ddket', dialect: 'pharaoh-rotation+two-scarab-rotations', unseen: [] },
    perft: 'argv',
  },
  kei: {
    label: 'KEI',
    handshake: "'kei' → 'keiok'",
    ping: "'isready' → 'readyok'",
    limits: ['tc', 'movetime', 'depth', 'nodes'],
    draws: { plyLimit: 300 },
    known: { engine: 'dandailey/khet', dialect: 'turned-scarabs', unseen: [] },
  },
  khet2ai: {
    label: 'Khet2-AI',
    handshake: "'isready' → 'info string Unrecognised message type: isready'",
    ping: "'isready' → 'info string Unrecognised message type: isready'",
    limits: ['tc', 'movetime', 'depth'],
    draws: { noRemovalLimit: 100 },
    known: { engine: 'Khet2-AI', dialect: 'swap-onto-reserved', unseen: [] },
  },
  khetai: {
    label: 'khetai',
    handshake: "'ping' → 'pong' (scripts/khetai-bridge.rb)",
    ping: "'ping' → 'pong'",
    limits: ['tc', 'movetime', 'depth'],
    draws: {},
    known: {
      engine: 'khetai',
      dialect: 'two-scarab-rotations+swap-onto-reserved+swap-sphinx',
      unseen: ['swap-sphinx'],
    },
  },
};

/** The dialect the known engines of a protocol play (Thoth's for Thoth's protocol). */
export function knownDialect(proto: ProtocolName): Dialect {
  return proto === 'thoth' ? THOTH_DIALECT : dialect(PROTOCOLS[proto].known.dialect);
}

/** A translator for an engine speaking `proto`, reading positions and moves under `d`. */
export function createTranslator(proto: ForeignProtocol, d: Dialect): Translator {
  switch (proto) {
    case 'uki':
      return new UkiTranslator(d);
    case 'kei':
      return new KeiTranslator(d);
    case 'khet2ai':
      return new Khet2aiTranslator(d);
    case 'khetai':
      return new KhetaiTranslator(d);
  }
}
