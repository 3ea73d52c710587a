/**
 * Which evaluation an engine plays with, as it says itself (`eval`, protocol.md): the network
 * by its checksum, and whether the search uses it or the hand-written evaluation. The coordinator
 * of a distributed match asks each Thoth engine once it has started it and signs the answers with
 * the run's settings; a worker asks its own engine the same and refuses the run when the answers
 * differ: a build without its network (it played the hand-written evaluation, silently), another
 * network under the same EvalFile path, a UseNNUE that does not take.
 */
import { oneLine } from '../core/quote';
import type { EngineProcess } from '../match/engine-process';

/** `info string network <source> (sha256 <16 hex>, …`: the source is a path, which differs between machines. */
const NETWORK_LINE = /^info string network (?:.*?) \((sha256 [0-9a-f]{16}, .*)$/;

/**
 * The engine's own words for its evaluation, as one line to compare (`network (sha256 91fb…, 256
 * hidden, in use): 27; the search uses: the network, 27`), or undefined when it says nothing of it
 * (an engine that is not Thoth) or does not answer `isready` within `timeoutMs`.
 */
export async function engineEvaluation(e: EngineProcess, timeoutMs: number): Promise<string | undefined> {
  const said: string[] = [];
  const prev = e.onLine;
  e.onLine = (line) => {
    if (said.length < 100 && /^info string (network|the search uses:)/.test(line)) said.push(line);
  };
  try {
    e.send('eval');
    if ((await e.ping(timeoutMs)) !== undefined) return undefined;
  } finally {
    e.onLine = prev;
  }
  if (said.length === 0) return undefined;
  return said
    .map((l) => {
      const m = NETWORK_LINE.exec(l);
      return oneLine(m ? `network (${m[1]}` : l.replace(/^info string /, ''));
    })
    .join('; ');
}
