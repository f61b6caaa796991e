// SQL for server_instances: each running server process and its last beat.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export class InstanceRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async register(id: string, now: number): Promise<void> {
    await this.db.insertInto('server_instances').values({ id, started_at: now, heartbeat_at: now }).execute();
  }

  /** False when the row is gone (pruned after a long stall): the caller registers again. */
  async beat(id: string, now: number): Promise<boolean> {
    const res = await this.db.updateTable('server_instances').set({ heartbeat_at: now }).where('id', '=', id).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async remove(id: string): Promise<void> {
    await this.db.deleteFrom('server_instances').where('id', '=', id).execute();
  }

  /** Forgets processes silent since `before` (their locks are long free). */
  async prune(before: number): Promise<void> {
    await this.db.deleteFrom('server_instances').where('heartbeat_at', '<', before).execute();
  }
}
