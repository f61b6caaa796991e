// The scopes of api-contract §5. A `.Write` grant satisfies the matching
// `.Read` requirement (the rule itself is core/scopes.ts).
import { missingScopes, scopeSatisfied } from '../core/scopes.js';

export const RESOURCE_SCOPES = ['UserInfo', 'UserSecurityInfo', 'Workflow', 'Admin', 'Files', 'Shares', 'Finance', 'DavAccount'] as const;
export const OIDC_SCOPES = ['openid', 'profile', 'email', 'offline_access'] as const;

export const ALL_SCOPES: readonly string[] = [...OIDC_SCOPES, ...RESOURCE_SCOPES.flatMap((r) => [`${r}.Read`, `${r}.Write`])];

export function isKnownScope(scope: string): boolean {
  return ALL_SCOPES.includes(scope);
}

export { missingScopes, scopeSatisfied };

export const OPENID = 'openid';
export const OFFLINE_ACCESS = 'offline_access';
export const EMAIL = 'email';

/** RFC 6749 §3.3 scope-token: printable ASCII without space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * Parses a space-delimited scope parameter (RFC 6749 §3.3); repeated spaces
 * and duplicates are dropped. Returns null when a token is malformed.
 */
export function parseScopeParam(value: string): string[] | null {
  const tokens = value.split(' ').filter((t) => t.length > 0);
  if (!tokens.every((t) => SCOPE_TOKEN.test(t))) return null;
  return [...new Set(tokens)];
}

/** Whether every scope of `requested` is covered by `granted` (a `.Write` covers its `.Read`). */
export function allSatisfied(granted: readonly string[], requested: readonly string[]): boolean {
  return requested.every((s) => scopeSatisfied(granted, s));
}

/** A stored space-separated scope string (grants, codes, families) as a list. */
export function scopeList(stored: string | null | undefined): string[] {
  return stored ? stored.split(' ').filter(Boolean) : [];
}

/**
 * Whether a grant's scopes ask for refresh tokens (OIDC Core §11). The one
 * rule: the SQL of the code exchange (grants-repository.ts, offlineAccessSql)
 * is its other form, checked equal to this by server/test/oauth/offline-rule.test.ts.
 */
export function grantsOfflineAccess(scopes: string | readonly string[]): boolean {
  return (typeof scopes === 'string' ? scopeList(scopes) : scopes).includes(OFFLINE_ACCESS);
}
