/**
 * The handshake's `option name X type T [default D] [min A] [max B] [var V …]` line: its one
 * formatter (what Thoth declares, src/engine/options.ts) and its one parser (what a client reads:
 * the match runner's engines, src/match/engine-options.ts, and the GUI page's engine,
 * src/gui/page/engine/engine-client.ts). Pure, so the page bundles it.
 */

/** An option as the handshake declares it (what Thoth formats). */
export interface OptionSpec {
  name: string;
  type: 'spin' | 'check' | 'combo' | 'button' | 'string';
  default?: string | number | boolean;
  min?: number;
  max?: number;
  vars?: readonly string[];
}

/** An option as an engine declared it (what a client parses; values as text). */
export interface DeclaredOption {
  name: string;
  /** spin, check, combo, button, string (or whatever the engine says), in lower case. */
  type: string;
  default?: string;
  min?: number;
  max?: number;
  /** A combo's values. */
  vars: string[];
}

export function formatOptionLine(o: OptionSpec): string {
  let s = `option name ${o.name} type ${o.type}`;
  if (o.default !== undefined) s += ` default ${String(o.default)}`;
  if (o.min !== undefined) s += ` min ${o.min}`;
  if (o.max !== undefined) s += ` max ${o.max}`;
  if (o.vars) for (const v of o.vars) s += ` var ${v}`;
  return s;
}

const KEYWORDS = new Set(['default', 'min', 'max', 'var']);

/** Parses an option line; undefined for other lines. */
export function parseOptionLine(line: string): DeclaredOption | undefined {
  const m = /^option\s+name\s+(.+?)\s+type\s+(\S+)(?:\s+(.*))?$/.exec(line.trim());
  if (!m) return undefined;
  const o: DeclaredOption = { name: m[1], type: m[2].toLowerCase(), vars: [] };
  // Values run up to the next keyword (a combo var or a string default may hold spaces); a value's
  // first word is its own even when it is a keyword (Thoth's EvalFile says `default default`).
  const words = (m[3] ?? '').split(/\s+/).filter(Boolean);
  for (let i = 0; i < words.length; ) {
    const key = words[i++];
    const value: string[] = i < words.length ? [words[i++]] : [];
    while (i < words.length && !KEYWORDS.has(words[i])) value.push(words[i++]);
    const v = value.join(' ');
    if (key === 'default') o.default = v;
    else if (key === 'min') o.min = Number(v);
    else if (key === 'max') o.max = Number(v);
    else if (key === 'var') o.vars.push(v);
  }
  return o;
}
