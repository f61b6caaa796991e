import type { Selectable, Updateable } from 'kysely';
import type { Db } from '../db/database.js';
import type { OAuthClientsTable } from '../db/schema.js';

export type ClientRow = Selectable<OAuthClientsTable>;

export class ClientRepository {
  constructor(private readonly db: Db) {}

  find(id: string): Promise<ClientRow | undefined> {
    return this.db.selectFrom('oauth_clients').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insert(row: ClientRow): Promise<void> {
    await this.db.insertInto('oauth_clients').values(row).execute();
  }

  async update(id: string, patch: Updateable<OAuthClientsTable>): Promise<void> {
    await this.db.updateTable('oauth_clients').set(patch).where('id', '=', id).execute();
  }

  /** Grants and codes go with it (ON DELETE CASCADE). */
  async delete(id: string): Promise<boolean> {
    const res = await this.db.deleteFrom('oauth_clients').where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }

  list(offset: number, limit: number): Promise<ClientRow[]> {
    return this.db.selectFrom('oauth_clients').selectAll().orderBy('created_at').orderBy('id').offset(offset).limit(limit).execute();
  }

  async count(): Promise<number> {
    const row = await this.db.selectFrom('oauth_clients').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
