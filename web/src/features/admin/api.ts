// The admin API as the dashboard uses it (docs/api.md: administration): thin
// wrappers over the client generated from the server's OpenAPI document, so
// the paths, bodies and answers are the routes' own schemas.
import { ApiError, ErrorCode, api, data, envelope } from '../../api/client';
import type { paths } from '../../api/generated/schema';
import type {
  AuditEvent,
  AdminShare,
  AdminSummary,
  AdminUser,
  Group,
  LdapProvider,
  OAuthClient,
  OidcProvider,
  ProviderTestResult,
  SiteSettings,
  SummaryDay,
  TeamFolder,
  TeamFolderOverride,
} from '../../api/generated/schema';

export { ApiError };
export type { AuditEvent, AdminShare, AdminUser, Group, LdapProvider, OidcProvider, ProviderTestResult, SiteSettings, TeamFolder, TeamFolderOverride };
export type IdentityProvider = OidcProvider | LdapProvider;
export type Summary = AdminSummary;
export type DayPoint = SummaryDay;
export type OAuthApp = OAuthClient;

type JsonBody<P extends keyof paths, M extends 'put' | 'post' | 'patch'> = paths[P][M] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

export type OAuthAppFields = JsonBody<'/api/v4/admin/oauthClient', 'put'>['client'];
export type NewProvider = JsonBody<'/api/v4/admin/identity-providers', 'put'>;
export type ProviderChange = JsonBody<'/api/v4/admin/identity-providers/{id}', 'patch'>;
type UserListBody = JsonBody<'/api/v4/admin/user', 'post'>;
type AppListBody = JsonBody<'/api/v4/admin/oauthClient', 'post'>;
type ShareListBody = JsonBody<'/api/v4/admin/share', 'post'>;

/** The audit log's filters (docs/api.md "Audit log"). */
export interface AuditQuery {
  action?: string;
  actor?: string;
  since?: string;
  until?: string;
}

export interface Page<T> {
  items: T[];
  total: number;
}

/** What a list view asks for; `order_by` is one of the columns the page offers, which are the route's sort fields. */
export interface ListParams {
  page: number;
  page_size: number;
  keyword?: string;
  order_by?: string;
  order_direction?: 'asc' | 'desc';
}

const byId = (id: string) => ({ params: { path: { id } } });

