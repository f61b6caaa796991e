// Sign-in (password, then TOTP when the account has it), the current user, sign-out.
import { api, data, envelope, ErrorCode } from './client';
import { tokenStore } from './tokens';
import type { TokenPair, User } from './generated/schema';

/**
 * Stores a new pair. A pair it replaces (a second sign-in, e.g. for prompt=login)
 * is revoked, so no session family is left behind unused but valid.
 */
function replacePair(pair: TokenPair): void {
  const old = tokenStore.get();
  tokenStore.set(pair);
  if (old && old.refresh_token !== pair.refresh_token) {
    data(api('none').DELETE('/api/v4/session/token', { body: { refresh_token: old.refresh_token } })).catch(() => undefined);
  }
}

export type SignInResult = { kind: 'signed-in'; user: User } | { kind: 'second-factor'; sessionId: string };

export async function signIn(email: string, password: string): Promise<SignInResult> {
  const answer = await envelope(api('none').POST('/api/v4/session/token', { body: { email, password } }));
  if (answer.code === ErrorCode.SecondFactorRequired) return { kind: 'second-factor', sessionId: answer.data };
  replacePair(answer.data.token);
  return { kind: 'signed-in', user: answer.data.user };
}

/** Turns the one-time code the provider's callback sent back (GET /session/sso/{id}/callback) into a session, like a password sign-in. */
export async function signInWithSsoCode(code: string): Promise<SignInResult> {
  const answer = await envelope(api('none').POST('/api/v4/session/sso/exchange', { body: { code } }));
  // 203 comes through the error path with the session id as data (the route declares only its 200 shape).
  if ((answer.code as number) === ErrorCode.SecondFactorRequired) return { kind: 'second-factor', sessionId: answer.data as unknown as string };
  replacePair(answer.data.token);
  return { kind: 'signed-in', user: answer.data.user };
}

/** "Sign in with <provider>": the server's start of the provider's round trip, which comes back to `returnTo` (a path on this site). */
export function ssoStartUrl(providerId: string, returnTo: string): string {
  return `/api/v4/session/sso/${encodeURIComponent(providerId)}?return_to=${encodeURIComponent(returnTo)}`;
}

export async function signInSecondFactor(sessionId: string, otp: string): Promise<User> {
  const signedIn = await data(api('none').POST('/api/v4/session/token/2fa', { body: { otp, session_id: sessionId } }));
  replacePair(signedIn.token);
  return signedIn.user;
}

export function getMe(): Promise<User> {
  return data(api().GET('/api/v4/user/me'));
}

/**
 * Revokes the session family on the server; the local pair is dropped even if that fails.
 * With `upstream`, it first asks where to end the provider's session too (OpenID Connect
 * RP-Initiated Logout 1.0 §2), which the server knows only while this session is alive;
 * the answer (a URL at the provider, or null) is for the caller to follow.
 */
export async function signOut(opts: { upstream?: boolean } = {}): Promise<string | null> {
  const pair = tokenStore.get();
  if (!pair) return null;
  let upstreamUrl: string | null = null;
  if (opts.upstream) {
    // A provider that cannot be reached must not keep anyone signed in here.
    upstreamUrl = await data(api().POST('/api/v4/session/sso/end-session')).then((r) => r.url, () => null);
  }
  tokenStore.clear();
  try {
    await data(api('none').DELETE('/api/v4/session/token', { body: { refresh_token: pair.refresh_token } }));
  } catch {
    // Already expired or revoked, or the server is unreachable: nothing more we can do here.
  }
  return upstreamUrl;
}

/** Activates an account with the mailed link's token and signs in (POST /user/activate answers like a sign-in). */
export async function activateAccount(token: string): Promise<User> {
  const signedIn = await data(api('none').POST('/api/v4/user/activate', { body: { token } }));
  replacePair(signedIn.token);
  return signedIn.user;
}

/**
 * Signs in with a passkey (api-contract §11): options from PUT /session/authn,
 * the browser's credential chooser (or, with `conditional`, the e-mail field's
 * autofill), then POST /session/authn, which answers like a password sign-in.
 */
export async function signInWithPasskey(conditional?: AbortSignal): Promise<User> {
  // Loaded on demand: the sign-in page's first load stays small.
  const [{ getPasskey }, start] = await Promise.all([import('./webauthn-ceremony'), data(api('none').PUT('/api/v4/session/authn'))]);
  const response = await getPasskey(start.options, conditional);
  const signedIn = await data(api('none').POST('/api/v4/session/authn', { body: { id: start.id, response: response as never } }));
  replacePair(signedIn.token);
  return signedIn.user;
}

// Whether passkeys can be used on this page (here, not in a module of their own: the
// sign-in page's first load gets no extra request; the ceremonies load on demand).

/** True for an IPv4 or IPv6 literal: browsers refuse WebAuthn there (the RP ID must be a domain). */
export function isIpAddress(hostname: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.includes(':') || hostname.startsWith('[');
}

/** Whether this page can use passkeys: the API exists and the site is not on an IP address. */
export function passkeysAvailable(): boolean {
  return typeof window !== 'undefined' && 'PublicKeyCredential' in window && !isIpAddress(window.location.hostname);
}

/** Whether the browser offers passkeys in the autofill of an input marked `webauthn` (conditional UI). */
export async function conditionalMediationAvailable(): Promise<boolean> {
  if (!passkeysAvailable()) return false;
  const pkc = window.PublicKeyCredential as unknown as { isConditionalMediationAvailable?: () => Promise<boolean> };
  try {
    return (await pkc.isConditionalMediationAvailable?.()) === true;
  } catch {
    return false;
  }
}

/** The person cancelled, or the request was aborted: nothing to report. */
export function isCancelled(err: unknown): boolean {
  return err instanceof DOMException && (err.name === 'NotAllowedError' || err.name === 'AbortError');
}
