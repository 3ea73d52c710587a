/**
 * The engines of the GUI server: one engine process for each page connected (a tab, on this
 * computer or another device of a club's network), at most `most` at once, with full strength's
 * threads shared between them.
 *
 * - A page that connects takes the spare, an engine ready beforehand, when there is one (a first
 *   tab, a reload); else an engine is started for it. The first spare is started with the server,
 *   which says on the terminal whether the engine starts at all. No other engine is started ahead:
 *   engines run for the pages open, and one more at most.
 * - A page that goes away has its search stopped (src/gui/bridge.ts); its engine becomes the spare
 *   when there is none, put back as its handshake left it (the page's options back to their
 *   defaults, the table cleared, `ucinewgame`): nothing of the last page is left for the next.
 *   Otherwise it ends.
 * - When `most` pages are connected, the next one is turned away (the server says why) rather than
 *   taking another page's engine in the middle of its game.
 * - Each engine may have `Threads` up to its share of full strength: every core divided by the
 *   pages connected, at least one; the shares follow pages coming and going. A limited level or a
 *   review asks for one thread and gets it whatever the share.
 */
import { formatCommandLine } from '../process/command-line';
import { EngineBridge, type BridgeClient, type BridgeOptions } from './bridge';
import type { EngineState } from './messages';

interface EnginePoolOptions extends BridgeOptions {
  /** The most pages served at once (an engine each). */
  most: number;
}

export class EnginePool {
  /** The engines of the pages connected, oldest first. */
  private readonly engines = new Map<BridgeClient, EngineBridge>();
  private spare: EngineBridge | null = null;
  /** Engines ending (a page went away), awaited by {@link close}. */
  private readonly ending = new Set<Promise<void>>();
  private closed = false;
  /** Engines started so far: each one's number in the log. */
  private started = 0;

  constructor(private readonly opts: EnginePoolOptions) {}

  get most(): number {
    return this.opts.most;
  }

  /** The pages connected now. */
  get pages(): number {
    return this.engines.size;
  }

  /** The engine command as people read it. */
  get commandText(): string {
    return formatCommandLine(this.opts.command);
  }

  /** Starts the first spare. */
  start(): void {
    if (!this.closed && !this.spare) this.spare = this.startBridge();
  }

  /**
   * Resolves with the spare's state once it has started ('ready') or failed to ('failed', with
   * {@link message} saying why); what `thoth gui` checks before it prints its address.
   */
  settled(): Promise<EngineState> {
    return this.spare ? this.spare.settled() : Promise.resolve('exited');
  }

  /** Why the spare failed, for people. */
  get message(): string {
    return this.spare?.message ?? '';
  }

  /** The spare failed because a step of its handshake took too long (a limit `--start-timeout` sets). */
  get timedOut(): boolean {
    return this.spare?.timedOut ?? false;
  }

  /** The engines of the pages connected, oldest first (tests). */
  bridges(): EngineBridge[] {
    return [...this.engines.values()];
  }

  /** The page's engine, or undefined. */
  of(c: BridgeClient): EngineBridge | undefined {
    return this.engines.get(c);
  }

  /** Threads each engine may have now: every core shared between the pages connected. */
  share(pages = this.engines.size): number {
    const full = this.opts.strength?.threads ?? 1;
    return Math.max(1, Math.floor(full / Math.max(1, pages)));
  }

  /**
   * Gives the page `c` an engine of its own (the spare, or one started for it), or null when
   * `most` pages are connected already. The other pages' shares shrink, and each is told.
   */
  attach(c: BridgeClient): EngineBridge | null {
    if (this.closed || this.engines.size >= this.opts.most) return null;
    const bridge = this.spare ?? this.startBridge();
    this.spare = null;
    this.engines.set(c, bridge);
    bridge.attach(c);
    this.rebalance(c);
    return bridge;
  }

  /**
   * The page `c` went away: its search is stopped, and its engine, put back as its handshake left
   * it, becomes the spare when there is none (a reload then finds it at once, and no process is
   * started), else it ends. The others' shares grow.
   */
  release(c: BridgeClient): void {
    const bridge = this.engines.get(c);
    if (!bridge) return;
    this.engines.delete(c);
    bridge.release(c);
    if (!this.closed && !this.spare && bridge.state === 'ready') {
      bridge.reset();
      this.spare = bridge;
    } else {
      const end = bridge.close().finally(() => this.ending.delete(end));
      this.ending.add(end);
    }
    this.rebalance();
  }

  /** Each page's share after a page came (`except`: told by its own first hello) or went. */
  private rebalance(except?: BridgeClient): void {
    const share = this.share();
    for (const [c, b] of this.engines) {
      b.setShare(share);
      if (c !== except) c.state();
    }
    this.spare?.setShare(this.share(this.engines.size + 1));
  }

  /** A new engine, its share that of one page more than are connected. */
  private startBridge(): EngineBridge {
    const bridge = new EngineBridge({ ...this.opts, id: ++this.started });
    bridge.setShare(this.share(this.engines.size + 1));
    bridge.start();
    return bridge;
  }

  /** Ends every engine. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.engines.values()];
    if (this.spare) all.push(this.spare);
    this.engines.clear();
    this.spare = null;
    await Promise.all([...all.map((b) => b.close()), ...this.ending]);
  }
}
