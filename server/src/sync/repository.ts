// The only SQL of the sync-client feature (migration 031): folder tags folded
// from the change feed, the checksums clients sent, chunked uploads in
// progress (transfers and their chunks), and the devices behind WebDAV accounts. Files and the feed are reached through their services.
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

const BATCH = 400;

export interface TagHead {
  applied: number;
  floor: number;
}

export interface FolderTag {
  path: string;
  seq: number;
  stamp: number;
}

export interface TransferRow {
  id: string;
  user_id: string;
  name: string;
  total_length: number | null;
  destination: string | null;
  created_at: number;
  updated_at: number;
  /** The spool (an uploads row of kind 'spool') its chunks are appended to; null until the first is. */
  spool_id: string | null;
}

export interface ChunkRow {
  transfer_id: string;
  name: string;
  size: number;
  /** The chunk's own object; for a chunk in the spool, only its identity. */
  storage_key: string;
  created_at: number;
  /** Where the chunk starts in the transfer's spool; null when it is an object of its own. */
  spool_offset: number | null;
}

function toTransfer(r: TransferRow): TransferRow {
  return { ...r, total_length: r.total_length === null ? null : Number(r.total_length), created_at: Number(r.created_at), updated_at: Number(r.updated_at) };
}

function toChunk(r: ChunkRow): ChunkRow {
  return { ...r, size: Number(r.size), created_at: Number(r.created_at), spool_offset: r.spool_offset === null ? null : Number(r.spool_offset) };
}

export class SyncRepository {
  constructor(private readonly db: Db) {}

  // ---- folder tags ----

  async tagHead(userId: string): Promise<TagHead | undefined> {
    const row = await this.db.selectFrom('sync_tag_heads').select(['applied_seq', 'floor_seq']).where('user_id', '=', userId).executeTakeFirst();
    return row ? { applied: Number(row.applied_seq), floor: Number(row.floor_seq) } : undefined;
  }

  /** Starts a person's tags at `seq` (a no-op when another request did first). */
  async startTags(userId: string, seq: number): Promise<void> {
    await this.db.insertInto('sync_tag_heads').values({ user_id: userId, applied_seq: seq, floor_seq: seq }).onConflict((oc) => oc.column('user_id').doNothing()).execute();
  }

