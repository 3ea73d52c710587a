/**
 * What a worker trusts (docs/distributed.md, "Trust"): a run's settings, which name the engines
 * and builds it will run, are signed by the coordinator with an Ed25519 key (node:crypto); a
 * worker started with `--trust KEY` takes only runs whose settings carry a valid signature by one
 * of its keys. Whoever can write to Redis without that key can at most disturb runs, never make
 * a worker run a program: the builds are named by SHA-256 checksums inside the signed settings,
 * and other engines must be allowed by the worker's own `--allow-engine`.
 *
 * Keys are the PEM files of `openssl genpkey -algorithm ed25519` (private, the coordinator's) and
 * `openssl pkey -pubout` (public, the workers'); a public key may also be given inline as the
 * base64 line between the PEM's BEGIN and END lines.
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import { statSync } from 'node:fs';
import { err, ok, type Result } from '../core/result';
import { readFileCapped } from '../process/files';

/** A key that cannot be read or used. */
export class TrustError extends Error {
  override name = 'TrustError';
}

/** The coordinator's signing key. */
export interface Signer {
  /** The key's id: the first 16 hex digits of the SHA-256 of its public key (DER). */
  id: string;
  key: KeyObject;
}

/** A public key a worker trusts. */
export interface TrustedKey {
  id: string;
  key: KeyObject;
}

/** The id of a public key: the first 16 hex digits of the SHA-256 of its SubjectPublicKeyInfo DER. */
export function keyId(pub: KeyObject): string {
  return createHash('sha256')
    .update(pub.export({ type: 'spki', format: 'der' }))
    .digest('hex')
    .slice(0, 16);
}

/** The most a key file is read: a PEM key is a few hundred bytes, a file of several keys a few KB. */
const KEY_FILE_LIMIT = 64 * 1024;

/** A file's text, or undefined when `value` names no file; throws with the reason when it cannot be read. */
function fileText(value: string): string | undefined {
  try {
    if (!statSync(value).isFile()) return undefined;
  } catch {
    return undefined;
  }
  const r = readFileCapped(value, `'${value}'`, KEY_FILE_LIMIT, ', the limit for a key file');
  if (!r.ok) throw new Error(r.error);
  return r.value.toString('utf8');
}

/**
 * The coordinator's signing key from `value`: a file holding an Ed25519 private key (PEM), or
 * the PEM text itself (as THOTH_SIGN_KEY may hold it).
 */
export function loadSigner(value: string, what = 'the signing key'): Result<Signer, TrustError> {
  let text: string | undefined;
  try {
    text = value.includes('-----BEGIN') ? value : fileText(value);
  } catch (e) {
    return err(new TrustError(`${what}: cannot read '${value}': ${(e as Error).message}`));
  }
  if (text === undefined) return err(new TrustError(`${what}: '${value}' is not a file`));
  let key: KeyObject;
  try {
    key = createPrivateKey(text);
  } catch {
    return err(
      new TrustError(
        `${what}: '${value.includes('-----BEGIN') ? 'the PEM text' : value}' is not a private key (make one with openssl genpkey -algorithm ed25519 -out coordinator.key)`,
      ),
    );
  }
  if (key.asymmetricKeyType !== 'ed25519')
    return err(new TrustError(`${what}: an Ed25519 key is needed, not ${key.asymmetricKeyType ?? 'this key'}`));
  return ok({ id: keyId(createPublicKey(key)), key });
}

/**
 * The coordinator's signing key: `given` (a `sign=FILE` / `--sign FILE`), else THOTH_SIGN_KEY (a
 * file or the PEM text), else a TrustError saying how to make one.
 */
export function signerFor(given: string | undefined, env: NodeJS.ProcessEnv = process.env): Result<Signer, TrustError> {
  if (given !== undefined) return loadSigner(given);
  const e = env.THOTH_SIGN_KEY;
  if (e !== undefined && e !== '') return loadSigner(e, 'THOTH_SIGN_KEY');
  return err(
    new TrustError(
      "workers take only signed runs: give the coordinator's Ed25519 key (openssl genpkey -algorithm ed25519 -out coordinator.key) as sign=FILE after -distributed, --sign FILE with datagen, or THOTH_SIGN_KEY",
    ),
  );
}

