// Who a request acts for, as the auth guard (http/auth.ts) hands it to
// routes. The access-token verifier (sessions/access-tokens.ts) produces it;
// keeping the type here lets the HTTP layer use it without importing a feature.
// core/ imports nothing of ours: the row's shape (UserWithGroup, the users row
// with its group's columns) is added to AuthUserRow by db/schema.ts.

/** The user row the guard carries. Empty here; db/schema.ts declares its fields. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AuthUserRow {}

export interface AuthUser {
  id: string;
  email: string;
  active: boolean;
  isAdmin: boolean;
  groupId: number;
  /** Unix ms: tokens dated at or before it are refused (password change, reset, ban). 0 for none. */
  tokensValidAfter: number;
  /** The row as read (at most the user cache's TTL old): lets GET /user/me answer without a query. */
  row: AuthUserRow;
}

export interface AuthContext {
  user: AuthUser;
  claims: Record<string, unknown>;
  sid: string | null;
  clientId: string | null;
  /** null: a first-party (unscoped) token. */
  scopes: string[] | null;
}

/** A bearer token that does not authenticate anyone; the message says why (it goes into WWW-Authenticate). */
export class InvalidToken extends Error {}

/** What the auth guard needs: a token in, an identity out (or InvalidToken). */
export interface TokenVerifier {
  /**
   * A token in, an identity out, or InvalidToken (thrown or as a rejection).
   * A plain value when everything needed was in memory, a promise when
   * something had to be read.
   */
  check(token: string): AuthContext | Promise<AuthContext>;
}

/** What holders of long-lived connections need: check() again, for a token they admitted before. */
export interface HeldTokenVerifier {
  /** The same answers as check(), without reading the database while every way of ending the token is in memory. */
  recheck(token: string): AuthContext | Promise<AuthContext>;
}

/** How a sign-in's first factor was proven, as the audit log records it: a Cirrus password, or an upstream provider (its id). */
export type SignInMethod = { method: 'password' } | { method: 'ldap' | 'oidc'; provider_id: string };
