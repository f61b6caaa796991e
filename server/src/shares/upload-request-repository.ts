// The only place with SQL for upload requests: the files sent through a link
// (share_uploads) and the uploads in flight that came through one. Methods
// that take an executor run in the caller's transaction (the upload service's,
// which holds the owner's tree lock).
import type { Kysely, Selectable } from 'kysely';
import type { Database, ShareUploadsTable, UploadsTable } from '../db/schema.js';

export type ShareUploadRow = Selectable<ShareUploadsTable>;
type Executor = Kysely<Database>;
type UploadRow = Selectable<UploadsTable>;

export interface ReceivedCursor {
  completedAt: number;
  id: string;
}

export class UploadRequestRepository {
  constructor(private readonly db: Executor) {}

  /** An upload in flight that came through this share. */
  findUpload(shareId: string, uploadId: string): Promise<UploadRow | undefined> {
    return this.db.selectFrom('uploads').selectAll().where('id', '=', uploadId).where('share_id', '=', shareId).executeTakeFirst();
  }

  /** The ids of the uploads in flight that came through this share. */
  async uploadIds(shareId: string): Promise<string[]> {
    return (await this.db.selectFrom('uploads').select('id').where('share_id', '=', shareId).execute()).map((r) => r.id);
  }

  /** The share's folder and limits, read in the caller's transaction. */
  shareOf(tx: Executor, shareId: string) {
    return tx.selectFrom('shares').select(['id', 'file_id', 'upload_only', 'max_files', 'max_file_size']).where('id', '=', shareId).executeTakeFirst();
  }

  /**
   * Forgets uploads that will never finish (cancelled or expired: their
   * upload row is gone and no file was placed), then counts the link's used
   * slots: files received plus uploads still in flight.
   */
  async usedSlots(tx: Executor, shareId: string): Promise<number> {
    await tx
      .deleteFrom('share_uploads')
      .where('share_id', '=', shareId)
      .where('completed_at', 'is', null)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('uploads').select('uploads.id').whereRef('uploads.id', '=', 'share_uploads.id'))))
      .execute();
    const row = await tx
      .selectFrom('share_uploads')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('share_id', '=', shareId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Files received plus uploads in flight (read only: what the public page says). */
  async slotsInUse(shareId: string): Promise<number> {
    const row = await this.db
      .selectFrom('share_uploads')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('share_id', '=', shareId)
      .where((eb) => eb.or([eb('completed_at', 'is not', null), eb.exists(eb.selectFrom('uploads').select('uploads.id').whereRef('uploads.id', '=', 'share_uploads.id'))]))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Bytes reserved and not yet received by the unexpired uploads in flight
   * through this link, and of those, the ones from `address` through any of
   * the owner's links (in the creation's transaction, under the owner's tree
   * lock, so parallel creations are counted one after the other).
   */
  async pendingBytes(tx: Executor, shareId: string, ownerId: string, address: string, now: number): Promise<{ link: number; address: number }> {
    const pending = (scope: 'link' | 'address') =>
      tx
        .selectFrom('uploads')
        .innerJoin('share_uploads', 'share_uploads.id', 'uploads.id')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>(eb('uploads.length', '-', eb.ref('uploads.upload_offset'))), eb.lit(0)).as('bytes'))
        .where('uploads.expires_at', '>=', now)
        .$if(scope === 'link', (q) => q.where('uploads.share_id', '=', shareId))
        .$if(scope === 'address', (q) => q.where('uploads.owner_id', '=', ownerId).where('share_uploads.address', '=', address))
        .executeTakeFirstOrThrow();
    const [link, fromAddress] = [await pending('link'), await pending('address')];
    return { link: Number(link.bytes), address: Number(fromAddress.bytes) };
  }

  /** The uploads in flight through this link, oldest first (the owner's view). */
  pending(shareId: string, limit: number) {
    return this.db
      .selectFrom('uploads')
      .innerJoin('share_uploads', 'share_uploads.id', 'uploads.id')
      .select(['uploads.id', 'share_uploads.name', 'share_uploads.uploader', 'uploads.length', 'uploads.upload_offset', 'uploads.created_at', 'uploads.expires_at'])
      .where('uploads.share_id', '=', shareId)
      .orderBy('uploads.created_at')
      .orderBy('uploads.id')
      .limit(limit)
      .execute();
  }

  async insert(tx: Executor, row: ShareUploadRow): Promise<void> {
    await tx.insertInto('share_uploads').values(row).execute();
  }

  /** Marks the upload arrived; answers the name its uploader gave (null: none). */
  async markReceived(tx: Executor, id: string, file: { id: string; name: string; size: number }, now: number): Promise<string | null> {
    const row = await tx
      .updateTable('share_uploads')
      .set({ file_id: file.id, name: file.name, size: file.size, completed_at: now, address: null })
      .where('id', '=', id)
      .returning('uploader')
      .executeTakeFirst();
    return row?.uploader ?? null;
  }

  /** Received files, newest first, strictly after `after`. */
  received(shareId: string, after: ReceivedCursor | null, limit: number): Promise<ShareUploadRow[]> {
    return this.db
      .selectFrom('share_uploads')
      .selectAll()
      .where('share_id', '=', shareId)
      .where('completed_at', 'is not', null)
      .$if(after !== null, (q) => q.where((eb) => eb(eb.refTuple('completed_at', 'id'), '<', eb.tuple(after!.completedAt, after!.id))))
      .orderBy('completed_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /** How many files each share received (for the owner's share views). */
  async receivedCounts(shareIds: readonly string[]): Promise<Map<string, number>> {
    if (shareIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('share_uploads')
      .select(['share_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('share_id', 'in', shareIds)
      .where('completed_at', 'is not', null)
      .groupBy('share_id')
      .execute();
    return new Map(rows.map((r) => [r.share_id, Number(r.n)]));
  }

  /** Received files no notice mail covered yet (oldest first). */
  unnotified(limit: number): Promise<ShareUploadRow[]> {
    return this.db
      .selectFrom('share_uploads')
      .selectAll()
      .where('notified_at', 'is', null)
      .where('completed_at', 'is not', null)
      .orderBy('completed_at')
      .limit(limit)
      .execute();
  }

  /** Claims rows for one notice (compare-and-set: two instances never both mail the same file); the ids actually claimed. */
  async claimNotice(ids: readonly string[], now: number): Promise<string[]> {
    if (ids.length === 0) return [];
    const claimed: string[] = [];
    for (const id of ids) {
      const res = await this.db.updateTable('share_uploads').set({ notified_at: now }).where('id', '=', id).where('notified_at', 'is', null).executeTakeFirst();
      if (Number(res.numUpdatedRows) === 1) claimed.push(id);
    }
    return claimed;
  }
}
