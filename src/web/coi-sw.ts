/**
 * The static page's service worker (built to dist/web/coi-sw.js): it adds the cross-origin
 * isolation headers (`Cross-Origin-Opener-Policy: same-origin`, `Cross-Origin-Embedder-Policy:
 * require-corp`) to every response of the page's own origin, so that a host which cannot send
 * them (GitHub Pages, any plain static server) still gets a page that may share memory with its
 * workers: Thoth then searches on all the cores the browser gives it. src/web/isolation.ts
 * registers it and reloads the page once.
 */

interface FetchEventLike extends Event {
  request: Request;
  respondWith(r: Promise<Response> | Response): void;
}
interface ExtendableEventLike extends Event {
  waitUntil(p: Promise<unknown>): void;
}
const sw = self as unknown as {
  addEventListener(type: 'install' | 'activate', f: (e: ExtendableEventLike) => void): void;
  addEventListener(type: 'fetch', f: (e: FetchEventLike) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  location: Location;
};

sw.addEventListener('install', () => void sw.skipWaiting());
sw.addEventListener('activate', (e) => e.waitUntil(sw.clients.claim()));

/** The response with the isolation headers (responses of other origins pass as they are). */
export function isolated(res: Response): Response {
  if (res.status === 0 || res.type === 'opaque' || res.type === 'opaqueredirect') return res;
  const headers = new Headers(res.headers);
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
  headers.set('Cross-Origin-Resource-Policy', 'same-origin');
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

sw.addEventListener('fetch', (e) => {
  const r = e.request;
  if (new URL(r.url).origin !== sw.location.origin) return;
  if (r.cache === 'only-if-cached' && r.mode !== 'same-origin') return;
  e.respondWith(fetch(r).then(isolated));
});
