// SQL for uploads in progress. A row is the lease on its staging area, its
// blob id and its quota reservation: whoever deletes the row owns the cleanup.
import type { Kysely, Selectable } from 'kysely';
import type { Database, UploadsTable } from '../db/schema.js';

export type UploadRow = Selectable<UploadsTable>;

export class UploadRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: UploadRow): Promise<void> {
    await this.db.insertInto('uploads').values(row).execute();
  }

  find(ownerId: string, id: string): Promise<UploadRow | undefined> {
    return this.db.selectFrom('uploads').selectAll().where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
  }

  findAny(id: string): Promise<UploadRow | undefined> {
    return this.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Takes the write lock of an upload whose offset is still `offset`: one
   * writer at a time, across instances. Returns false when the offset moved
   * or another request holds a live lock.
   */
  async claim(id: string, offset: number, token: string, now: number, lockUntil: number): Promise<boolean> {
    const res = await this.db
      .updateTable('uploads')
      .set({ lock_token: token, lock_expires_at: lockUntil })
      .where('id', '=', id)
      .where('upload_offset', '=', offset)
      .where((eb) => eb.or([eb('lock_token', 'is', null), eb('lock_expires_at', '<', now)]))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Extends a held lock and the upload's expiry while bytes flow. */
  async heartbeat(id: string, token: string, lockUntil: number, expiresAt: number): Promise<void> {
    await this.db.updateTable('uploads').set({ lock_expires_at: lockUntil, expires_at: expiresAt }).where('id', '=', id).where('lock_token', '=', token).execute();
  }

  /** Records durable progress and releases the lock. */
  async release(id: string, token: string, patch: { upload_offset: number; crc32: number; expires_at: number }): Promise<void> {
    await this.db
      .updateTable('uploads')
      .set({ ...patch, lock_token: null, lock_expires_at: null })
      .where('id', '=', id)
      .where('lock_token', '=', token)
      .execute();
  }

  async setReserved(id: string, reserved: number): Promise<void> {
    await this.db.updateTable('uploads').set({ reserved }).where('id', '=', id).execute();
  }

  /** Deletes the row and returns it, or undefined when someone else already did. */
  async take(id: string): Promise<UploadRow | undefined> {
    const row = await this.findAny(id);
    if (!row) return undefined;
    const res = await this.db.deleteFrom('uploads').where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) === 1 ? row : undefined;
  }

  async expired(now: number, limit: number): Promise<UploadRow[]> {
    return this.db.selectFrom('uploads').selectAll().where('expires_at', '<', now).orderBy('expires_at').limit(limit).execute();
  }

  async ofOwner(ownerId: string): Promise<UploadRow[]> {
    return this.db.selectFrom('uploads').selectAll().where('owner_id', '=', ownerId).execute();
  }

  async existingIds(ids: readonly string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.db.selectFrom('uploads').select('id').where('id', 'in', ids.slice(i, i + 500)).execute();
      for (const r of rows) out.add(r.id);
    }
    return out;
  }
}
