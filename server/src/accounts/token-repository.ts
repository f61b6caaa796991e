import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { AccountTokensTable } from '../db/schema.js';

export type AccountTokenRow = Selectable<AccountTokensTable>;
export type AccountTokenKind = AccountTokenRow['kind'];

export class AccountTokenRepository {
  constructor(private readonly db: Db) {}

  /** Stores a new token and voids the user's unused older ones of the same kind, in one transaction. */
  async replace(row: AccountTokenRow): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('account_tokens')
        .set({ used_at: row.created_at })
        .where('user_id', '=', row.user_id)
        .where('kind', '=', row.kind)
        .where('used_at', 'is', null)
        .execute();
      await trx.insertInto('account_tokens').values(row).execute();
    });
  }

  /**
   * Single use: marks the token used when it is of this kind, unused and
   * unexpired; only the one request whose UPDATE changed the row gets it.
   */
  async take(hash: string, kind: AccountTokenKind, now: number): Promise<AccountTokenRow | undefined> {
    const res = await this.db
      .updateTable('account_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', hash)
      .where('kind', '=', kind)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return undefined;
    return this.db.selectFrom('account_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
  }

  /** A token as stored, used or not (to tell "used" from "expired" in a message). */
  find(hash: string): Promise<AccountTokenRow | undefined> {
    return this.db.selectFrom('account_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
  }

  /** Voids every unused token of the user (a reset ends the others too). */
  async voidAll(userId: string, now: number): Promise<void> {
    await this.db.updateTable('account_tokens').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
  }

  async prune(before: number): Promise<void> {
    await this.db.deleteFrom('account_tokens').where('expires_at', '<', before).execute();
  }
}
