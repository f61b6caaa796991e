// Sharing with people and groups (docs/api.md "Sharing with people and groups").
import { api, data } from '../../api/client';
import type { FileAccessGrant, GivenGrant, SharedWithMeItem } from '../../api/generated/schema';

export type { FileAccessGrant, GivenGrant, SharedWithMeItem };

/** The virtual folder a person's shared items live in (server: sharing/resolver.ts). */
export const SHARED_ROOT = '/Shared with me';

export const accessOf = (path: string) => data(api().GET('/api/v4/file/access', { params: { query: { path } } }));
export const grantAccess = (body: { path: string; user?: string; group?: number; permission: 'read' | 'write' }) => data(api().PUT('/api/v4/file/access', { body }));
export const revokeAccess = (id: string) => data(api().DELETE('/api/v4/file/access/{id}', { params: { path: { id } } }));
/** People and groups one may share with whose name or address starts with `q` (server: sharing/suggest.ts). */
export const suggestRecipients = (q: string) => data(api().GET('/api/v4/file/access/suggest', { params: { query: { q } } }));
/** "Shared by me": the grants on one's items, each with its item. */
export const givenAccess = () => data(api().GET('/api/v4/file/access/given'));
export const givenQuery = { queryKey: ['access-given'], queryFn: givenAccess };
export const markSharedSeen = () => data(api().POST('/api/v4/file/shared/seen'));

export const sharedQuery = { queryKey: ['shared-with-me'], queryFn: () => data(api().GET('/api/v4/file/shared')) };
/** The sidebar's badge: refreshed every minute and after the list was seen. */
export const sharedBadgeQuery = { queryKey: ['shared-badge'], queryFn: () => data(api().GET('/api/v4/file/shared')), refetchInterval: 60_000 };
export const accessQuery = (path: string) => ({ queryKey: ['file-access', path], queryFn: () => accessOf(path) });

/** Whether a path lies in what others shared with the person (its owner manages access, not they). */
export const isShared = (path: string) => path === SHARED_ROOT || path.startsWith(`${SHARED_ROOT}/`);
