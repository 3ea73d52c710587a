/**
 * Quoting the input in error lines: at most QUOTE_MAX characters of it, so that a line of 20 kB
 * is answered by a readable message, not an echo. Every error line of the protocol goes through
 * here: `quote` for the text it names, `clipMessage` for messages made elsewhere (the KFEN and
 * move readers of src/core quote their input whole).
 */

/** The most characters of the input an error line quotes. */
const QUOTE_MAX = 200;

/** `text`, or its first QUOTE_MAX characters and how long it was. */
function clip(text: string): string {
  if (text.length <= QUOTE_MAX) return text;
  return `${text.slice(0, QUOTE_MAX)}… (${text.length} characters)`;
}

/** `text` in single quotes, clipped. */
export function quote(text: string): string {
  return `'${clip(text)}'`;
}

/** A message with every run of more than QUOTE_MAX characters without a space clipped. */
export function clipMessage(message: string): string {
  return message.replace(new RegExp(`\\S{${QUOTE_MAX + 1},}`, 'g'), (run) => clip(run));
}
