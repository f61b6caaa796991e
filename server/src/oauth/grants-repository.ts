// The only SQL for what users granted to applications and the authorization
// codes issued on those grants.
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { OAuthCodesTable, OAuthGrantsTable } from '../db/schema.js';

export type GrantRow = Selectable<OAuthGrantsTable>;
export type CodeRow = Selectable<OAuthCodesTable>;
export type GrantWithClient = GrantRow & { client_name: string; client_icon: string; client_homepage_url: string | null };

export class GrantRepository {
  constructor(private readonly db: Db) {}

  find(userId: string, clientId: string): Promise<GrantRow | undefined> {
    return this.db.selectFrom('oauth_grants').selectAll().where('user_id', '=', userId).where('client_id', '=', clientId).executeTakeFirst();
  }

  async upsert(userId: string, clientId: string, scopes: string, now: number): Promise<void> {
    await this.db
      .insertInto('oauth_grants')
      .values({ user_id: userId, client_id: clientId, scopes, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'client_id']).doUpdateSet({ scopes, updated_at: now }))
      .execute();
  }

  /** Removes the grant and the codes not yet exchanged on it. */
  async delete(userId: string, clientId: string): Promise<boolean> {
    await this.db.deleteFrom('oauth_codes').where('user_id', '=', userId).where('client_id', '=', clientId).where('used_at', 'is', null).execute();
    const res = await this.db.deleteFrom('oauth_grants').where('user_id', '=', userId).where('client_id', '=', clientId).executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }

  listForUser(userId: string): Promise<GrantWithClient[]> {
    return this.db
      .selectFrom('oauth_grants')
      .innerJoin('oauth_clients', 'oauth_clients.id', 'oauth_grants.client_id')
      .selectAll('oauth_grants')
      .select(['oauth_clients.name as client_name', 'oauth_clients.icon as client_icon', 'oauth_clients.homepage_url as client_homepage_url'])
      .where('oauth_grants.user_id', '=', userId)
      .orderBy('oauth_grants.created_at')
      .execute();
  }

  async insertCode(row: CodeRow): Promise<void> {
    await this.db.insertInto('oauth_codes').values(row).execute();
  }

  findCode(hash: string): Promise<CodeRow | undefined> {
    return this.db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', hash).executeTakeFirst();
  }

  /**
   * The usual exchange in one statement: consumes the code only if it is
   * unused, this client's, unexpired, for this redirect_uri (when given) and
   * for this PKCE challenge (or none), and returns it. Undefined when any of
   * these fails: the caller then reads the row to say which (and to detect a replay).
   */
  consumeMatching(hash: string, match: { clientId: string; redirectUri: string | undefined; codeChallenge: string | null }, now: number): Promise<CodeRow | undefined> {
    let q = this.db
      .updateTable('oauth_codes')
      .set({ used_at: now })
      .where('code_hash', '=', hash)
      .where('used_at', 'is', null)
      .where('client_id', '=', match.clientId)
      .where('expires_at', '>', now)
      .where('code_challenge', match.codeChallenge === null ? 'is' : '=', match.codeChallenge);
    if (match.redirectUri !== undefined) q = q.where('redirect_uri', '=', match.redirectUri);
    return q.returningAll().executeTakeFirst();
  }

  /** Single use: only the one request whose UPDATE finds it unused wins. */
  async consumeCode(hash: string, now: number): Promise<boolean> {
    const res = await this.db.updateTable('oauth_codes').set({ used_at: now }).where('code_hash', '=', hash).where('used_at', 'is', null).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Records the family a code produced; returns when a replay was seen meanwhile (null: none). */
  async attachFamily(hash: string, sid: string): Promise<number | null> {
    const row = await this.db.updateTable('oauth_codes').set({ sid }).where('code_hash', '=', hash).returning('reused_at').executeTakeFirst();
    return row?.reused_at ?? null;
  }

  /** Marks a replay; returns the family the code produced, if it is known yet. */
  async markReused(hash: string, now: number): Promise<string | null> {
    const row = await this.db.updateTable('oauth_codes').set({ reused_at: now }).where('code_hash', '=', hash).returning('sid').executeTakeFirst();
    return row?.sid ?? null;
  }

  async pruneCodes(expiredBefore: number): Promise<void> {
    await this.db.deleteFrom('oauth_codes').where('expires_at', '<', expiredBefore).execute();
  }
}
