import type { Db } from '../db/database.js';
import type { SsoSessionsTable, UserIdentitiesTable } from '../db/schema.js';

export type IdentityRow = UserIdentitiesTable;
export type SsoSessionRow = SsoSessionsTable;

/** Linked identities, and which session family came from which upstream session. */
export class IdentityRepository {
  constructor(private readonly db: Db) {}

  findBySubject(providerId: string, subject: string): Promise<IdentityRow | undefined> {
    return this.db.selectFrom('user_identities').selectAll().where('provider_id', '=', providerId).where('subject', '=', subject).executeTakeFirst();
  }

  listOfUser(userId: string): Promise<IdentityRow[]> {
    return this.db.selectFrom('user_identities').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
  }

  listOfProvider(providerId: string): Promise<IdentityRow[]> {
    return this.db.selectFrom('user_identities').selectAll().where('provider_id', '=', providerId).orderBy('id').execute();
  }

  find(id: string): Promise<IdentityRow | undefined> {
    return this.db.selectFrom('user_identities').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** False when the (provider, subject) pair is already linked (the unique index decides between racing requests). */
  async insert(row: IdentityRow): Promise<boolean> {
    const res = await this.db
      .insertInto('user_identities')
      .values(row)
      .onConflict((oc) => oc.columns(['provider_id', 'subject']).doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async touch(id: string, login: string, now: number): Promise<void> {
    await this.db.updateTable('user_identities').set({ login, last_used_at: now }).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('user_identities').where('id', '=', id).execute();
  }

  async insertSession(row: SsoSessionRow): Promise<void> {
    await this.db.insertInto('sso_sessions').values(row).onConflict((oc) => oc.column('family_id').doNothing()).execute();
  }

  findSession(familyId: string): Promise<SsoSessionRow | undefined> {
    return this.db.selectFrom('sso_sessions').selectAll().where('family_id', '=', familyId).executeTakeFirst();
  }

  /** The families a back-channel logout names: by upstream session id, else by subject. */
  async sessionsFor(providerId: string, subject: string | undefined, upstreamSid: string | undefined): Promise<SsoSessionRow[]> {
    let q = this.db.selectFrom('sso_sessions').selectAll().where('provider_id', '=', providerId);
    if (subject !== undefined) q = q.where('subject', '=', subject);
    if (upstreamSid !== undefined) q = q.where('upstream_sid', '=', upstreamSid);
    return q.execute();
  }
}
