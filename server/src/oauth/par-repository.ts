// SQL for pushed authorization requests (oauth_par_requests).
import type { Db } from '../db/database.js';

export class ParRepository {
  constructor(private readonly db: Db) {}

  async insert(row: { request_uri_hash: string; client_id: string; params: string; created_at: number; expires_at: number }): Promise<void> {
    await this.db.insertInto('oauth_par_requests').values({ ...row, used_at: null }).execute();
  }

  async findLive(hash: string, clientId: string, now: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('oauth_par_requests')
      .select('params')
      .where('request_uri_hash', '=', hash)
      .where('client_id', '=', clientId)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row?.params;
  }

  /** Spends the request: true for the one decision that may use it. */
  async consume(hash: string, clientId: string, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('oauth_par_requests')
      .set({ used_at: now })
      .where('request_uri_hash', '=', hash)
      .where('client_id', '=', clientId)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async prune(expiredBefore: number): Promise<void> {
    await this.db.deleteFrom('oauth_par_requests').where('expires_at', '<', expiredBefore).execute();
  }
}