/** A PEM block: its label (`PUBLIC KEY`) and the block's text. */
const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

/**
 * The public keys a worker trusts from one `--trust` value: a file holding Ed25519 public keys
 * (PEM; a file of several keys, as when keys are being changed, trusts each of them), or one key
 * inline (the PEM text, or its base64 line). A private key, or a block that is not an Ed25519
 * public key, refuses the whole value.
 */
export function loadTrustedKeys(value: string): Result<TrustedKey[], TrustError> {
  const shown = value.length > 80 ? `${value.slice(0, 77)}...` : value;
  const bad = (): Result<TrustedKey[], TrustError> =>
    err(
      new TrustError(
        `--trust: '${shown}' is neither a file nor an Ed25519 public key (openssl pkey -in coordinator.key -pubout -out coordinator.pub)`,
      ),
    );
  let text: string | undefined;
  try {
    text = fileText(value);
  } catch (e) {
    return err(new TrustError(`--trust: cannot read '${shown}': ${(e as Error).message}`));
  }
  const t = (text ?? value).trim();
  if (t.includes('PRIVATE KEY-----'))
    return err(
      new TrustError(
        `--trust: '${shown}' is a private key; give the workers only the public key (openssl pkey -in KEY -pubout)`,
      ),
    );
  const blocks = [...t.matchAll(PEM_BLOCK)].map((m) => m[0]);
  const keys: TrustedKey[] = [];
  try {
    if (blocks.length > 0) {
      for (const b of blocks) keys.push(trustedKey(createPublicKey(b)));
    } else if (/^[A-Za-z0-9+/]+={0,2}$/.test(t)) {
      keys.push(trustedKey(createPublicKey({ key: Buffer.from(t, 'base64'), format: 'der', type: 'spki' })));
    } else {
      return bad();
    }
  } catch (e) {
    if (e instanceof TrustError) return err(e);
    return bad();
  }
  // the same key twice is one key
  return ok(keys.filter((k, i) => keys.findIndex((o) => o.id === k.id) === i));
}

function trustedKey(key: KeyObject): TrustedKey {
  if (key.asymmetricKeyType !== 'ed25519')
    throw new TrustError(`--trust: an Ed25519 key is needed, not ${key.asymmetricKeyType ?? 'this key'}`);
  return { id: keyId(key), key };
}

/** What is signed for a run's field (`settings` of a match, `datagen` of a datagen run). */
function message(run: string, field: string, text: string): Buffer {
  return Buffer.from(`thoth-run-v1\n${run}\n${field}\n${text}`, 'utf8');
}

/** The fields stored beside a run's settings: the signature (base64) and the signer's key id. */
export interface RunSignature {
  sig: string;
  signer: string;
}

export function signRun(s: Signer, run: string, field: string, text: string): RunSignature {
  return { sig: sign(null, message(run, field, text), s.key).toString('base64'), signer: s.id };
}

/**
 * Why a worker holding `trusted` must refuse a run's settings, in one line; undefined when they
 * carry a valid signature by one of those keys.
 */
export function refuseUnsigned(
  trusted: readonly TrustedKey[],
  run: string,
  field: string,
  text: string,
  sig: string | null,
  signer: string | null,
): string | undefined {
  const ids = trusted.map((k) => k.id).join(', ');
  if (sig === null || sig === '' || signer === null || signer === '')
    return `the run is not signed; this worker takes only runs signed by key ${ids} (--trust)`;
  const k = trusted.find((t) => t.id === signer);
  if (!k)
    return `the run is signed by key ${signer.slice(0, 16).replace(/[^0-9a-f]/g, '?')}, not by a key this worker trusts (${ids})`;
  let good = false;
  try {
    good = verify(null, message(run, field, text), k.key, Buffer.from(sig, 'base64'));
  } catch {
    good = false;
  }
  return good
    ? undefined
    : `the run's settings do not match their signature by key ${k.id} (changed in Redis after the coordinator signed them)`;
}
