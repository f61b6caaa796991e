// The first-party token pair lives in localStorage so that a reload or a second
// tab keeps the session. The trade-off against an HttpOnly cookie is XSS: any
// script on our origin could read it. The page's CSP (script-src 'self', no
// inline or third-party scripts, see server/src/web.ts) keeps foreign scripts
// out, and the pair is a revocable session family (sign-out, reuse detection).
import type { TokenPair } from './generated/schema';

const KEY = 'cirrus.session';

type Listener = (pair: TokenPair | null, fromOtherTab: boolean) => void;
const listeners = new Set<Listener>();

function isTokenPair(v: unknown): v is TokenPair {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.access_token === 'string' && typeof o.refresh_token === 'string' && typeof o.access_expires === 'string' && typeof o.refresh_expires === 'string';
}

function read(): TokenPair | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return null;
    const parsed: unknown = JSON.parse(raw);
    return isTokenPair(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function emit(pair: TokenPair | null, fromOtherTab: boolean): void {
  for (const l of listeners) l(pair, fromOtherTab);
}

export const tokenStore = {
  get(): TokenPair | null {
    return read();
  },
  set(pair: TokenPair): void {
    localStorage.setItem(KEY, JSON.stringify({
      access_token: pair.access_token,
      refresh_token: pair.refresh_token,
      access_expires: pair.access_expires,
      refresh_expires: pair.refresh_expires,
    }));
    emit(pair, false);
  },
  clear(): void {
    localStorage.removeItem(KEY);
    emit(null, false);
  },
  /** Called on changes from this tab and from other tabs (the storage event). */
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

window.addEventListener('storage', (event) => {
  if (event.key === KEY || event.key === null) emit(read(), true);
});
