// SQL for uploads in progress. A row is the lease on its staging area, its
// blob id and its quota reservation: whoever deletes the row owns the cleanup.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, UploadsTable } from '../db/schema.js';

/** An unlocked complete upload younger than this is its creating request's to finish (an empty tus upload). */
const FRESH_UPLOAD_MS = 5_000;

export type UploadRow = Selectable<UploadsTable>;

/**
 * The live server_instances row of an upload's lock owner (correlated on
 * uploads.lock_owner). The asking process (`self`) is alive whatever its row
 * says: after a step of the clock (NTP, a resumed VM, the tests' clock) its
 * last beat looks old until the next one, and it must not take its own
 * in-flight uploads for orphans then.
 */
function liveInstance(db: Kysely<Database>, deadBefore: number, self: string) {
  return db
    .selectFrom('server_instances')
    .select('server_instances.id')
    .where('server_instances.id', '=', sql.ref<string>('uploads.lock_owner'))
    .where((eb) => eb.or([eb('server_instances.heartbeat_at', '>=', deadBefore), eb('server_instances.id', '=', self)]));
}

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
   * writer at a time, across instances. A lock is free when nobody holds it,
   * when it expired, or when the process holding it stopped beating (its
   * server_instances row is older than `deadBefore` or gone): a crashed
   * request's lock is taken over within seconds. Returns false when the
   * offset moved or a live request holds the lock.
   */
  async claim(id: string, offset: number, lock: { token: string; owner: string; now: number; until: number; deadBefore: number }): Promise<boolean> {
    const res = await this.db
      .updateTable('uploads')
      .set({ lock_token: lock.token, lock_owner: lock.owner, lock_expires_at: lock.until })
      .where('id', '=', id)
      .where('upload_offset', '=', offset)
      .where((eb) =>
        eb.or([
          eb('lock_token', 'is', null),
          eb('lock_expires_at', '<', lock.now),
          eb.and([eb('lock_owner', 'is not', null), eb.not(eb.exists(liveInstance(this.db, lock.deadBefore, lock.owner)))]),
        ]),
      )
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Extends a held lock and the upload's expiry while bytes flow. */
  async heartbeat(id: string, token: string, lockUntil: number, expiresAt: number): Promise<boolean> {
    const res = await this.db
      .updateTable('uploads')
      .set({ lock_expires_at: lockUntil, expires_at: expiresAt })
      .where('id', '=', id)
      .where('lock_token', '=', token)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Records durable progress under a held lock, keeping it. False when the lock was lost. */
  async progress(id: string, token: string, patch: { upload_offset: number; crc32: number; expires_at?: number }): Promise<boolean> {
    const res = await this.db.updateTable('uploads').set(patch).where('id', '=', id).where('lock_token', '=', token).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
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

  /** Releases a held lock without recording anything. */
  async unlock(id: string, token: string): Promise<void> {
    await this.db.updateTable('uploads').set({ lock_token: null, lock_expires_at: null }).where('id', '=', id).where('lock_token', '=', token).execute();
  }

  /** Changes what a held upload becomes, or what it reserves. False when the lock was lost. */
  async amend(id: string, token: string, patch: Partial<Pick<UploadRow, 'target_path' | 'source' | 'author' | 'reserved'>>): Promise<boolean> {
    const res = await this.db.updateTable('uploads').set(patch).where('id', '=', id).where('lock_token', '=', token).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async setReserved(id: string, reserved: number): Promise<void> {
    await this.db.updateTable('uploads').set({ reserved }).where('id', '=', id).execute();
  }

  /**
   * Deletes the row and returns it, or undefined when someone else already
   * did; with `token`, only while that lock is still held.
   */
  async take(id: string, token?: string): Promise<UploadRow | undefined> {
    let del = this.db.deleteFrom('uploads').where('id', '=', id);
    if (token !== undefined) del = del.where('lock_token', '=', token);
    return del.returningAll().executeTakeFirst();
  }

  /** Streamed PUTs whose process is gone: nobody will finish them. */
  async orphanedPuts(deadBefore: number, self: string, limit: number): Promise<UploadRow[]> {
    return this.db
      .selectFrom('uploads')
      .selectAll()
      .where('kind', '=', 'put')
      .where('lock_owner', 'is not', null)
      .where((eb) => eb.not(eb.exists(liveInstance(this.db, deadBefore, self))))
      .limit(limit)
      .execute();
  }

  /**
   * tus uploads with every byte received but no file yet (the process
   * finishing them died, or finishing failed) and no live lock on them.
   */
  async completeUnfinished(now: number, deadBefore: number, self: string, limit: number): Promise<UploadRow[]> {
    return this.db
      .selectFrom('uploads')
      .selectAll()
      .where('kind', '=', 'tus')
      .whereRef('upload_offset', '=', 'length')
      .where((eb) =>
        eb.or([
          // Not one just created: an empty tus upload is complete at creation and its own request finishes it next.
          eb.and([eb('lock_token', 'is', null), eb('created_at', '<', now - FRESH_UPLOAD_MS)]),
          eb('lock_expires_at', '<', now),
          eb.and([eb('lock_owner', 'is not', null), eb.not(eb.exists(liveInstance(this.db, deadBefore, self)))]),
        ]),
      )
      .limit(limit)
      .execute();
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
