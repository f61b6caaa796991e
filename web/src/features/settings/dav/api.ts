// WebDAV accounts (api-contract §8) on the generated client, behind small
// functions the component calls.
import { api, data } from '../../../api/client';
import type { DavAccount, NewDavAccount } from '../../../api/generated/schema';

export type { DavAccount, NewDavAccount };

const byId = (id: string) => ({ params: { path: { id } } });

export const listDavAccounts = () => data(api().GET('/api/v4/devices/dav'));
export const createDavAccount = (body: { name: string; path?: string; readonly?: boolean }) => data(api().PUT('/api/v4/devices/dav', { body }));
/** The route answers `password` whenever regenerate_password is true; its schema cannot say so, hence the check. */
export async function regenerateDavPassword(id: string): Promise<NewDavAccount> {
  const account = await data(api().PATCH('/api/v4/devices/dav/{id}', { ...byId(id), body: { regenerate_password: true } }));
  if (account.password === undefined) throw new Error('The server did not return a new password.');
  return { ...account, password: account.password };
}
export const deleteDavAccount = (id: string) => data(api().DELETE('/api/v4/devices/dav/{id}', byId(id)));
