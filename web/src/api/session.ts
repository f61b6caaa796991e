// Sign-in (password, then TOTP when the account has it), the current user, sign-out.
import { Code, call, callEnvelope } from './client';
import { tokenStore } from './tokens';
import type { TokenPair, User } from './types';

/**
 * Stores a new pair. A pair it replaces (a second sign-in, e.g. for prompt=login)
 * is revoked, so no session family is left behind unused but valid.
 */
function replacePair(pair: TokenPair): void {
  const old = tokenStore.get();
  tokenStore.set(pair);
  if (old && old.refresh_token !== pair.refresh_token) {
    call<null>('DELETE', '/api/v4/session/token', { body: { refresh_token: old.refresh_token }, auth: 'none' }).catch(() => undefined);
  }
}

export type SignInResult = { kind: 'signed-in'; user: User } | { kind: 'second-factor'; sessionId: string };

export async function signIn(email: string, password: string): Promise<SignInResult> {
  const envelope = await callEnvelope<{ user: User; token: TokenPair } | string>('POST', '/api/v4/session/token', { body: { email, password }, auth: 'none' });
  if (envelope.code === Code.SecondFactor) return { kind: 'second-factor', sessionId: String(envelope.data) };
  const data = envelope.data as { user: User; token: TokenPair };
  replacePair(data.token);
  return { kind: 'signed-in', user: data.user };
}

export async function signInSecondFactor(sessionId: string, otp: string): Promise<User> {
  const data = await call<{ user: User; token: TokenPair }>('POST', '/api/v4/session/token/2fa', { body: { otp, session_id: sessionId }, auth: 'none' });
  replacePair(data.token);
  return data.user;
}

export function getMe(): Promise<User> {
  return call<User>('GET', '/api/v4/user/me');
}

/** Revokes the session family on the server; the local pair is dropped even if that fails. */
export async function signOut(): Promise<void> {
  const pair = tokenStore.get();
  tokenStore.clear();
  if (!pair) return;
  try {
    await call<null>('DELETE', '/api/v4/session/token', { body: { refresh_token: pair.refresh_token }, auth: 'none' });
  } catch {
    // Already expired or revoked, or the server is unreachable: nothing more we can do here.
  }
}
