/**
 * Thoth inside the page (the static build): the engine's own protocol (src/protocol/uci.ts)
 * answers the page's lines on the page's host (page-host.ts: searches in Web Workers). No server,
 * no other tab to share it with.
 */
import { plural } from '../core/plural';
import type { EngineLink, LinkEvents } from '../gui/page/engine/engine-client';
import { UciEngine } from '../protocol/uci';
import { pageHost } from './page-host';
import { sharedMemory } from './web-search-pool';

/** Threads for Lazy SMP when the page may share memory with its workers. */
function threadsHere(): number {
  if (!sharedMemory()) return 1;
  return Math.max(1, Math.min(8, globalThis.navigator?.hardwareConcurrency ?? 1));
}

export class LocalLink implements EngineLink {
  readonly where = 'page';
  private engine: UciEngine | null = null;
  private events: LinkEvents | null = null;

  open(events: LinkEvents): void {
    this.events = events;
    if (!this.engine) this.start();
  }

  private start(): void {
    const threads = threadsHere();
    const where = `in this page, ${plural(threads, 'thread')}${sharedMemory() ? ' (shared memory)' : ''}`;
    const handshake: string[] = [];
    let ready = false;
    const engine = new UciEngine((line) => {
      if (this.engine !== engine) return;
      if (ready) return this.events?.line(line);
      if (line === 'readyok') {
        ready = true;
        this.events?.hello('ready', where, handshake, '', { threads });
      } else handshake.push(line);
    }, pageHost);
    this.engine = engine;
    this.events?.hello('starting', where, [], '');
    engine.input('uci');
    if (threads > 1) engine.input(`setoption name Threads value ${threads}`);
    engine.input('isready');
  }

  send(line: string): void {
    this.engine?.input(line);
  }

  restart(): void {
    const old = this.engine;
    this.engine = null;
    old?.input('quit');
    this.start();
  }
}
