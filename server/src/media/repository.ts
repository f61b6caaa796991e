// The SQL of media (migration 038): which blobs still need their thumbnail and
// metadata, the lease one instance takes to make them, what was learnt, the
// counts for the admin status, and the photo listing.
import { sql } from 'kysely';
import { dialectOf, type Db } from '../db/database.js';
import type { MediaInfo } from './generators.js';

export type MediaState = 'pending' | 'done' | 'failed' | 'skipped' | 'off';

/** MIME types the discovery looks at (mediaKindOf answers for each). */
export const MEDIA_MIMES = [
  'image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/tiff', 'image/bmp',
  'image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence',
  'video/mp4', 'video/quicktime', 'video/webm', 'video/x-matroska', 'video/x-msvideo',
  'audio/mpeg', 'audio/mp4', 'audio/flac', 'audio/ogg', 'audio/opus', 'audio/wav', 'audio/x-wav', 'audio/aac',
  'application/pdf',
];

/** What the photo listing shows: pictures and videos. */
const PHOTO_MIMES = MEDIA_MIMES.filter((m) => m.startsWith('image/') || m.startsWith('video/'));

export interface MediaRow {
  blob_id: string;
  state: string;
  reason: string | null;
  kind: string | null;
  has_thumb: number;
  meta: string | null;
}

export interface PhotoRow {
  id: string;
  blob_id: string;
  name: string;
  mime_type: string | null;
  size: number;
  created_at: number;
  taken_at: number | null;
  sort_at: number;
  lat: number | null;
  lon: number | null;
  meta: string | null;
}

export class MediaRepository {
  private readonly sqlite: boolean;
  constructor(private readonly db: Db) {
    this.sqlite = dialectOf(db) === 'sqlite';
  }

  /**
   * `f.owner_id = ?` for the photo queries. On SQLite with a unary plus, which
   * keeps the planner from answering it with files_owner_trash_idx: each
   * media row must find its files by blob (files_blob_idx), not scan the
   * owner's files once per row.
   */
  private ownedBy(ownerId: string) {
    return this.sqlite ? sql<boolean>`+f.owner_id = ${ownerId}` : sql<boolean>`f.owner_id = ${ownerId}`;
  }

  /** Adds a pending row for up to `limit` blobs of media files that have none; answers how many. */
  async discover(now: number, limit: number, ownerIds?: readonly string[]): Promise<number> {
    if (ownerIds && ownerIds.length === 0) return 0;
    const owners = ownerIds ? sql`AND f.owner_id IN (${sql.join(ownerIds)})` : sql``;
    const res = await sql`
      INSERT INTO media_items (blob_id, state, updated_at, sort_at)
      SELECT DISTINCT f.blob_id, 'pending', CAST(${now} AS bigint), COALESCE((SELECT b.created_at FROM blobs b WHERE b.id = f.blob_id), CAST(${now} AS bigint)) FROM files f
      WHERE f.kind = 1 AND f.blob_id IS NOT NULL AND f.size > 0 AND f.mime_type IN (${sql.join(MEDIA_MIMES)}) ${owners}
        AND NOT EXISTS (SELECT 1 FROM media_items m WHERE m.blob_id = f.blob_id)
      LIMIT ${limit}
      ON CONFLICT (blob_id) DO NOTHING`.execute(this.db);
    return Number(res.numAffectedRows ?? 0);
  }

  /** A pending row for this blob (on-demand path); no change when it has one. */
  async ensure(blobId: string, now: number): Promise<void> {
    await this.db.insertInto('media_items').values({ blob_id: blobId, state: 'pending', updated_at: now, sort_at: now }).onConflict((oc) => oc.column('blob_id').doNothing()).execute();
  }

