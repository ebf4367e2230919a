/** Where the tab keeps browser mode's secret once it has left the URL. */
export const SECRET_KEY = 'worktray.secret';

/** The parts of `window` this needs (a test can hand in its own). */
export interface PageLocation {
  location: { href: string };
  history: { state: unknown; replaceState(data: unknown, unused: string, url: string): void };
  sessionStorage: {
    getItem(key: string): string | null;
    setItem(key: string, value: string): void;
  };
}

/**
 * Browser mode's per-launch secret. The host prints it in the page URL; on load it moves into
 * this tab's sessionStorage and out of the address bar (`replaceState`, so the history entry
 * holds no secret either: URLs end up in history, sync and screenshots). A reload finds it in
 * sessionStorage. Empty when there is none: the host refuses the calls and the UI says so.
 */
export function takePageSecret(page: PageLocation): string {
  const url = new URL(page.location.href);
  const fromUrl = url.searchParams.get('secret');
  if (fromUrl === null) {
    try {
      return page.sessionStorage.getItem(SECRET_KEY) ?? '';
    } catch {
      return '';
    }
  }
  try {
    page.sessionStorage.setItem(SECRET_KEY, fromUrl);
  } catch {
    // Storage disabled: this page load still works; a reload asks for the printed URL again.
  }
  url.searchParams.delete('secret');
  page.history.replaceState(page.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  return fromUrl;
}
