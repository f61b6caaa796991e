// SQL for passkeys and their ceremonies' challenges (migration 019).
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { PasskeyChallengesTable, PasskeysTable } from '../db/schema.js';

export type PasskeyRow = Selectable<PasskeysTable>;
export type PasskeyChallengeRow = Selectable<PasskeyChallengesTable>;

export class PasskeyRepository {
  constructor(private readonly db: Db) {}

  async insertChallenge(row: PasskeyChallengeRow): Promise<void> {
    await this.db.insertInto('passkey_challenges').values(row).execute();
  }

  /**
   * Single use across instances: the one DELETE that removes an unexpired
   * challenge of this kind (and, for registration, of this user) gets it.
   */
  takeChallenge(id: string, kind: PasskeyChallengeRow['kind'], userId: string | null, now: number): Promise<PasskeyChallengeRow | undefined> {
    let q = this.db.deleteFrom('passkey_challenges').where('id', '=', id).where('kind', '=', kind).where('expires_at', '>', now);
    if (userId !== null) q = q.where('user_id', '=', userId);
    return q.returningAll().executeTakeFirst();
  }

  async pruneChallenges(now: number): Promise<void> {
    await this.db.deleteFrom('passkey_challenges').where('expires_at', '<=', now).execute();
  }

  async insert(row: PasskeyRow): Promise<void> {
    await this.db.insertInto('passkeys').values(row).execute();
  }

  listByUser(userId: string): Promise<PasskeyRow[]> {
    return this.db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
  }

  findByCredential(credentialId: string): Promise<PasskeyRow | undefined> {
    return this.db.selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
  }

  findOwned(id: string, userId: string): Promise<PasskeyRow | undefined> {
    return this.db.selectFrom('passkeys').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  }

  async rename(id: string, userId: string, name: string): Promise<boolean> {
    const res = await this.db.updateTable('passkeys').set({ name }).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async deleteAllOf(userId: string): Promise<void> {
    await this.db.deleteFrom('passkeys').where('user_id', '=', userId).execute();
  }

  async delete(id: string, userId: string): Promise<boolean> {
    const res = await this.db.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }

  /**
   * Records a use: the counter moves from the value the check read to the
   * new one (a concurrent use of the same counter loses), and last_used_at.
   */
  async recordUse(id: string, expectedCounter: number, counter: number, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('passkeys')
      .set({ counter, last_used_at: now })
      .where('id', '=', id)
      .where('counter', '=', expectedCounter)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }
}
