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

/** The parameters a pushed request_uri stands for (RFC 9126 §4); the request_uri stays unused. */
export function getPushedRequest(clientId: string, requestUri: string): Promise<Record<string, string>> {
  return data(api('none').POST('/api/v4/session/oauth/pushed', { body: { client_id: clientId, request_uri: requestUri } })).then((d) => d.params);
}

export async function getIssuer(): Promise<string> {
  const res = await fetch('/.well-known/oauth-authorization-server', { headers: { accept: 'application/json' }, credentials: 'omit' });
  if (!res.ok) throw new Error(`metadata: HTTP ${res.status}`);
  const meta = (await res.json()) as { issuer?: unknown };
  if (typeof meta.issuer !== 'string') throw new Error('metadata without issuer');
  return meta.issuer;
}
