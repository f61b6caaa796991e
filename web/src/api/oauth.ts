// The two calls the authorization page needs (api-contract §5).
import { api, data } from './client';
import type { ConsentResult, OAuthAppInfo } from './generated/schema';

export function getOAuthApp(clientId: string): Promise<OAuthAppInfo> {
  return data(api('optional').GET('/api/v4/session/oauth/app/{client_id}', { params: { path: { client_id: clientId } } }));
}

export function submitConsent(params: Record<string, string>, approve: boolean): Promise<ConsentResult> {
  const body = approve ? params : { ...params, approve: false };
  return data(api().POST('/api/v4/session/oauth/consent', { body }));
}

export async function getIssuer(): Promise<string> {
  const res = await fetch('/.well-known/oauth-authorization-server', { headers: { accept: 'application/json' }, credentials: 'omit' });
  if (!res.ok) throw new Error(`metadata: HTTP ${res.status}`);
  const meta = (await res.json()) as { issuer?: unknown };
  if (typeof meta.issuer !== 'string') throw new Error('metadata without issuer');
  return meta.issuer;
}
