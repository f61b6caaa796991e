// SQL for signin_challenges: the pending second-factor step of a sign-in.
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { SignInChallengesTable } from '../db/schema.js';

export type ChallengeRow = Selectable<SignInChallengesTable>;

export class ChallengeRepository {
  constructor(private readonly db: Db) {}

  async insert(row: ChallengeRow): Promise<void> {
    await this.db.insertInto('signin_challenges').values(row).execute();
  }

  find(id: string): Promise<ChallengeRow | undefined> {
    return this.db.selectFrom('signin_challenges').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Claims one attempt atomically (false once `max` are used), so parallel guesses cannot exceed it. */
  async claimAttempt(id: string, max: number): Promise<boolean> {
    const res = await this.db
      .updateTable('signin_challenges')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where('attempts', '<', max)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Single use: true only for the caller whose delete removed the row. */
  async take(id: string): Promise<boolean> {
    const res = await this.db.deleteFrom('signin_challenges').where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }
}
