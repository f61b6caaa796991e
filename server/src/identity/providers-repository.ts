import type { Db } from '../db/database.js';
import type { IdentityProvidersTable } from '../db/schema.js';

export type ProviderRow = IdentityProvidersTable;

export class ProviderRepository {
  constructor(private readonly db: Db) {}

  list(): Promise<ProviderRow[]> {
    return this.db.selectFrom('identity_providers').selectAll().orderBy('created_at').orderBy('id').execute();
  }

  find(id: string): Promise<ProviderRow | undefined> {
    return this.db.selectFrom('identity_providers').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insert(row: ProviderRow): Promise<void> {
    await this.db.insertInto('identity_providers').values(row).execute();
  }

  async update(id: string, patch: Partial<Omit<ProviderRow, 'id' | 'type' | 'created_at'>>): Promise<void> {
    await this.db.updateTable('identity_providers').set(patch).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<boolean> {
    const res = await this.db.deleteFrom('identity_providers').where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }
}
