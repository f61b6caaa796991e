// The two calls of the /session/logout page (OpenID Connect RP-Initiated Logout 1.0).
import { api, data } from './client';
import type { LogoutResult, LogoutView } from './generated/schema';

export type LogoutParams = { id_token_hint?: string; post_logout_redirect_uri?: string; state?: string; client_id?: string };

/** Sends the browser's own token, if any: only the hinted person, signed in here, is signed out without a question. */
export function checkLogout(params: LogoutParams): Promise<LogoutView> {
  return data(api('optional').POST('/api/v4/session/oauth/logout/check', { body: params }));
}

export function endAppSession(params: LogoutParams): Promise<LogoutResult> {
  return data(api('none').POST('/api/v4/session/oauth/logout', { body: params }));
}
