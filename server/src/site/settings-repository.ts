import type { Db } from '../db/database.js';

export class SettingsRepository {
  constructor(private readonly db: Db) {}

  async get(name: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('settings').select('value').where('name', '=', name).executeTakeFirst();
    return row?.value;
  }

  async all(): Promise<Record<string, string>> {
    const rows = await this.db.selectFrom('settings').select(['name', 'value']).execute();
    return Object.fromEntries(rows.map((r) => [r.name, r.value]));
  }

  /** Inserts only when absent; returns true when it inserted. */
  async insertIfAbsent(name: string, value: string): Promise<boolean> {
    const res = await this.db.insertInto('settings').values({ name, value }).onConflict((oc) => oc.column('name').doNothing()).executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async set(name: string, value: string): Promise<void> {
    await this.db.insertInto('settings').values({ name, value }).onConflict((oc) => oc.column('name').doUpdateSet({ value })).execute();
  }
}
