// SQL for the device authorization grant's requests (oauth_device_codes).
// Every change of state is one conditional UPDATE, so two instances polling
// or deciding the same request cannot both win.
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { OAuthDeviceCodesTable } from '../../db/schema.js';

export type DeviceCodeRow = Selectable<OAuthDeviceCodesTable>;

export class DeviceCodeRepository {
  constructor(private readonly db: Db) {}

  async insert(row: DeviceCodeRow): Promise<void> {
    await this.db.insertInto('oauth_device_codes').values(row).execute();
  }

  find(deviceCodeHash: string): Promise<DeviceCodeRow | undefined> {
    return this.db.selectFrom('oauth_device_codes').selectAll().where('device_code_hash', '=', deviceCodeHash).executeTakeFirst();
  }

  /** The live request a user code names (pending, not expired), if any. */
  findPending(userCodeHash: string, now: number): Promise<DeviceCodeRow | undefined> {
    return this.db
      .selectFrom('oauth_device_codes')
      .selectAll()
      .where('user_code_hash', '=', userCodeHash)
      .where('status', '=', 'pending')
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  /** The user's decision on a pending request; false when it was no longer pending (decided elsewhere, or expired). */
  async decide(deviceCodeHash: string, approve: boolean, userId: string, authTime: number | null, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('oauth_device_codes')
      .set({ status: approve ? 'approved' : 'denied', user_id: userId, auth_time: authTime })
      .where('device_code_hash', '=', deviceCodeHash)
      .where('status', '=', 'pending')
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /**
   * Records a poll that kept the interval (RFC 8628 §3.5) and returns the row
   * as it now is; undefined when the previous poll was less than the interval ago.
   */
  poll(deviceCodeHash: string, now: number): Promise<DeviceCodeRow | undefined> {
    return this.db
      .updateTable('oauth_device_codes')
      .set({ last_polled_at: now })
      .where('device_code_hash', '=', deviceCodeHash)
      .where((eb) => eb.or([eb('last_polled_at', 'is', null), eb(eb('last_polled_at', '+', eb(eb.ref('interval_s'), '*', 1000)), '<=', now)]))
      .returningAll()
      .executeTakeFirst();
  }

  /** slow_down: the interval grows by `seconds`, for this and every later poll. */
  async slowDown(deviceCodeHash: string, seconds: number, now: number): Promise<void> {
    await this.db
      .updateTable('oauth_device_codes')
      .set((eb) => ({ interval_s: eb('interval_s', '+', seconds), last_polled_at: now }))
      .where('device_code_hash', '=', deviceCodeHash)
      .execute();
  }

  /** Spends an approved request: true for the one poll that gets the tokens. */
  async consume(deviceCodeHash: string): Promise<boolean> {
    const res = await this.db
      .updateTable('oauth_device_codes')
      .set({ status: 'used' })
      .where('device_code_hash', '=', deviceCodeHash)
      .where('status', '=', 'approved')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async prune(expiredBefore: number): Promise<void> {
    await this.db.deleteFrom('oauth_device_codes').where('expires_at', '<', expiredBefore).execute();
  }
}