  /**
   * Records folded tags and moves the head forward, in one transaction. Values
   * only grow (max), so two instances folding the same events agree.
   */
  async foldTags(userId: string, tags: readonly FolderTag[], head: TagHead): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      for (let i = 0; i < tags.length; i += BATCH) {
        const values = tags.slice(i, i + BATCH).map((t) => ({ user_id: userId, path: t.path, seq: t.seq, stamp: t.stamp }));
        await tx
          .insertInto('sync_folder_tags')
          .values(values)
          .onConflict((oc) =>
            oc.columns(['user_id', 'path']).doUpdateSet({
              seq: sql`CASE WHEN excluded.seq > sync_folder_tags.seq THEN excluded.seq ELSE sync_folder_tags.seq END`,
              stamp: sql`CASE WHEN excluded.stamp > sync_folder_tags.stamp THEN excluded.stamp ELSE sync_folder_tags.stamp END`,
            }),
          )
          .execute();
      }
      await tx
        .updateTable('sync_tag_heads')
        .set({
          applied_seq: sql`CASE WHEN applied_seq > ${head.applied} THEN applied_seq ELSE ${head.applied} END`,
          floor_seq: sql`CASE WHEN floor_seq > ${head.floor} THEN floor_seq ELSE ${head.floor} END`,
        })
        .where('user_id', '=', userId)
        .execute();
    });
  }

  async tags(userId: string, paths: readonly string[]): Promise<FolderTag[]> {
    const out: FolderTag[] = [];
    for (let i = 0; i < paths.length; i += BATCH) {
      const rows = await this.db.selectFrom('sync_folder_tags').select(['path', 'seq', 'stamp']).where('user_id', '=', userId).where('path', 'in', paths.slice(i, i + BATCH)).execute();
      for (const r of rows) out.push({ path: r.path, seq: Number(r.seq), stamp: Number(r.stamp) });
    }
    return out;
  }

  // ---- checksums ----

  async checksums(blobIds: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (let i = 0; i < blobIds.length; i += BATCH) {
      const rows = await this.db.selectFrom('sync_checksums').select(['blob_id', 'checksum']).where('blob_id', 'in', blobIds.slice(i, i + BATCH)).execute();
      for (const r of rows) out.set(r.blob_id, r.checksum);
    }
    return out;
  }

  async recordChecksum(blobId: string, checksum: string): Promise<void> {
    await this.db.insertInto('sync_checksums').values({ blob_id: blobId, checksum }).onConflict((oc) => oc.column('blob_id').doNothing()).execute();
  }

  // ---- chunked uploads ----

  async transfer(userId: string, name: string): Promise<TransferRow | undefined> {
    const row = await this.db.selectFrom('sync_transfers').selectAll().where('user_id', '=', userId).where('name', '=', name).executeTakeFirst();
    return row && toTransfer(row);
  }

  /** False when the person already has a transfer of that name. */
  async createTransfer(row: TransferRow): Promise<boolean> {
    const res = await this.db.insertInto('sync_transfers').values(row).onConflict((oc) => oc.columns(['user_id', 'name']).doNothing()).executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  async chunks(transferId: string): Promise<ChunkRow[]> {
    const rows = await this.db.selectFrom('sync_chunks').selectAll().where('transfer_id', '=', transferId).execute();
    return rows.map(toChunk);
  }

  /** Names the transfer's spool; false when it has one already (another request's) or is gone. */
  async setSpool(transferId: string, spoolId: string): Promise<boolean> {
    const res = await this.db.updateTable('sync_transfers').set({ spool_id: spoolId }).where('id', '=', transferId).where('spool_id', 'is', null).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async spoolOf(transferId: string): Promise<string | null> {
    const row = await this.db.selectFrom('sync_transfers').select('spool_id').where('id', '=', transferId).executeTakeFirst();
    return row?.spool_id ?? null;
  }

  /**
   * Records a stored chunk; resolves with the one it replaced (same name), whose
   * bytes the caller deletes. Undefined `replaced` and false `ok` when the
   * transfer is gone (the caller deletes the new bytes).
   */
  async putChunk(row: ChunkRow): Promise<{ ok: boolean; replaced?: ChunkRow }> {
    return this.db.transaction().execute(async (tx) => {
      const transfer = await tx.selectFrom('sync_transfers').select('id').where('id', '=', row.transfer_id).executeTakeFirst();
      if (!transfer) return { ok: false };
      const old = await tx.selectFrom('sync_chunks').selectAll().where('transfer_id', '=', row.transfer_id).where('name', '=', row.name).executeTakeFirst();
      if (old) await tx.deleteFrom('sync_chunks').where('transfer_id', '=', row.transfer_id).where('name', '=', row.name).execute();
      await tx.insertInto('sync_chunks').values(row).execute();
      await tx.updateTable('sync_transfers').set({ updated_at: row.created_at }).where('id', '=', row.transfer_id).execute();
      return { ok: true, replaced: old ? toChunk(old) : undefined };
    });
  }

  /** Deletes a chunk; resolves with it (its bytes are the caller's to delete), undefined when there was none. */
  async deleteChunk(transferId: string, name: string): Promise<ChunkRow | undefined> {
    return this.db.transaction().execute(async (tx) => {
      const old = await tx.selectFrom('sync_chunks').selectAll().where('transfer_id', '=', transferId).where('name', '=', name).executeTakeFirst();
      if (!old) return undefined;
      await tx.deleteFrom('sync_chunks').where('transfer_id', '=', transferId).where('name', '=', name).execute();
      return toChunk(old);
    });
  }

  /**
   * Deletes a transfer and its chunks; resolves with the chunks it had and its
   * spool (undefined when another request deleted it first).
   */
  async deleteTransfer(id: string): Promise<{ chunks: ChunkRow[]; spoolId: string | null } | undefined> {
    return this.db.transaction().execute(async (tx) => {
      const chunks = await tx.selectFrom('sync_chunks').selectAll().where('transfer_id', '=', id).execute();
      const res = await tx.deleteFrom('sync_transfers').where('id', '=', id).returning('spool_id').executeTakeFirst();
      if (!res) return undefined;
      await tx.deleteFrom('sync_chunks').where('transfer_id', '=', id).execute();
      return { chunks: chunks.map(toChunk), spoolId: res.spool_id };
    });
  }

  async idleTransfers(before: number, limit: number): Promise<TransferRow[]> {
    const rows = await this.db.selectFrom('sync_transfers').selectAll().where('updated_at', '<', before).limit(limit).execute();
    return rows.map(toTransfer);
  }

  async transfersOf(userId: string): Promise<TransferRow[]> {
    const rows = await this.db.selectFrom('sync_transfers').selectAll().where('user_id', '=', userId).execute();
    return rows.map(toTransfer);
  }

  // ---- numeric file ids (migration 042) ----

  /** The numbers of these items, assigning one to each item without (an id that is no item gets none). */
  async fileNumbers(fileIds: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (let i = 0; i < fileIds.length; i += BATCH) {
      const ids = fileIds.slice(i, i + BATCH);
      await this.readNumbers(ids, out);
      const missing = ids.filter((id) => !out.has(id));
      if (!missing.length) continue;
      // Only ids of rows that exist: an item deleted meanwhile gets no number rather than a foreign-key error.
      const made = await this.db
        .insertInto('sync_file_numbers')
        .columns(['file_id'])
        .expression((eb) => eb.selectFrom('files').select('id').where('id', 'in', missing))
        .onConflict((oc) => oc.column('file_id').doNothing())
        .returning(['file_id', 'number'])
        .execute()
        .catch(() => []);
      for (const r of made) out.set(r.file_id, Number(r.number));
      // Numbered by a parallel request meanwhile (the insert did nothing for those): read theirs.
      const raced = missing.filter((id) => !out.has(id));
      if (raced.length) await this.readNumbers(raced, out);
    }
    return out;
  }

  private async readNumbers(ids: readonly string[], out: Map<string, number>): Promise<void> {
    const rows = await this.db.selectFrom('sync_file_numbers').select(['file_id', 'number']).where('file_id', 'in', ids).execute();
    for (const r of rows) out.set(r.file_id, Number(r.number));
  }

  /** The item of a number a client sent back; undefined when there is none. */
  async fileOfNumber(number: number): Promise<string | undefined> {
    const row = await this.db.selectFrom('sync_file_numbers').select('file_id').where('number', '=', number).executeTakeFirst();
    return row?.file_id;
  }

  /** The numbers of these links' and grants' ids (assigned now for the ones seen for the first time). */
  async shareNumbers(shareIds: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const read = async (ids: readonly string[]) => {
      const rows = await this.db.selectFrom('sync_share_numbers').select(['share_id', 'number']).where('share_id', 'in', ids).execute();
      for (const r of rows) out.set(r.share_id, Number(r.number));
    };
    for (let i = 0; i < shareIds.length; i += BATCH) {
      const ids = [...new Set(shareIds.slice(i, i + BATCH))];
      await read(ids);
      const missing = ids.filter((id) => !out.has(id));
      if (!missing.length) continue;
      await this.db
        .insertInto('sync_share_numbers')
        .values(missing.map((share_id) => ({ share_id })))
        .onConflict((oc) => oc.column('share_id').doNothing())
        .execute();
      await read(missing);
    }
    return out;
  }

  /** The link's or grant's id of a number a client sent back; undefined when there is none. */
  async shareOfNumber(number: number): Promise<string | undefined> {
    const row = await this.db.selectFrom('sync_share_numbers').select('share_id').where('number', '=', number).executeTakeFirst();
    return row?.share_id;
  }

  // ---- devices ----

  async seen(accountId: string, userAgent: string, at: number): Promise<void> {
    await this.db
      .insertInto('sync_devices')
      .values({ account_id: accountId, user_agent: userAgent, last_seen_at: at })
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ user_agent: userAgent, last_seen_at: at }))
      .execute();
  }

  async devices(accountIds: readonly string[]): Promise<Map<string, { user_agent: string; last_seen_at: number }>> {
    const out = new Map<string, { user_agent: string; last_seen_at: number }>();
    for (let i = 0; i < accountIds.length; i += BATCH) {
      const rows = await this.db.selectFrom('sync_devices').selectAll().where('account_id', 'in', accountIds.slice(i, i + BATCH)).execute();
      for (const r of rows) out.set(r.account_id, { user_agent: r.user_agent, last_seen_at: Number(r.last_seen_at) });
    }
    return out;
  }
}

