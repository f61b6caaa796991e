import type { Selectable } from 'kysely';
import { compileOnce, type Slot } from '../db/compiled.js';
import type { Db } from '../db/database.js';
import { SESSION_COLUMNS, type SessionsTable } from '../db/schema.js';

export type SessionRow = Selectable<SessionsTable>;

export class SessionRepository {
  // Every refresh runs these two: compiled once (server/src/db/compiled.ts).
  private readonly findStatement;
  private readonly rotateStatement;

  constructor(private readonly db: Db) {
    this.findStatement = compileOnce(db, (v: Slot<{ id: string }>) => db.selectFrom('sessions').select(SESSION_COLUMNS).where('id', '=', v('id')));
    this.rotateStatement = compileOnce(db, (v: Slot<{ id: string; fromJti: string; toJti: string; now: number; expiresAt: number }>) =>
      db
        .updateTable('sessions')
        .set({ current_jti: v('toJti'), previous_jti: v('fromJti'), rotated_at: v('now'), expires_at: v('expiresAt') })
        .where('id', '=', v('id'))
        .where('current_jti', '=', v('fromJti'))
        .where('revoked_at', 'is', null),
    );
  }

  async insert(row: SessionRow): Promise<void> {
    await this.db.insertInto('sessions').values(row).execute();
  }

  async find(id: string): Promise<SessionRow | undefined> {
    return (await this.findStatement.run({ id })).rows[0];
  }

  /** Atomically moves the family to a new generation if `fromJti` is still current. */
  async rotate(id: string, fromJti: string, toJti: string, now: number, expiresAt: number): Promise<boolean> {
    return (await this.rotateStatement.run({ id, fromJti, toJti, now, expiresAt })).changed === 1;
  }

  /** Marks families revoked; returns the ids that were live. */
  async revoke(filter: { id?: string; userId?: string; clientId?: string; exceptId?: string }, reason: string, now: number): Promise<SessionRow[]> {
    let q = this.db.selectFrom('sessions').selectAll().where('revoked_at', 'is', null);
    if (filter.id !== undefined) q = q.where('id', '=', filter.id);
    if (filter.userId !== undefined) q = q.where('user_id', '=', filter.userId);
    if (filter.clientId !== undefined) q = q.where('client_id', '=', filter.clientId);
    if (filter.exceptId !== undefined) q = q.where('id', '!=', filter.exceptId);
    const rows = await q.execute();
    if (rows.length === 0) return [];
    await this.db
      .updateTable('sessions')
      .set({ revoked_at: now, revoke_reason: reason })
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .where('revoked_at', 'is', null)
      .execute();
    return rows;
  }

  async pruneExpired(now: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('expires_at', '<', now).execute();
  }
}
