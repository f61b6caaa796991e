// Who is signed in, for every page. The token pair itself lives in the token
// store; this keeps the user object in step with it (also across tabs).
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ApiError, refreshSession } from '../api/client';
import { getMe, signOut as apiSignOut } from '../api/session';
import { tokenStore } from '../api/tokens';
import type { User } from '../api/generated/schema';

export type SessionState =
  | { status: 'loading' }
  | { status: 'signed-out' }
  | { status: 'signed-in'; user: User }
  | { status: 'error'; message: string };

interface SessionContextValue {
  session: SessionState;
  /** Call after a successful sign-in (the tokens are already stored). */
  signedIn(user: User): void;
  /**
   * Ends the session. With `upstream`, a session that began at a provider with an
   * end_session_endpoint also ends there: the browser leaves for the provider (which
   * sends it back to the sign-in page) and this resolves true.
   */
  signOut(opts?: { upstream?: boolean }): Promise<boolean>;
  reload(): void;
}

const SessionContext = createContext<SessionContextValue | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<SessionState>(() => (tokenStore.get() ? { status: 'loading' } : { status: 'signed-out' }));
  const [loadKey, setLoadKey] = useState(0);

  useEffect(() => {
    let current = true;
    if (!tokenStore.get()) {
      setSession({ status: 'signed-out' });
      return;
    }
    // A reload while signed in refreshes the user in place: going through
    // "loading" would unmount the page and lose what it holds (the recovery
    // codes shown once after turning on two-step verification).
    setSession((s) => (s.status === 'loading' || s.status === 'signed-in' ? s : { status: 'loading' }));
    getMe().then(
      (user) => current && setSession({ status: 'signed-in', user }),
      (err: unknown) => {
        if (!current) return;
        if (err instanceof ApiError && err.status === 401) setSession({ status: 'signed-out' });
        else setSession({ status: 'error', message: err instanceof Error ? err.message : String(err) });
      },
    );
    return () => {
      current = false;
    };
  }, [loadKey]);

  // A sign-out or a failed refresh (here or in another tab) ends the session;
  // a sign-in in another tab starts one here too.
  useEffect(
    () =>
      tokenStore.subscribe((pair, fromOtherTab) => {
        if (!pair) setSession({ status: 'signed-out' });
        else if (fromOtherTab) setLoadKey((k) => k + 1);
      }),
    [],
  );

  // Refresh the pair a minute before the access token expires, so requests
  // rarely meet a 401 (the client still refreshes on one).
  const signedInNow = session.status === 'signed-in';
  const [pairVersion, setPairVersion] = useState(0);
  useEffect(() => tokenStore.subscribe(() => setPairVersion((v) => v + 1)), []);
  useEffect(() => {
    if (!signedInNow) return;
    const pair = tokenStore.get();
    if (!pair) return;
    const due = Date.parse(pair.access_expires) - Date.now() - 60_000;
    const timer = setTimeout(() => void refreshSession().catch(() => undefined), Math.max(5_000, Math.min(due, 2_147_000_000)));
    return () => clearTimeout(timer);
  }, [signedInNow, pairVersion]);

  const signedIn = useCallback((user: User) => setSession({ status: 'signed-in', user }), []);
  const signOut = useCallback(async (opts?: { upstream?: boolean }) => {
    const upstreamUrl = await apiSignOut(opts);
    setSession({ status: 'signed-out' });
    if (!upstreamUrl) return false;
    window.location.assign(upstreamUrl);
    return true;
  }, []);
  const reload = useCallback(() => setLoadKey((k) => k + 1), []);

  const value = useMemo<SessionContextValue>(() => ({ session, signedIn, signOut, reload }), [session, signedIn, signOut, reload]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  const ctx = useContext(SessionContext);
  if (!ctx) throw new Error('useSession outside SessionProvider');
  return ctx;
}
