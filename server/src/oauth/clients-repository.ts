import type { Selectable, Updateable } from 'kysely';
import type { Db } from '../db/database.js';
import type { OAuthClientsTable } from '../db/schema.js';
import { containsInsensitive, type SortDirection } from '../db/search.js';

export interface ClientListQuery {
  /** Matches the name or the client ID. */
  keyword?: string;
  orderBy?: 'created_at' | 'name';
  direction?: SortDirection;
}

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

  /** The redirect_uris column (JSON lists) of every enabled client. */
  async enabledRedirectUris(): Promise<string[]> {
    const rows = await this.db.selectFrom('oauth_clients').select('redirect_uris').where('is_enabled', '=', 1).execute();
    return rows.map((r) => r.redirect_uris);
  }

  /** Grants and codes go with it (ON DELETE CASCADE). */
  async delete(id: string): Promise<boolean> {
    const res = await this.db.deleteFrom('oauth_clients').where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }

  list(offset: number, limit: number, q: ClientListQuery = {}): Promise<ClientRow[]> {
    return this.filtered(q)
      .selectAll()
      .orderBy(q.orderBy ?? 'created_at', q.direction ?? 'asc')
      .orderBy('id', q.direction ?? 'asc')
      .offset(offset)
      .limit(limit)
      .execute();
  }

  async count(q: ClientListQuery = {}): Promise<number> {
    const row = await this.filtered(q).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  private filtered(q: ClientListQuery) {
    const keyword = q.keyword?.trim();
    return this.db
      .selectFrom('oauth_clients')
      .$if(Boolean(keyword), (qb) => qb.where((eb) => eb.or([containsInsensitive('name', keyword!), containsInsensitive('id', keyword!)])));
  }
}
