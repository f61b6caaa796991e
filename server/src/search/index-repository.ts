// The SQL of the index's upkeep (migration 033): which blobs need their text,
// the lease one instance takes to extract a blob, storing the text (SQLite:
// the FTS5 table; PostgreSQL: search_bodies, migration 047), counts,
// reindexing and the sweep of docs whose blob is gone.
//
// On PostgreSQL each step of a document is one statement (claim, store,
// settle): a round trip and a commit each, with no transaction around them.
import { sql } from 'kysely';
import { dialectOf, type Db } from '../db/database.js';

export type DocState = 'pending' | 'indexed' | 'failed' | 'skipped';

export interface Claimed {
  doc_id: number;
  blob_id: string;
  attempts: number;
}

export interface IndexCounts {
  indexed: number;
  pending: number;
  failed: number;
  skipped: number;
}

export class IndexRepository {
  private readonly sqlite: boolean;
  constructor(private readonly db: Db) {
    this.sqlite = dialectOf(db) === 'sqlite';
  }

  /**
   * Adds a pending doc for up to `limit` blobs of files (of these owners, or
   * anyone's) that have none: new uploads, overwrites, restored versions.
   * Answers how many were added.
   */
  async discover(now: number, limit: number, ownerIds?: readonly string[]): Promise<number> {
    if (ownerIds && ownerIds.length === 0) return 0;
    const owners = ownerIds ? sql`AND f.owner_id IN (${sql.join(ownerIds)})` : sql``;
    const res = await sql`
      INSERT INTO search_docs (blob_id, state, updated_at)
      SELECT DISTINCT f.blob_id, 'pending', CAST(${now} AS bigint) FROM files f
      WHERE f.kind = 1 AND f.blob_id IS NOT NULL ${owners}
        AND NOT EXISTS (SELECT 1 FROM search_docs d WHERE d.blob_id = f.blob_id)
      LIMIT ${limit}
      ON CONFLICT (blob_id) DO NOTHING`.execute(this.db);
    return Number(res.numAffectedRows ?? 0);
  }

