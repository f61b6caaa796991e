// The scopes of api-contract §5. A `.Write` grant satisfies the matching
// `.Read` requirement.

export const RESOURCE_SCOPES = ['UserInfo', 'UserSecurityInfo', 'Workflow', 'Admin', 'Files', 'Shares', 'Finance', 'DavAccount'] as const;
export const OIDC_SCOPES = ['openid', 'profile', 'email', 'offline_access'] as const;

export const ALL_SCOPES: readonly string[] = [...OIDC_SCOPES, ...RESOURCE_SCOPES.flatMap((r) => [`${r}.Read`, `${r}.Write`])];

export function isKnownScope(scope: string): boolean {
  return ALL_SCOPES.includes(scope);
}

/** Whether `granted` satisfies `required`. */
export function scopeSatisfied(granted: readonly string[], required: string): boolean {
  if (granted.includes(required)) return true;
  if (required.endsWith('.Read')) return granted.includes(`${required.slice(0, -'.Read'.length)}.Write`);
  return false;
}

export function missingScopes(granted: readonly string[] | null, required: readonly string[]): string[] {
  if (granted === null) return [];
  return required.filter((r) => !scopeSatisfied(granted, r));
}
