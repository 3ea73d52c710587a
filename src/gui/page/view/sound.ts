/**
 * The page's sounds, made with the Web Audio API (no audio files): a move, a removal, a Pharaoh
 * hit, low time and the end of a game. `soundsFor` (pure) says which sounds a state change makes;
 * `Sounds` plays them unless the person turned them off (the `sound` setting, kept in storage).
 */
import { PHARAOH, kindOf } from '../../../core/index';
import { isOver, type PageState } from '../state/state';
import { nodeAt } from '../state/tree';

export type SoundName = 'move' | 'removal' | 'pharaoh' | 'low' | 'end';

/** Below this a running clock sounds once (as lichess's ten seconds). */
export const LOW_TIME_MS = 10000;

/** The sounds a transition from `a` to `b` makes: the move just added and shown, and the end of the game. */
export function soundsFor(a: PageState, b: PageState): SoundName[] {
  const out: SoundName[] = [];
  const added = a.tree !== b.tree && b.path.length === a.path.length + 1 && a.path.every((x, i) => b.path[i] === x);
  const shownAfterReply =
    a.tree !== b.tree && !added && b.path.length > a.path.length && a.pendingReply !== null && b.pendingReply === null;
  if (added || shownAfterReply) {
    const ply = nodeAt(b.tree, b.path)?.ply;
    if (ply) out.push(ply.killedSq < 0 ? 'move' : kindOf(ply.killedPiece) === PHARAOH ? 'pharaoh' : 'removal');
  }
  // The end of this game (a move, a resignation, a flag, a draw), not of a game loaded already over.
  if (!isOver(a) && isOver(b) && !out.includes('pharaoh') && (added || a.tree === b.tree)) out.push('end');
  return out;
}

/** Notes of each sound: [frequency Hz, start s, length s, wave]. */
const NOTES: Record<SoundName, [number, number, number, OscillatorType][]> = {
  move: [[520, 0, 0.07, 'triangle']],
  removal: [
    [330, 0, 0.09, 'sawtooth'],
    [196, 0.07, 0.18, 'sawtooth'],
  ],
  pharaoh: [
    [392, 0, 0.14, 'square'],
    [523, 0.12, 0.14, 'square'],
    [784, 0.24, 0.3, 'square'],
  ],
  low: [
    [880, 0, 0.09, 'sine'],
    [880, 0.16, 0.09, 'sine'],
  ],
  end: [
    [523, 0, 0.16, 'triangle'],
    [659, 0.14, 0.16, 'triangle'],
    [784, 0.28, 0.32, 'triangle'],
  ],
};

export class Sounds {
  private ctx: AudioContext | null = null;
  /** What was played, newest last (the tests read it). */
  readonly played: SoundName[] = [];

  constructor(private readonly enabled: () => boolean) {}

  play(name: SoundName): void {
    if (!this.enabled()) return;
    this.played.push(name);
    try {
      const Ctx =
        globalThis.AudioContext ??
        (globalThis as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
      if (!Ctx) return;
      this.ctx ??= new Ctx();
      const ctx = this.ctx;
      if (ctx.state === 'suspended') void ctx.resume();
      const t0 = ctx.currentTime + 0.01;
      for (const [f, at, len, wave] of NOTES[name]) {
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        osc.type = wave;
        osc.frequency.setValueAtTime(f, t0 + at);
        gain.gain.setValueAtTime(0.0001, t0 + at);
        gain.gain.exponentialRampToValueAtTime(0.12, t0 + at + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
        osc.connect(gain).connect(ctx.destination);
        osc.start(t0 + at);
        osc.stop(t0 + at + len + 0.02);
      }
    } catch {
      // No audio here (a locked-down browser): the game goes on silently.
    }
  }
}
