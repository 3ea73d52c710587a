/**
 * Cross-origin isolation for the static page wherever it is served: when the host did not send
 * the headers, the service worker of src/web/coi-sw.ts is registered and the page reloaded once,
 * under it, so that it may share memory with its workers (all cores). Where that cannot work
 * (file://, plain http to another machine, a browser without service workers, or a worker that
 * did not take) the page runs one search worker and says so in a note beside the status.
 */

export type Isolation = { kind: 'isolated' } | { kind: 'reloading' } | { kind: 'single'; why: string };

/** sessionStorage key: set before the one reload, so that a worker that does not help is not retried forever. */
const TRIED_KEY = 'thoth.coi-reload';

function session(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** Decides, and starts the reload when one is needed (the page then starts nothing). */
export async function ensureIsolation(swUrl = 'coi-sw.js'): Promise<Isolation> {
  if (globalThis.crossOriginIsolated) {
    session()?.removeItem(TRIED_KEY);
    return { kind: 'isolated' };
  }
  if (location.protocol === 'file:') return { kind: 'single', why: 'the page was opened from a file' };
  if (!window.isSecureContext) return { kind: 'single', why: 'the page is not served over HTTPS' };
  const container = navigator.serviceWorker as ServiceWorkerContainer | undefined;
  if (!container) return { kind: 'single', why: 'this browser has no service workers' };
  const tab = session();
  // Without storage the page could not tell a second reload from the first: no reload at all.
  if (!tab) return { kind: 'single', why: 'the page may not keep its state in this tab (no sessionStorage)' };
  if (tab.getItem(TRIED_KEY)) {
    // Reloaded once already and still not isolated: not again in this tab.
    return { kind: 'single', why: 'the page could not be isolated (its service worker did not take)' };
  }
  try {
    const reg = await container.register(swUrl);
    const worker = reg.active ?? reg.waiting ?? reg.installing;
    if (worker && worker.state !== 'activated') {
      await new Promise<void>((resolve) => {
        const check = (): void => {
          if (worker.state === 'activated' || worker.state === 'redundant') resolve();
        };
        worker.addEventListener('statechange', check);
        check();
      });
    }
  } catch (e) {
    return {
      kind: 'single',
      why: `its service worker could not be registered (${e instanceof Error ? e.message : String(e)})`,
    };
  }
  try {
    tab.setItem(TRIED_KEY, '1');
  } catch {
    return { kind: 'single', why: 'the page may not keep its state in this tab (sessionStorage refused)' };
  }
  location.reload();
  return { kind: 'reloading' };
}

/** The note beside the status when Thoth searches on one thread. */
export function showSingleThreadNote(why: string, doc: Document = document): HTMLElement {
  const note = doc.createElement('span');
  note.id = 'threads-note';
  note.textContent = 'One thread';
  note.title = `Thoth searches with one thread here: ${why}. Served over HTTPS (or from localhost), the page uses all the cores the browser gives it.`;
  note.setAttribute('role', 'note');
  note.className = 'threads-note';
  const box = doc.querySelector('.status-box');
  if (box) box.prepend(note);
  else doc.body.prepend(note);
  return note;
}
