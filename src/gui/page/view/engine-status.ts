/** The status pill: what it says about the engine, and the one thing the person can do about it. */
import { plural } from '../../../core/plural';
import type { Dom } from './dom';
import type { EngineClient } from '../engine/engine-client';

export interface StatusView {
  state: string;
  text: string;
  /** More than the pill has room for (its tooltip). */
  title?: string;
  action: { label: string; kind: 'reclaim' | 'restart' | 'reload' } | null;
}

/**
 * What the status pill says about the engine, and the one thing the person can do about it.
 * `detail` (the level and its threads) follows the state of a working engine.
 */
export function engineStatus(engine: EngineClient, detail = ''): StatusView {
  const name = engine.name || 'Engine';
  if (engine.connection === 'connecting')
    return {
      state: 'connecting',
      text: engine.link.where === 'page' ? 'Starting Thoth in this page…' : 'Connecting to the server…',
      action: null,
    };
  if (engine.connection === 'full') {
    const most = engine.pages?.most ?? 1;
    return {
      state: 'closed',
      text:
        most === 1
          ? "Another tab has this server's engine: trying again…"
          : `Other tabs have all ${most} of this server's engines: trying again…`,
      title: `This server plays at most ${plural(most, 'game')} at once, an engine for each tab, and ${most === 1 ? 'another tab has it' : 'other tabs have them all'}. This tab asks again every few seconds; two players still work here meanwhile.`,
      action: { label: 'Try again', kind: 'reclaim' },
    };
  }
  if (engine.connection === 'closed')
    return {
      state: 'closed',
      text: 'The server is gone: two players still work; reload when it is back.',
      action: { label: 'Reconnect', kind: 'reclaim' },
    };
  if (engine.unresponsive)
    return {
      state: 'failed',
      text: `${name} does not answer 'stop'.`,
      action: { label: 'Restart the engine', kind: 'restart' },
    };
  if (engine.state === 'starting') return { state: 'starting', text: 'Starting the engine…', action: null };
  if (engine.state === 'failed' || engine.state === 'exited')
    return {
      state: 'failed',
      text: `Engine unavailable: ${engine.message}`,
      action: { label: 'Restart the engine', kind: 'restart' },
    };
  const shown = engine.link.where === 'page' ? `${name} in this page` : name;
  const more = detail ? ` · ${detail}` : '';
  if (engine.busy) return { state: 'thinking', text: `${shown} · thinking${more}`, action: null };
  return { state: 'ready', text: `${shown} · ready${more}`, action: null };
}

export function renderStatus(dom: Dom, engine: EngineClient, detail = ''): void {
  const v = engineStatus(engine, detail);
  dom.status.dataset.state = v.state;
  dom.status.textContent = v.text;
  const hash = engine.strength?.hashMb ? ` (table ${engine.strength.hashMb} MB)` : '';
  const pages = engine.pages;
  const shared =
    pages && pages.most > 1
      ? `; ${plural(pages.open, 'tab')} of at most ${pages.most} served at once, full strength's threads shared between them`
      : '';
  dom.status.title = v.title ?? (engine.command ? `Engine: ${engine.command}${hash}${shared}` : '');
  dom.statusAction.hidden = !v.action;
  if (v.action) {
    dom.statusAction.textContent = v.action.label;
    dom.statusAction.dataset.kind = v.action.kind;
  }
}