export const adminApi = {
  summary: () => data(api().GET('/api/v4/admin/summary')),
  searchStatus: () => data(api().GET('/api/v4/admin/search/status')),
  /** Thumbnail and metadata kinds (on, or off with what to install) and blobs by state. */
  mediaStatus: () => data(api().GET('/api/v4/admin/media/status')),
  /** Every document's text extracted again, or one person's; answers how many were queued. */
  reindex: (userId?: string) => data(api().POST('/api/v4/admin/search/reindex', { body: userId ? { user_id: userId } : {} })),

  users: async (p: ListParams): Promise<Page<AdminUser>> => {
    const d = await data(api().POST('/api/v4/admin/user', { body: { ...p, order_by: p.order_by as UserListBody['order_by'] } }));
    return { items: d.users, total: d.pagination.total };
  },
  createUser: (body: JsonBody<'/api/v4/admin/user', 'put'>) => data(api().PUT('/api/v4/admin/user', { body })),
  updateUser: (id: string, body: JsonBody<'/api/v4/admin/user/{id}', 'put'>) => data(api().PUT('/api/v4/admin/user/{id}', { ...byId(id), body })),
  resetPassword: (id: string) => data(api().POST('/api/v4/admin/user/{id}/reset-password', byId(id))),
  signOutUser: (id: string) => data(api().POST('/api/v4/admin/user/{id}/sign-out', byId(id))),
  deleteUser: (id: string) => data(api().DELETE('/api/v4/admin/user/{id}', byId(id))),

  groups: () => data(api().GET('/api/v4/admin/group')),
  createGroup: (body: JsonBody<'/api/v4/admin/group', 'put'>) => data(api().PUT('/api/v4/admin/group', { body })),
  updateGroup: (id: number, body: JsonBody<'/api/v4/admin/group/{id}', 'put'>) => data(api().PUT('/api/v4/admin/group/{id}', { params: { path: { id } }, body })),
  deleteGroup: (id: number) => data(api().DELETE('/api/v4/admin/group/{id}', { params: { path: { id } } })),

  teamFolders: (groupId: number) => data(api().GET('/api/v4/admin/team-folder', { params: { query: { group_id: groupId } } })),
  createTeamFolder: (body: JsonBody<'/api/v4/admin/team-folder', 'put'>) => data(api().PUT('/api/v4/admin/team-folder', { body })),
  updateTeamFolder: (id: string, body: JsonBody<'/api/v4/admin/team-folder/{id}', 'put'>) => data(api().PUT('/api/v4/admin/team-folder/{id}', { ...byId(id), body })),
  deleteTeamFolder: (id: string) => data(api().DELETE('/api/v4/admin/team-folder/{id}', byId(id))),
  teamFolderOverrides: (id: string) => data(api().GET('/api/v4/admin/team-folder/{id}/member', byId(id))),
  setTeamFolderOverride: (id: string, user: string, permission: 'read' | 'write' | 'none' | null) =>
    data(api().PUT('/api/v4/admin/team-folder/{id}/member/{user}', { params: { path: { id, user } }, body: { permission } })),

  apps: async (p: ListParams): Promise<Page<OAuthApp>> => {
    const d = await data(api().POST('/api/v4/admin/oauthClient', { body: { ...p, order_by: p.order_by as AppListBody['order_by'] } }));
    return { items: d.clients, total: d.pagination.total };
  },
  app: (id: string) => data(api().GET('/api/v4/admin/oauthClient/{id}', byId(id))),
  createApp: (client: OAuthAppFields) => data(api().PUT('/api/v4/admin/oauthClient', { body: { client } })),
  updateApp: (id: string, client: JsonBody<'/api/v4/admin/oauthClient/{id}', 'put'>['client']) =>
    data(api().PUT('/api/v4/admin/oauthClient/{id}', { ...byId(id), body: { client } })),
  deleteApp: (id: string) => data(api().DELETE('/api/v4/admin/oauthClient/{id}', byId(id))),

  shares: async (p: ListParams & { user_id?: string }): Promise<Page<AdminShare>> => {
    const d = await data(api().POST('/api/v4/admin/share', { body: { ...p, order_by: p.order_by as ShareListBody['order_by'] } }));
    return { items: d.shares, total: d.pagination.total };
  },
  takeDownShare: (id: string) => data(api().DELETE('/api/v4/admin/share/{id}', byId(id))),

  settings: () => data(api().GET('/api/v4/admin/settings')),
  updateSettings: (body: JsonBody<'/api/v4/admin/settings', 'patch'>) => data(api().PATCH('/api/v4/admin/settings', { body })),
  audit: (query: AuditQuery & { cursor?: string }) => data(api().GET('/api/v4/admin/audit', { params: { query } })),
  verifyAudit: () => data(api().POST('/api/v4/admin/audit/verify')),
  /** The export as a Blob (the route takes the token in the header, so no plain link). */
  exportAudit: async (query: AuditQuery, format: 'jsonl' | 'csv'): Promise<Blob> => {
    const { data: blob, error, response } = await api().GET('/api/v4/admin/audit/export', { params: { query: { ...query, format } }, parseAs: 'blob' });
    if (!response.ok || !blob) {
      await envelope(Promise.resolve({ error, response }));
      throw new ApiError(response.status, ErrorCode.Internal, `Unexpected response from the server (HTTP ${response.status}).`);
    }
    return blob as Blob;
  },
  providers: () => data(api().GET('/api/v4/admin/identity-providers')),
  createProvider: (body: NewProvider) => data(api().PUT('/api/v4/admin/identity-providers', { body })),
  updateProvider: (id: string, body: ProviderChange) => data(api().PATCH('/api/v4/admin/identity-providers/{id}', { ...byId(id), body })),
  deleteProvider: (id: string) => data(api().DELETE('/api/v4/admin/identity-providers/{id}', byId(id))),
  testProvider: (id: string) => data(api().POST('/api/v4/admin/identity-providers/{id}/test', byId(id))),

  mailStatus: () => data(api().GET('/api/v4/admin/mail')),
  testMail: (to: string) => data(api().POST('/api/v4/admin/mail/test', { body: { to } })),
};

/** The `{field, index}` the server puts in `data` when one entry of a list is refused. */
export function listErrorIndex(err: unknown, field: string): number | null {
  if (!(err instanceof ApiError)) return null;
  const details = err.data as { field?: string; index?: number } | null;
  return details && details.field === field && typeof details.index === 'number' ? details.index : null;
}
