// SQL of the "where you are signed in" list: the person's live first-party
// session families and the browser/address each one signed in from.
import type { Db } from '../db/database.js';

export interface UserSessionRow {
  id: string;
  created_at: number;
  rotated_at: number | null;
  expires_at: number;
  user_agent: string | null;
  ip: string | null;
}

export class UserSessionsRepository {
  constructor(private readonly db: Db) {}

  async recordClient(sessionId: string, userAgent: string | null, ip: string | null): Promise<void> {
    await this.db
      .insertInto('session_clients')
      .values({ session_id: sessionId, user_agent: userAgent, ip })
      .onConflict((oc) => oc.column('session_id').doUpdateSet({ user_agent: userAgent, ip }))
      .execute();
  }

  /** The browsers of the person's earlier first-party sign-ins (live or not, while their rows are kept), newest first. */
  async userAgentsOf(userId: string, exceptSessionId: string): Promise<(string | null)[]> {
    const rows = await this.db
      .selectFrom('sessions')
      .innerJoin('session_clients', 'session_clients.session_id', 'sessions.id')
      .select(['session_clients.user_agent', 'sessions.created_at'])
      .where('sessions.user_id', '=', userId)
      .where('sessions.client_id', 'is', null)
      .where('sessions.id', '!=', exceptSessionId)
      .orderBy('sessions.created_at', 'desc')
      .limit(200)
      .execute();
    return rows.map((r) => r.user_agent);
  }

  /** Live first-party families (OAuth apps are listed as connected apps instead), newest first. */
  listLive(userId: string, now: number): Promise<UserSessionRow[]> {
    return this.db
      .selectFrom('sessions')
      .leftJoin('session_clients', 'session_clients.session_id', 'sessions.id')
      .select(['sessions.id', 'sessions.created_at', 'sessions.rotated_at', 'sessions.expires_at', 'session_clients.user_agent', 'session_clients.ip'])
      .where('sessions.user_id', '=', userId)
      .where('sessions.client_id', 'is', null)
      .where('sessions.revoked_at', 'is', null)
      .where('sessions.expires_at', '>', now)
      .orderBy('sessions.created_at', 'desc')
      .limit(500)
      .execute();
  }
}
