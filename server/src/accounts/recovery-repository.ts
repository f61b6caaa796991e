import type { Db } from '../db/database.js';

export class RecoveryCodeRepository {
  constructor(private readonly db: Db) {}

  /** The user's codes become exactly these (the old set is void), in one transaction. */
  async replace(userId: string, hashes: string[], now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      if (hashes.length) await trx.insertInto('recovery_codes').values(hashes.map((code_hash) => ({ code_hash, user_id: userId, created_at: now, used_at: null }))).execute();
    });
  }

  /** Single use: true for the one request whose UPDATE marked the unused code used. */
  async take(userId: string, hash: string, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('recovery_codes')
      .set({ used_at: now })
      .where('code_hash', '=', hash)
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async remaining(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('recovery_codes')
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async clear(userId: string): Promise<void> {
    await this.db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  }
}
