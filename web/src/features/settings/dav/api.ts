// WebDAV accounts (api-contract §8), behind small functions so the generated
// client can replace their bodies without touching the component.
import { call } from '../../../api/client';

export interface DavAccount {
  id: string;
  name: string;
  path: string;
  readonly: boolean;
  created_at: string;
  updated_at: string;
}

export type NewDavAccount = DavAccount & { password: string };

export const listDavAccounts = () => call<{ accounts: DavAccount[] }>('GET', '/api/v4/devices/dav');
export const createDavAccount = (body: { name: string; path?: string; readonly?: boolean }) => call<NewDavAccount>('PUT', '/api/v4/devices/dav', { body });
export const regenerateDavPassword = (id: string) =>
  call<NewDavAccount>('PATCH', `/api/v4/devices/dav/${encodeURIComponent(id)}`, { body: { regenerate_password: true } });
export const deleteDavAccount = (id: string) => call<null>('DELETE', `/api/v4/devices/dav/${encodeURIComponent(id)}`);
