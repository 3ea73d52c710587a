/**
 * Sharing, on the page: *Copy link* (the shown game, or the position when no move was played, as
 * a `#game=…` / `#kfen=…` address of link.ts), *Copy PGN*, and opening such an address. The
 * buttons are made here, at the top of the Import / export card, so the page's HTML stays as it is.
 */
import type { EditionId } from '../../../core/index';
import type { Dom } from './dom';
import { decodeLink, encodeLink, formatLinkError, isLinkFragment, linkUrl, type LinkPayload } from '../state/link';
import { ioMessage } from './panels';

export interface ShareHost {
  dom: Dom;
  /** The shown game's PGN (what *Export game* writes). */
  record(): string;
  /** True when the game has moves (a link then holds the game, not only its position). */
  hasMoves(): boolean;
  /** The shown position. */
  position(): { edition: EditionId; kfen: string };
  /** Opens a link's position or game; returns why it cannot, or null. */
  open(p: LinkPayload): string | null;
  /** A word next to *Copy link* on where its links open (the page of `thoth gui`), or none. */
  linkNote?: string;
  /** Says a word where the eye is (the hint under the board). */
  warn(text: string): void;
}

export interface ShareElements {
  link: HTMLButtonElement;
  pgn: HTMLButtonElement;
  url: HTMLInputElement;
}

function button(id: string, text: string, title: string): HTMLButtonElement {
  const b = document.createElement('button');
  b.id = id;
  b.type = 'button';
  b.textContent = text;
  b.title = title;
  return b;
}

/** Copies text; resolves false where the browser refuses (file:// pages, no permission). */
async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function wireShare(host: ShareHost): ShareElements {
  const card = host.dom.kfen.closest('details') as HTMLDetailsElement | null;
  const link = button('share-link', 'Copy link', 'A link that opens this game (or this position) in the page');
  const pgn = button('share-pgn', 'Copy PGN', 'The game record, with its variations and comments');
  const url = document.createElement('input');
  url.id = 'share-url';
  url.readOnly = true;
  url.hidden = true;
  url.spellcheck = false;
  url.setAttribute('aria-label', 'Link to share');
  url.onfocus = () => url.select();
  const row = document.createElement('div');
  row.className = 'row';
  row.append(link, pgn);
  if (host.linkNote) {
    const note = document.createElement('span');
    note.id = 'share-note';
    note.className = 'muted';
    note.textContent = host.linkNote;
    row.append(note);
  }
  const summary = card?.querySelector('summary');
  if (summary) summary.after(row, url);

  link.onclick = async () => {
    const p: LinkPayload = host.hasMoves()
      ? { kind: 'game', pgn: host.record() }
      : { kind: 'kfen', ...host.position() };
    const href = linkUrl(location.href, await encodeLink(p));
    url.value = href;
    url.hidden = false;
    const what = p.kind === 'game' ? 'this game' : 'this position';
    ioMessage(
      host.dom,
      (await copy(href))
        ? `Link copied: it opens ${what} in the page.`
        : `The link to ${what} is in the box above: copy it from there.`,
    );
  };
  pgn.onclick = async () => {
    const text = host.record();
    host.dom.record.value = text;
    ioMessage(host.dom, (await copy(text)) ? 'PGN copied.' : 'The PGN is in the box below: copy it from there.');
  };

  const openFromAddress = async (): Promise<void> => {
    const fragment = location.hash;
    if (!isLinkFragment(fragment)) return;
    // The fragment goes from the address, so that a reload keeps what was played since.
    history.replaceState(null, '', location.href.slice(0, location.href.indexOf('#')));
    const r = await decodeLink(fragment);
    const error = r.ok ? host.open(r.value) : formatLinkError(r.error);
    if (error !== null) {
      if (card) card.open = true;
      ioMessage(host.dom, `Cannot open the link: ${error}`, true);
      // the card is below the fold: the hint under the board says it too
      host.warn(`Cannot open the link: ${error.replace(/\.$/, '')}. The board shows the game you had.`);
    }
  };
  window.addEventListener('hashchange', () => void openFromAddress());
  void openFromAddress();
  return { link, pgn, url };
}