// ---- login flows (Login Flow v2 / v1) ----

export interface LoginFlowRow {
  id: string;
  poll_hash: string;
  client_name: string;
  created_at: number;
  expires_at: number;
  user_id: string | null;
  login_name: string | null;
  /**
   * Before the grant: `pk:<X25519 public key>`, derived from the poll token;
   * after it: `box:<the app password sealed to that key>` (login-flows.ts).
   */
  sealed_password: string | null;
}

function toFlow(r: LoginFlowRow): LoginFlowRow {
  return { ...r, created_at: Number(r.created_at), expires_at: Number(r.expires_at) };
}

export class LoginFlowRepository {
  constructor(private readonly db: Db) {}

  async insert(row: LoginFlowRow): Promise<void> {
    await this.db.insertInto('sync_login_flows').values(row).execute();
  }

  async find(id: string): Promise<LoginFlowRow | undefined> {
    const row = await this.db.selectFrom('sync_login_flows').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toFlow(row);
  }

  async findByPollHash(hash: string): Promise<LoginFlowRow | undefined> {
    const row = await this.db.selectFrom('sync_login_flows').selectAll().where('poll_hash', '=', hash).executeTakeFirst();
    return row && toFlow(row);
  }

  /** Records the grant, only while the flow is still open (not granted, cancelled or expired); false otherwise. */
  async grant(id: string, userId: string, loginName: string, sealed: string, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('sync_login_flows')
      .set({ user_id: userId, login_name: loginName, sealed_password: sealed })
      .where('id', '=', id)
      .where('user_id', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Takes a granted flow away (its single poll); false when another poll or a cancel took it first. */
  async take(id: string): Promise<boolean> {
    const res = await this.db.deleteFrom('sync_login_flows').where('id', '=', id).where('user_id', 'is not', null).executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }

  /** Ends a flow that is not granted yet; false when there was none. */
  async cancel(id: string): Promise<boolean> {
    const res = await this.db.deleteFrom('sync_login_flows').where('id', '=', id).where('user_id', 'is', null).executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }

  async sweep(now: number): Promise<void> {
    await this.db.deleteFrom('sync_login_flows').where('expires_at', '<=', now).execute();
  }
}
