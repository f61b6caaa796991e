// The authorization request as the page received it (auth-interface §4.1), and
// the parameters it forwards to the consent endpoint.

/** The query parameters the consent endpoint accepts; everything else stays behind. */
export const CONSENT_PARAMS = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'nonce', 'prompt', 'response_mode', 'dpop_jkt'] as const;

export interface AuthorizeRequest {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  prompt: Set<string>;
  loginHint: string;
  /** Forwarded unchanged to POST /api/v4/session/oauth/consent. */
  params: Record<string, string>;
}

export function parseAuthorizeRequest(search: string): AuthorizeRequest {
  const query = new URLSearchParams(search);
  const params: Record<string, string> = {};
  for (const name of CONSENT_PARAMS) {
    const value = query.get(name);
    if (value !== null) params[name] = value;
  }
  const scopes = [...new Set((params.scope ?? '').split(' ').filter(Boolean))];
  return {
    clientId: params.client_id ?? '',
    redirectUri: params.redirect_uri ?? '',
    scopes,
    prompt: new Set((params.prompt ?? '').split(' ').filter(Boolean)),
    loginHint: query.get('login_hint') ?? '',
    params,
  };
}

/** Whether every requested scope was granted before, so the user need not be asked again. */
export function alreadyConsented(requested: readonly string[], consented: readonly string[] | null | undefined): boolean {
  if (!consented || requested.length === 0) return false;
  return requested.every((s) => consented.includes(s));
}

/**
 * The HTTP status the server gave this page. The server validates client_id and
 * redirect_uri before serving it and answers 400 when either is wrong; then the
 * page must show an error and never redirect. Undefined where the browser does
 * not expose the status (the consent call's 400 catches those cases later).
 */
export function documentStatus(): number | undefined {
  const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  // After in-app navigation the entry describes another URL, which the server did not check.
  if (!nav || nav.name !== window.location.href) return undefined;
  const status = nav.responseStatus;
  return typeof status === 'number' && status > 0 ? status : undefined;
}

/** The redirect host, shown to the user so they know where approval sends them. */
export function redirectHost(redirectUri: string): string {
  try {
    const url = new URL(redirectUri);
    return url.host || url.protocol.replace(/:$/, '');
  } catch {
    return redirectUri;
  }
}

/**
 * An error response (RFC 6749 §4.1.2.1) built on the page, for the cases only the
 * page can detect (OIDC prompt=none without a session). Only used when the
 * server has validated redirect_uri for this very document (status 200).
 */
export function errorRedirectUrl(req: AuthorizeRequest, error: string, description: string, issuer: string): string {
  const url = new URL(req.redirectUri);
  url.searchParams.set('error', error);
  url.searchParams.set('error_description', description);
  if (req.params.state !== undefined) url.searchParams.set('state', req.params.state);
  url.searchParams.set('iss', issuer);
  return url.toString();
}

/**
 * Whether a redirect the server handed back may be followed. The server only
 * returns registered URIs; refusing script-bearing schemes here is a second
 * line of defence should that ever break.
 */
export function isNavigableRedirect(url: string): boolean {
  try {
    return !['javascript:', 'data:', 'vbscript:', 'blob:', 'file:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}
