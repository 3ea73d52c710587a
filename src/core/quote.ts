/**
 * Quoting the input in error lines: at most QUOTE_MAX characters of it, so that a line of 20 kB
 * is answered by a readable message, not an echo. Every error line of the protocol goes through
 * here: `quote` for the text it names, `clipMessage` for messages made elsewhere (the KFEN and
 * move readers of src/core quote their input whole).
 */

/** The most characters of the input an error line quotes. */
export const QUOTE_MAX = 200;

/** `text`, or its first QUOTE_MAX characters and how long it was. */
export function clip(text: string): string {
  if (text.length <= QUOTE_MAX) return text;
  return `${text.slice(0, QUOTE_MAX)}… (${text.length} characters)`;
}

/** `text`, or its first QUOTE_MAX characters and `…` (a line another program wrote, quoted in a message). */
export function shorten(text: string): string {
  return text.length > QUOTE_MAX ? `${text.slice(0, QUOTE_MAX)}…` : text;
}

/** `text` in single quotes, clipped. */
export function quote(text: string): string {
  return `'${clip(text)}'`;
}

/** A clipped text's tail, as {@link clip} writes it. */
const CLIPPED_TAIL = /^ \(\d+ characters\)/;

/**
 * A message with every run of more than QUOTE_MAX characters without a space clipped; a run
 * that {@link clip} has clipped already is left as it is, and quotes or brackets around a run
 * stay outside the clipped text (`'xx…x'` becomes `'xx… (20000 characters)'`).
 */
export function clipMessage(message: string): string {
  return message.replace(new RegExp(`\\S{${QUOTE_MAX + 1},}`, 'g'), (run: string, at: number) => {
    if (run.endsWith('…') && run.length <= QUOTE_MAX + 2 && CLIPPED_TAIL.test(message.slice(at + run.length)))
      return run;
    const [, open, body, close] = /^(['"(]?)([\s\S]*?)(['")]?[:;,.]?)$/.exec(run) as RegExpExecArray;
    return `${open}${clip(body)}${close}`;
  });
}

/**
 * Text from elsewhere (what a distributed run's worker wrote to Redis: its id, a refusal, a
 * fault's words), made one printable line: control characters (line breaks, terminal escapes)
 * become `?`, and it is cut at 300 characters, so that it cannot forge lines of the output or
 * move a terminal's cursor.
 */
export function oneLine(text: unknown): string {
  const t = String(text).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '?');
  return t.length > 300 ? `${t.slice(0, 297)}...` : t;
}
