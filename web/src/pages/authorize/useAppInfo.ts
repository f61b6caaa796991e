// Loads the app of an authorization request, once per signed-in account (the
// signed-in answer also says which scopes the account has already granted).
import { useEffect, useState } from 'react';
import { ApiError, ErrorCode } from '../../api/client';
import { getOAuthApp } from '../../api/oauth';
import type { OAuthAppInfo } from '../../api/generated/schema';

export type AppInfoState =
  | { status: 'loading' }
  | { status: 'ready'; app: OAuthAppInfo; forUser: string | null }
  | { status: 'not-found' }
  | { status: 'error'; message: string };

export function useAppInfo(clientId: string, userId: string | null, enabled: boolean): [AppInfoState, () => void] {
  const [state, setState] = useState<AppInfoState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!enabled || !clientId) return;
    let current = true;
    setState({ status: 'loading' });
    getOAuthApp(clientId).then(
      (app) => current && setState({ status: 'ready', app, forUser: userId }),
      (err: unknown) => {
        if (!current) return;
        if (err instanceof ApiError && (err.code === ErrorCode.NotFound || err.status === 404)) setState({ status: 'not-found' });
        // A 401 means the session just ended; the session change reloads this.
        else if (!(err instanceof ApiError && err.status === 401)) setState({ status: 'error', message: err instanceof Error ? err.message : String(err) });
      },
    );
    return () => {
      current = false;
    };
  }, [clientId, userId, enabled, attempt]);

  return [state, () => setAttempt((a) => a + 1)];
}
