/**
 * Links to a position or a game: a URL fragment that either page (`thoth gui`, the static build)
 * opens. `#kfen=1.<data>` holds a position (the edition and a KFEN), `#game=1.<data>` a whole game
 * (its PGN: moves, tags, variations, NAGs, comments). `1` is the format's version; the data is the
 * UTF-8 text deflated (CompressionStream 'deflate') and written in base64url. Pure: no page, no DOM.
 */
import { err, isEditionId, ok, parseKfen, formatKfenError, type EditionId, type Result } from '../../../core/index';

const LINK_VERSION = '1';
/** Longest text a link may unpack to (a long game with comments is a few tens of kB). */
export const MAX_LINK_TEXT = 1 << 20;

export type LinkPayload = { kind: 'kfen'; edition: EditionId; kfen: string } | { kind: 'game'; pgn: string };

export type LinkError =
  | { kind: 'not a link' }
  | { kind: 'version'; version: string }
  | { kind: 'encoding' }
  | { kind: 'compression' }
  | { kind: 'too long' }
  | { kind: 'edition'; edition: string }
  | { kind: 'kfen'; message: string };

export function formatLinkError(e: LinkError): string {
  switch (e.kind) {
    case 'not a link':
      return 'not a Thoth link (#kfen=… or #game=…)';
    case 'version':
      return `the link's format ${e.version} is not one this page reads (it reads ${LINK_VERSION})`;
    case 'encoding':
      return 'the link is damaged (not base64url)';
    case 'compression':
      return 'the link is damaged (its data does not unpack)';
    case 'too long':
      return `the link unpacks to more than ${MAX_LINK_TEXT} bytes`;
    case 'edition':
      return `unknown edition '${e.edition}'`;
    case 'kfen':
      return `bad KFEN: ${e.message}`;
  }
}

function toBase64Url(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  try {
    const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

async function readAll(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | 'too long'> {
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    n += value.length;
    if (n > limit) {
      await reader.cancel().catch(() => undefined);
      return 'too long';
    }
    parts.push(value);
  }
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

async function deflate(text: string): Promise<Uint8Array> {
  const stream = new Blob([new TextEncoder().encode(text)]).stream().pipeThrough(new CompressionStream('deflate'));
  const r = await readAll(stream, Number.MAX_SAFE_INTEGER);
  return r as Uint8Array;
}

/** Bytes fed to the decompressor at a time: deflate unpacks at most about 1,032 to 1, so a slice unpacks to ≤ 264 kB. */
const INFLATE_SLICE = 256;

/**
 * The bytes as a stream of INFLATE_SLICE-byte chunks, each made only when the reader asks for it
 * (no queue ahead): the decompressor never gets more input than the reader is ready for, so a
 * link that unpacks to gigabytes stops at MAX_LINK_TEXT instead of filling the tab's memory (a
 * whole Blob as input let Chromium unpack a 1.36 MB link to 1.2 GB before the limit was seen).
 */
function slicedStream(bytes: Uint8Array): ReadableStream<Uint8Array<ArrayBuffer>> {
  let at = 0;
  return new ReadableStream<Uint8Array<ArrayBuffer>>(
    {
      pull(c) {
        if (at >= bytes.length) c.close();
        else c.enqueue(new Uint8Array(bytes.subarray(at, (at += INFLATE_SLICE))));
      },
    },
    { highWaterMark: 0 },
  );
}

async function inflate(bytes: Uint8Array): Promise<Result<string, LinkError>> {
  try {
    const stream = slicedStream(bytes).pipeThrough(new DecompressionStream('deflate'));
    const r = await readAll(stream, MAX_LINK_TEXT);
    if (r === 'too long') return err({ kind: 'too long' });
    return ok(new TextDecoder('utf-8', { fatal: true }).decode(r));
  } catch {
    return err({ kind: 'compression' });
  }
}

/** The fragment for a position or a game, without the `#`: `kfen=1.…` or `game=1.…`. */
export async function encodeLink(p: LinkPayload): Promise<string> {
  const text = p.kind === 'kfen' ? `${p.edition}\n${p.kfen.trim()}` : p.pgn;
  return `${p.kind}=${LINK_VERSION}.${toBase64Url(await deflate(text))}`;
}

/** True when a fragment (with or without its `#`) looks like one of these links. */
export function isLinkFragment(fragment: string): boolean {
  return /^#?(kfen|game)=/.test(fragment);
}

/**
 * The position or game of a fragment (with or without its `#`). A position's edition and KFEN are
 * checked here; a game's PGN is checked when the page imports it.
 */
export async function decodeLink(fragment: string): Promise<Result<LinkPayload, LinkError>> {
  const m = /^#?(kfen|game)=([^.]*)\.(.*)$/s.exec(fragment.trim());
  if (!m) return err({ kind: 'not a link' });
  const [, kind, version, data] = m;
  if (version !== LINK_VERSION) return err({ kind: 'version', version });
  const bytes = fromBase64Url(data);
  if (!bytes) return err({ kind: 'encoding' });
  const text = await inflate(bytes);
  if (!text.ok) return text;
  if (kind === 'game') return ok({ kind: 'game', pgn: text.value });
  const nl = text.value.indexOf('\n');
  const edition = nl < 0 ? text.value : text.value.slice(0, nl);
  if (!isEditionId(edition)) return err({ kind: 'edition', edition });
  const kfen = text.value.slice(nl + 1).trim();
  const parsed = parseKfen(kfen, edition);
  if (!parsed.ok) return err({ kind: 'kfen', message: formatKfenError(parsed.error) });
  return ok({ kind: 'kfen', edition, kfen });
}

/**
 * The address of this page with `fragment`: any old fragment goes, and so does `thoth gui`'s
 * `token` (a secret of the person's own server, never to be shared).
 */
export function linkUrl(base: string, fragment: string): string {
  const i = base.indexOf('#');
  let page = i < 0 ? base : base.slice(0, i);
  const q = page.indexOf('?');
  if (q >= 0) {
    const params = new URLSearchParams(page.slice(q + 1));
    params.delete('token');
    const rest = params.toString();
    page = page.slice(0, q) + (rest ? `?${rest}` : '');
  }
  return `${page}#${fragment}`;
}