  /** Takes the next pending doc whose lease (if any) ran out, for `leaseMs`; another instance skips it meanwhile. */
  async claim(now: number, leaseMs: number): Promise<Claimed | undefined> {
    if (!this.sqlite) {
      // One statement: the row is locked as it is chosen, and another instance skips it.
      const res = await sql<{ doc_id: number | string; blob_id: string; attempts: number | string }>`
        UPDATE search_docs SET lease_until = ${now + leaseMs}, attempts = attempts + 1
        WHERE doc_id = (
          SELECT doc_id FROM search_docs
          WHERE state = 'pending' AND (lease_until IS NULL OR lease_until < ${now})
          ORDER BY doc_id LIMIT 1 FOR UPDATE SKIP LOCKED
        )
        RETURNING doc_id, blob_id, attempts`.execute(this.db);
      const row = res.rows[0];
      return row ? { doc_id: Number(row.doc_id), blob_id: row.blob_id, attempts: Number(row.attempts) } : undefined;
    }
    for (let tries = 0; tries < 5; tries++) {
      const next = await this.db
        .selectFrom('search_docs')
        .select(['doc_id', 'blob_id', 'attempts'])
        .where('state', '=', 'pending')
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .orderBy('doc_id')
        .limit(1)
        .executeTakeFirst();
      if (!next) return undefined;
      const taken = await this.db
        .updateTable('search_docs')
        .set((eb) => ({ lease_until: now + leaseMs, attempts: eb('attempts', '+', 1) }))
        .where('doc_id', '=', next.doc_id)
        .where('state', '=', 'pending')
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 1) return { doc_id: Number(next.doc_id), blob_id: next.blob_id, attempts: Number(next.attempts) + 1 };
    }
    return undefined;
  }

  /** A live file with this content, for its name and type (any will do: copies share the blob). */
  fileOf(blobId: string): Promise<{ name: string; mime_type: string | null; size: number } | undefined> {
    return this.db.selectFrom('files').select(['name', 'mime_type', 'size']).where('blob_id', '=', blobId).where('kind', '=', 1).limit(1).executeTakeFirst();
  }

  /** Stores a doc's text (replacing any) and marks it indexed. */
  async store(docId: number, text: string, sourceBytes: number, now: number): Promise<void> {
    if (!this.sqlite) {
      await sql`
        WITH body AS (
          INSERT INTO search_bodies (doc_id, body, folded) SELECT ${docId}, t, lower(t) FROM (SELECT CAST(${text} AS text) AS t) x
          ON CONFLICT (doc_id) DO UPDATE SET body = EXCLUDED.body, folded = EXCLUDED.folded
        )
        UPDATE search_docs SET state = 'indexed', reason = NULL, lease_until = NULL, source_bytes = ${sourceBytes}, text_chars = ${text.length}, updated_at = ${now}
        WHERE doc_id = ${docId}`.execute(this.db);
      return;
    }
    await this.db.transaction().execute(async (tx) => {
      await sql`DELETE FROM search_text WHERE rowid = ${docId}`.execute(tx);
      await sql`INSERT INTO search_text (rowid, body) VALUES (${docId}, ${text})`.execute(tx);
      await tx
        .updateTable('search_docs')
        .set({ state: 'indexed', reason: null, lease_until: null, source_bytes: sourceBytes, text_chars: text.length, updated_at: now })
        .where('doc_id', '=', docId)
        .execute();
    });
  }

  /** Gives a claimed doc's lease back, uncounted (its extraction was cut short by a shutdown): the next run takes it again. */
  async release(docId: number): Promise<void> {
    await this.db
      .updateTable('search_docs')
      .set((eb) => ({ lease_until: null, attempts: eb('attempts', '-', 1) }))
      .where('doc_id', '=', docId)
      .where('state', '=', 'pending')
      .where('attempts', '>', 0)
      .execute();
  }

  /** Marks a doc failed (with why) or skipped (no extractor for its type); it keeps no text. */
  async settle(docId: number, state: 'failed' | 'skipped', reason: string, sourceBytes: number, now: number): Promise<void> {
    const set = { state, reason: reason.slice(0, 500), lease_until: null, source_bytes: sourceBytes, text_chars: 0, updated_at: now };
    if (!this.sqlite) {
      await sql`
        WITH gone AS (DELETE FROM search_bodies WHERE doc_id = ${docId})
        UPDATE search_docs SET state = ${set.state}, reason = ${set.reason}, lease_until = NULL, source_bytes = ${sourceBytes}, text_chars = 0, updated_at = ${now}
        WHERE doc_id = ${docId}`.execute(this.db);
      return;
    }
    await this.db.transaction().execute(async (tx) => {
      await sql`DELETE FROM search_text WHERE rowid = ${docId}`.execute(tx);
      await tx.updateTable('search_docs').set(set).where('doc_id', '=', docId).execute();
    });
  }

  async counts(): Promise<IndexCounts> {
    const rows = await this.db.selectFrom('search_docs').select(['state', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('state').execute();
    const out: IndexCounts = { indexed: 0, pending: 0, failed: 0, skipped: 0 };
    for (const r of rows) if (r.state in out) out[r.state as DocState] = Number(r.n);
    return out;
  }

  /** The failed docs, newest first, with a file name each (for the dashboard). */
  failures(limit: number): Promise<{ blob_id: string; reason: string | null; updated_at: number; name: string | null }[]> {
    return this.db
      .selectFrom('search_docs as d')
      .select(['d.blob_id', 'd.reason', 'd.updated_at', (eb) => eb.selectFrom('files').select('files.name').whereRef('files.blob_id', '=', 'd.blob_id').limit(1).as('name')])
      .where('d.state', '=', 'failed')
      .orderBy('d.updated_at', 'desc')
      .limit(limit)
      .execute();
  }

  /** Everything (or one owner's files) to be extracted again; the old text answers until the new replaces it. */
  async requeue(now: number, ownerId?: string): Promise<number> {
    const res = await this.db
      .updateTable('search_docs')
      .set({ state: 'pending', attempts: 0, lease_until: null, updated_at: now })
      .$if(ownerId !== undefined, (qb) => qb.where('blob_id', 'in', (eb) => eb.selectFrom('files').select('files.blob_id').where('files.owner_id', '=', ownerId!).where('files.blob_id', 'is not', null).$narrowType<{ blob_id: string }>()))
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  /** Removes up to `limit` docs whose blob no longer exists (its last file and version are gone). */
  async sweep(limit: number): Promise<number> {
    const gone = await this.db
      .selectFrom('search_docs as d')
      .select('d.doc_id')
      .where((eb) => eb.not(eb.exists(eb.selectFrom('blobs').select('blobs.id').whereRef('blobs.id', '=', 'd.blob_id'))))
      .limit(limit)
      .execute();
    if (gone.length === 0) return 0;
    const ids = gone.map((g) => Number(g.doc_id));
    await this.db.transaction().execute(async (tx) => {
      if (this.sqlite) await sql`DELETE FROM search_text WHERE rowid IN (${sql.join(ids)})`.execute(tx);
      else await tx.deleteFrom('search_bodies').where('doc_id', 'in', ids).execute();
      await tx.deleteFrom('search_docs').where('doc_id', 'in', ids).execute();
    });
    return ids.length;
  }

  /** Characters of text indexed and bytes of their sources (the benchmark's ratio). */
  async totals(): Promise<{ text_chars: number; source_bytes: number }> {
    const row = await this.db
      .selectFrom('search_docs')
      .select([(eb) => eb.fn.sum<number>('text_chars').as('t'), (eb) => eb.fn.sum<number>('source_bytes').as('s')])
      .where('state', '=', 'indexed')
      .executeTakeFirst();
    return { text_chars: Number(row?.t ?? 0), source_bytes: Number(row?.s ?? 0) };
  }
}
