// A small router on the History API: enough for a handful of pages, with no
// dependency. Pages read the path and query; navigate() pushes a new entry.
import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

const CHANGE = 'cirrus:navigate';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(CHANGE, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(CHANGE, onChange);
  };
}

const snapshot = () => window.location.pathname + window.location.search;

/** The current path and query string, re-rendering on navigation. */
export function useLocation(): { pathname: string; search: string } {
  const current = useSyncExternalStore(subscribe, snapshot);
  const url = new URL(current, window.location.origin);
  return { pathname: url.pathname, search: url.search };
}

/** Client-side navigation within the app (same origin only). */
export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  const url = new URL(to, window.location.origin);
  if (url.origin !== window.location.origin) throw new Error('navigate() is for in-app paths');
  const target = url.pathname + url.search + url.hash;
  if (opts.replace) window.history.replaceState(null, '', target);
  else window.history.pushState(null, '', target);
  window.dispatchEvent(new Event(CHANGE));
}

export function Link({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={handle} {...rest} />;
}

/**
 * Matches `pathname` against a pattern: literal segments, `:name` for one
 * segment, and a trailing `*` for the rest (given as params['*'], decoded,
 * with its leading slash). Returns null when it does not match.
 */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const pat = pattern.split('/').filter(Boolean);
  const segs = pathname.split('/').filter(Boolean);
  const params: Record<string, string> = {};
  for (let i = 0; i < pat.length; i++) {
    const p = pat[i]!;
    if (p === '*') {
      params['*'] = '/' + segs.slice(i).map(safeDecode).join('/');
      return params;
    }
    const s = segs[i];
    if (s === undefined) return null;
    if (p.startsWith(':')) params[p.slice(1)] = safeDecode(s);
    else if (p !== s) return null;
  }
  return segs.length === pat.length ? params : null;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** `/files` + an absolute path, each segment encoded. */
export function filesUrl(path: string): string {
  const segs = path.split('/').filter(Boolean).map(encodeURIComponent);
  return segs.length ? `/files/${segs.join('/')}` : '/files';
}