  /** Takes the next pending row whose lease (if any) ran out, or this blob's when given. */
  async claim(now: number, leaseMs: number, blobId?: string): Promise<{ blob_id: string; attempts: number } | undefined> {
    for (let tries = 0; tries < 5; tries++) {
      const next = await this.db
        .selectFrom('media_items')
        .select(['blob_id', 'attempts'])
        .where('state', '=', 'pending')
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .$if(blobId !== undefined, (qb) => qb.where('blob_id', '=', blobId!))
        .orderBy('updated_at')
        .limit(1)
        .executeTakeFirst();
      if (!next) return undefined;
      const taken = await this.db
        .updateTable('media_items')
        .set((eb) => ({ lease_until: now + leaseMs, attempts: eb('attempts', '+', 1) }))
        .where('blob_id', '=', next.blob_id)
        .where('state', '=', 'pending')
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 1) return { blob_id: next.blob_id, attempts: Number(next.attempts) + 1 };
    }
    return undefined;
  }

  /** A live file with this content, for its type and size (copies share the blob). */
  fileOf(blobId: string): Promise<{ mime_type: string | null; size: number } | undefined> {
    return this.db.selectFrom('files').select(['mime_type', 'size']).where('blob_id', '=', blobId).where('kind', '=', 1).limit(1).executeTakeFirst();
  }

  get(blobId: string): Promise<MediaRow | undefined> {
    return this.db.selectFrom('media_items').select(['blob_id', 'state', 'reason', 'kind', 'has_thumb', 'meta']).where('blob_id', '=', blobId).executeTakeFirst();
  }

  async settle(blobId: string, state: MediaState, fields: { kind?: string | null; reason?: string | null; hasThumb?: boolean; media?: MediaInfo | null }, now: number): Promise<void> {
    const media = fields.media && Object.keys(fields.media).length > 0 ? fields.media : null;
    const takenAt = media?.taken_at ? Date.parse(media.taken_at) : NaN;
    await this.db
      .updateTable('media_items')
      .set({
        state,
        reason: fields.reason ? fields.reason.slice(0, 500) : null,
        kind: fields.kind ?? null,
        has_thumb: fields.hasThumb ? 1 : 0,
        meta: media ? JSON.stringify(media) : null,
        taken_at: Number.isFinite(takenAt) ? takenAt : null,
        ...(Number.isFinite(takenAt) ? { sort_at: takenAt } : {}),
        lat: media?.gps?.lat ?? null,
        lon: media?.gps?.lon ?? null,
        lease_until: null,
        updated_at: now,
      })
      .where('blob_id', '=', blobId)
      .execute();
  }

  /** Rows of a kind whose tool was missing, to be made again now that it is there. */
  async requeueOff(kinds: readonly string[], now: number): Promise<number> {
    if (kinds.length === 0) return 0;
    const res = await this.db.updateTable('media_items').set({ state: 'pending', attempts: 0, lease_until: null, updated_at: now }).where('state', '=', 'off').where('kind', 'in', [...kinds]).executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  async counts(): Promise<Record<MediaState, number>> {
    const rows = await this.db.selectFrom('media_items').select(['state', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('state').execute();
    const out: Record<MediaState, number> = { pending: 0, done: 0, failed: 0, skipped: 0, off: 0 };
    for (const r of rows) if (r.state in out) out[r.state as MediaState] = Number(r.n);
    return out;
  }

  /** Removes up to `limit` rows whose blob no longer exists; answers their ids (their cached thumbnails go too). */
  async sweep(limit: number): Promise<string[]> {
    const gone = await this.db
      .selectFrom('media_items as m')
      .select('m.blob_id')
      .where((eb) => eb.not(eb.exists(eb.selectFrom('blobs').select('blobs.id').whereRef('blobs.id', '=', 'm.blob_id'))))
      .limit(limit)
      .execute();
    const ids = gone.map((g) => g.blob_id);
    if (ids.length > 0) await this.db.deleteFrom('media_items').where('blob_id', 'in', ids).execute();
    return ids;
  }

  /**
   * One owner's pictures and videos, newest taken first (content without a
   * date taken sorts by when it was first stored), after the keyset
   * (sort_at, blob_id, id). Walks media_items_sort_idx (sort_at, blob_id)
   * newest first and looks up each blob's files, so a page costs about its
   * size, not the library's. The blob is the tie-breaker after the date so
   * that the index gives the order: with the file id there, every item of
   * one date had to be read and sorted first (2,000 undated items stored in
   * one batch share a sort_at: 2,001 rows read for a page of 200 on
   * PostgreSQL, an incremental sort of them).
   */
  photos(ownerId: string, limit: number, after?: { sortAt: number; blobId: string; id: string }): Promise<PhotoRow[]> {
    return this.db
      .selectFrom('media_items as m')
      // CROSS JOIN: SQLite keeps media_items as the outer loop (its planner would otherwise read all the owner's
      // files and sort them); PostgreSQL plans it as the inner join it is.
      .crossJoin('files as f')
      .whereRef('f.blob_id', '=', 'm.blob_id')
      .select(['f.id', 'f.name', 'f.mime_type', 'f.size', 'f.created_at', 'm.blob_id', 'm.taken_at', 'm.sort_at', 'm.lat', 'm.lon', 'm.meta'])
      .where(this.ownedBy(ownerId))
      .where('f.kind', '=', 1)
      .where('f.trashed_at', 'is', null)
      .where('f.mime_type', 'in', PHOTO_MIMES)
      .$if(after !== undefined, (qb) =>
        qb
          // The bound alone, which the index can seek to; the exact keyset below.
          .where('m.sort_at', '<=', after!.sortAt)
          .where((eb) =>
            eb.or([
              eb('m.sort_at', '<', after!.sortAt),
              eb.and([eb('m.sort_at', '=', after!.sortAt), eb.or([eb('m.blob_id', '<', after!.blobId), eb.and([eb('m.blob_id', '=', after!.blobId), eb('f.id', '<', after!.id)])])]),
            ]),
          ),
      )
      .orderBy('m.sort_at', 'desc')
      .orderBy('m.blob_id', 'desc')
      .orderBy('f.id', 'desc')
      .limit(limit)
      .execute();
  }

  /**
   * How many pictures and videos the listing of `ownerId` holds, at most: the
   * owner's live picture and video files, an index-only range scan of
   * files_owner_kind_mime_idx (migration 045). Not joined with media_items
   * (that join read every row: 178 ms at 20,000 photos on PostgreSQL), so a
   * file the media job has not seen yet (seconds after its upload) is
   * counted, as is one inside a trashed folder (its own row is not trashed):
   * the listing leaves both out.
   */
  async photoCount(ownerId: string): Promise<number> {
    const row = await this.db
      .selectFrom('files as f')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .where('f.owner_id', '=', ownerId)
      .where('f.kind', '=', 1)
      .where('f.trashed_at', 'is', null)
      .where('f.mime_type', 'in', PHOTO_MIMES)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** One owner's geotagged pictures and videos (for a map), at most `limit`. */
  places(ownerId: string, limit: number): Promise<{ id: string; lat: number | null; lon: number | null }[]> {
    return this.db
      .selectFrom('media_items as m')
      .crossJoin('files as f')
      .whereRef('f.blob_id', '=', 'm.blob_id')
      .select(['f.id', 'm.lat', 'm.lon'])
      .where(this.ownedBy(ownerId))
      .where('f.kind', '=', 1)
      .where('f.trashed_at', 'is', null)
      .where('m.lat', 'is not', null)
      .where('m.lon', 'is not', null)
      .orderBy('f.id')
      .limit(limit)
      .execute();
  }
}
