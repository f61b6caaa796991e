import type { Db } from '../../db/database.js';
import type { SsoCodesTable, SsoStatesTable } from '../../db/schema.js';

export type StateRow = SsoStatesTable;
export type CodeRow = SsoCodesTable;

/** The pending round trips to a provider and the one-time codes for the web app: both single use. */
export class SsoRepository {
  constructor(private readonly db: Db) {}

  async insertState(row: StateRow): Promise<void> {
    await this.db.insertInto('sso_states').values(row).execute();
  }

  /** Deletes and returns the state: only the request whose delete took the row may go on. */
  async takeState(id: string): Promise<StateRow | undefined> {
    const row = await this.db.selectFrom('sso_states').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const res = await this.db.deleteFrom('sso_states').where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) > 0 ? row : undefined;
  }

  async insertCode(row: CodeRow): Promise<void> {
    await this.db.insertInto('sso_codes').values(row).execute();
  }

  async takeCode(id: string): Promise<CodeRow | undefined> {
    const row = await this.db.selectFrom('sso_codes').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const res = await this.db.deleteFrom('sso_codes').where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) > 0 ? row : undefined;
  }

  async prune(now: number): Promise<void> {
    await this.db.deleteFrom('sso_states').where('expires_at', '<', now).execute();
    await this.db.deleteFrom('sso_codes').where('expires_at', '<', now).execute();
  }
}
