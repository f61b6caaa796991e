// Signs access and refresh tokens (HS256 with the master key). Access tokens
// carry the interface's four claims plus iat, jti, sid and, for OAuth,
// client_id and scopes (api-contract §2).
import type { Hs256 } from '../crypto/jwt.js';
import { secretToken } from '../crypto/random.js';
import { rfc3339 } from '../accounts/views.js';
import type { Clock } from '../core/clock.js';

export interface TokenSubject {
  userId: string;
  sid: string;
  clientId?: string | null;
  scopes?: string[] | null;
}

export interface IssuedAccess {
  token: string;
  expiresAt: number;
}

/** The DPoP key thumbprints (RFC 9449 §6.1 cnf.jkt) each token of a pair is bound to; null: unbound. */
export interface TokenBinding {
  access: string | null;
  refresh: string | null;
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  access_expires: string;
  refresh_expires: string;
}

export class TokenIssuer {
  constructor(
    private readonly jwt: Hs256,
    private readonly clock: Clock,
  ) {}

  access(subject: TokenSubject, ttlSeconds: number, now = this.clock.now(), jkt: string | null = null): IssuedAccess {
    const iat = Math.floor(now / 1000);
    const exp = iat + ttlSeconds;
    const claims: Record<string, unknown> = { token_type: 'access', sub: subject.userId, iat, nbf: iat, exp, jti: secretToken(12), sid: subject.sid };
    if (subject.clientId) {
      claims.client_id = subject.clientId;
      claims.scopes = subject.scopes ?? [];
    }
    if (jkt !== null) claims.cnf = { jkt };
    return { token: this.jwt.sign(claims), expiresAt: exp * 1000 };
  }

  refresh(subject: TokenSubject, jti: string, expiresAtMs: number, now = this.clock.now(), jkt: string | null = null): string {
    const iat = Math.floor(now / 1000);
    const claims: Record<string, unknown> = { token_type: 'refresh', sub: subject.userId, iat, nbf: iat, exp: Math.floor(expiresAtMs / 1000), jti, sid: subject.sid };
    if (subject.clientId) claims.client_id = subject.clientId;
    if (jkt !== null) claims.cnf = { jkt };
    return this.jwt.sign(claims);
  }

  pair(subject: TokenSubject, jti: string, accessTtlSeconds: number, refreshExpiresAtMs: number, now = this.clock.now(), binding?: TokenBinding): TokenPair {
    const access = this.access(subject, accessTtlSeconds, now, binding?.access ?? null);
    return {
      access_token: access.token,
      refresh_token: this.refresh(subject, jti, refreshExpiresAtMs, now, binding?.refresh ?? null),
      access_expires: rfc3339(access.expiresAt),
      refresh_expires: rfc3339(Math.floor(refreshExpiresAtMs / 1000) * 1000),
    };
  }
}
