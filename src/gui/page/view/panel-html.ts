/** The panels' HTML helpers: escaping text, and writing an element's markup only when it changed. */

export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

/** Sets innerHTML only when it changed (keeps focus, hover and scrolling). */
export function setHtml(e: HTMLElement, html: string): boolean {
  if (e.dataset.html === html) return false;
  e.innerHTML = html;
  e.dataset.html = html;
  return true;
}
