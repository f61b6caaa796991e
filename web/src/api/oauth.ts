// The two calls the authorization page needs (api-contract §5).
import { call } from './client';
import type { ConsentResult, OAuthAppInfo } from './types';

export function getOAuthApp(clientId: string): Promise<OAuthAppInfo> {
  return call<OAuthAppInfo>('GET', `/api/v4/session/oauth/app/${encodeURIComponent(clientId)}`, { auth: 'optional' });
}

export function submitConsent(params: Record<string, string>, approve: boolean): Promise<ConsentResult> {
  const body = approve ? params : { ...params, approve: false };
  return call<ConsentResult>('POST', '/api/v4/session/oauth/consent', { body });
}

export async function getIssuer(): Promise<string> {
  const res = await fetch('/.well-known/oauth-authorization-server', { headers: { accept: 'application/json' }, credentials: 'omit' });
  if (!res.ok) throw new Error(`metadata: HTTP ${res.status}`);
  const meta = (await res.json()) as { issuer?: unknown };
  if (typeof meta.issuer !== 'string') throw new Error('metadata without issuer');
  return meta.issuer;
}
