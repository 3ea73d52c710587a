/**
 * Other Khet engines: their protocols behind translators (Thoth's protocol to the runner and the
 * GUI), and their rules dialects found by fingerprinting. docs/match.md, "Other engines".
 */
import type { Dialect } from '../core/index';
import { type ChildOptions, type LineChild, LineProcess } from '../process/child';
import { type ProtocolName, createTranslator } from './protocols';
import { TranslatedProcess } from './translated-process';

export * from './protocols';
export { moveTimeFromClock, Translator } from './translator';
export { TranslatedProcess } from './translated-process';

/** A child for an engine: spoken to as it is (Thoth's protocol), or through its protocol's translator. */
export function engineChild(
  command: readonly string[],
  options: ChildOptions,
  proto: ProtocolName = 'thoth',
  dialect?: Dialect,
): LineChild {
  if (proto === 'thoth') return new LineProcess(command, options);
  if (dialect === undefined) throw new Error(`a ${proto} engine needs the dialect it plays`);
  return new TranslatedProcess(command, options, createTranslator(proto, dialect));
}
