import type { Db } from '../db/database.js';

export interface RevocationEvent {
  kind: 'family' | 'grant' | 'client' | 'user';
  key: string;
  revoked_at: number;
  expires_at: number;
}

export class RevocationRepository {
  constructor(private readonly db: Db) {}

  async insert(events: RevocationEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.db.insertInto('revocation_events').values(events).execute();
  }

  async since(ms: number): Promise<RevocationEvent[]> {
    const rows = await this.db.selectFrom('revocation_events').select(['kind', 'key', 'revoked_at', 'expires_at']).where('revoked_at', '>=', ms).execute();
    return rows as RevocationEvent[];
  }

  async activeAt(ms: number): Promise<RevocationEvent[]> {
    const rows = await this.db.selectFrom('revocation_events').select(['kind', 'key', 'revoked_at', 'expires_at']).where('expires_at', '>=', ms).execute();
    return rows as RevocationEvent[];
  }

  async prune(ms: number): Promise<void> {
    await this.db.deleteFrom('revocation_events').where('expires_at', '<', ms).execute();
  }
}
