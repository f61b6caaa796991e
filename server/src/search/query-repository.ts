// The SQL of content search: the docs whose text holds every included term
// and no excluded one, joined to the live files with that content that the
// person may read now, at the paths they use, one keyset page at a time.
//
// The permission filter is part of the query (issue 35): from each matching
// file the walk goes up its parents until it meets a root the person reaches
// (their own tree's root, a shared item, a team folder). A file in the trash,
// or under a trashed folder, has an ancestor with no parent (trashing detaches
// the top item) and never meets one; a revoked grant is no longer a root. So
// moves, trash and revocations change results without touching the index.
//
// Terms reach the database only as bound values: SQLite FTS5 gets each one as
// a quoted string ("" doubled), so OR, NEAR, * or a stray quote are text to
// find; LIKE patterns escape %, _ and \.
import { sql, type RawBuilder, type Selectable } from 'kysely';
import { dialectOf, type Db } from '../db/database.js';
import type { FilesTable } from '../db/schema.js';
import type { ParsedQuery } from './query.js';

/** FTS5's trigram index answers terms of 3+ characters; shorter ones are found by LIKE over the text. */
const TRIGRAM = 3;

/** indexing_pending counts up to this many files ("more than enough to say still indexing"). */
export const PENDING_CAP = 1000;
/** Content written this recently without a doc counts as pending (the indexer discovers a write within moments). */
const DISCOVERY_WINDOW_MS = 120_000;
/** PostgreSQL: files tested in name order to tell a common word (at least COMMON of them match) from a rare one. */
const SAMPLE = 64;
const COMMON = 0.25;

export type Hit = Selectable<FilesTable> & { doc_id: number; via: string; suffix: string };

function likeContains(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function ftsString(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

export class QueryRepository {
  private readonly sqlite: boolean;
  constructor(private readonly db: Db) {
    this.sqlite = dialectOf(db) === 'sqlite';
  }

  /** PostgreSQL: the conditions on a search_bodies row that `q` matches. */
  private bodyConds(q: ParsedQuery, folded = sql.ref('folded')): RawBuilder<unknown> {
    // lower() on the pattern too: the same folding as the stored text (the terms come lower-cased by JavaScript's rules).
    const conds = [
      ...q.include.map((t) => sql`${folded} LIKE lower(${likeContains(t)}) ESCAPE '\\'`),
      ...q.exclude.map((t) => sql`${folded} NOT LIKE lower(${likeContains(t)}) ESCAPE '\\'`),
    ];
    return sql.join(conds, sql` AND `);
  }

  /** The doc ids whose text matches `q` (which has at least one included term), as a subquery. */
  private matchingDocs(q: ParsedQuery): RawBuilder<unknown> {
    // PostgreSQL: a doc has a body while it has text (a requeued one keeps its old text until the new replaces it, as on SQLite).
    if (!this.sqlite) return sql`SELECT doc_id FROM search_bodies WHERE ${this.bodyConds(q)}`;
    const long = q.include.filter((t) => [...t].length >= TRIGRAM);
    const short = q.include.filter((t) => [...t].length < TRIGRAM);
    const conds: RawBuilder<unknown>[] = [];
    if (long.length > 0) conds.push(sql`search_text MATCH ${long.map(ftsString).join(' AND ')}`);
    for (const t of short) conds.push(sql`body LIKE ${likeContains(t)} ESCAPE '\\'`);
    for (const t of q.exclude) {
      conds.push([...t].length >= TRIGRAM
        ? sql`rowid NOT IN (SELECT rowid FROM search_text WHERE search_text MATCH ${ftsString(t)})`
        : sql`body NOT LIKE ${likeContains(t)} ESCAPE '\\'`);
    }
    return sql`SELECT rowid FROM search_text WHERE ${sql.join(conds, sql` AND `)}`;
  }

  /**
   * Up to `limit` files the person may read whose content matches, in name
   * then id order after `after`. `roots` are the ids of the other trees' items
   * they reach; their own root is found here. Each hit says through which root
   * (`via`) and by which names below it (`suffix`, "/a/b.txt") it was reached;
   * a file reached through two roots comes once per root.
   *
   * The walk up to a root is the costly part, so it runs only for candidates
   * in page order, a batch at a time: a word found in every document costs a
   * sort of the matches and one page of walks, not a walk per match (issue 35:
   * 20 s at 10,000 documents before). A batch whose candidates are mostly out
   * of reach (under a trashed folder) is followed by one twice as large, so
   * the worst case stays near one walk of every match.
   */
  async search(ownerId: string, roots: readonly string[], q: ParsedQuery, after: { name: string; id: string } | null, limit: number): Promise<Hit[]> {
    if (q.include.length === 0) return [];
    if (!this.sqlite) {
      const scanned = await this.common(ownerId, roots, q, after, limit);
      if (scanned) return scanned;
    }
    const out: Hit[] = [];
    const files = new Set<string>();
    let cursor = after;
    for (let batch = Math.max(2 * limit, 64); ; batch *= 2) {
      const rows = await this.batch(ownerId, roots, q, cursor, batch);
      const candidates = new Set<string>();
      for (const r of rows) {
        candidates.add(r.id);
        if (r.via === null || (files.size >= limit && !files.has(r.id))) continue;
        files.add(r.id);
        out.push({ ...r, via: r.via, suffix: r.suffix ?? '', doc_id: Number(r.doc_id) });
      }
      if (files.size >= limit || candidates.size < batch) return out;
      const last = rows[rows.length - 1]!;
      cursor = { name: last.name, id: last.id };
    }
  }

  /**
   * PostgreSQL, a query that matches a good part of the documents (a common
   * word): the page is found by testing the person's files in name order
   * until it is full, not by matching every document and sorting them all
   * (the index answers "which documents may hold these trigrams"; every one
   * must then be read to be sure: 6,000 texts for a word in 60 % of them,
   * most of such a search). A sample of SAMPLE files in name order tells
   * whether the word is common; if it is, one scan of about the files a page
   * needs answers; if not (or the scan falls short), undefined: the index
   * then answers. SQLite is not asked: FTS5 answers a common word from its
   * own lists (6,000 matches in ~7 ms), while testing files one at a time
   * costs it more per file.
   */
  private async common(ownerId: string, roots: readonly string[], q: ParsedQuery, after: { name: string; id: string } | null, limit: number): Promise<Hit[] | undefined> {
    const take = (rows: Awaited<ReturnType<QueryRepository['batch']>>): { hits: Hit[]; reachable: number } => {
      const hits: Hit[] = [];
      const files = new Set<string>();
      for (const r of rows) {
        if (r.via === null || (files.size >= limit && !files.has(r.id))) continue;
        files.add(r.id);
        hits.push({ ...r, via: r.via, suffix: r.suffix ?? '', doc_id: Number(r.doc_id) });
      }
      return { hits, reachable: files.size };
    };
    const sample = await this.batch(ownerId, roots, q, after, SAMPLE, SAMPLE);
    const matched = new Set(sample.map((r) => r.id)).size;
    const first = take(sample);
    if (first.reachable >= limit) return first.hits;
    // Fewer files than the sample: every one was tested.
    if (sample.length > 0 && Number(sample[0]!.scanned) < SAMPLE) return first.hits;
    if (matched < SAMPLE * COMMON) return undefined;
    const scan = Math.ceil((limit * SAMPLE * 1.5) / matched) + SAMPLE;
    const rows = await this.batch(ownerId, roots, q, after, scan, scan);
    const all = take(rows);
    if (all.reachable >= limit || (rows.length > 0 && Number(rows[0]!.scanned) < scan)) return all.hits;
    return undefined;
  }

  /**
   * The next `batch` matching live files after `after` in name order (of
   * the trees the person reaches: their own and the owners of their roots),
   * each with the root it reaches (`via` null when it reaches none).
   */
  private async batch(ownerId: string, roots: readonly string[], q: ParsedQuery, after: { name: string; id: string } | null, batch: number, scan?: number) {
    const extraRoots = roots.length > 0 ? sql`UNION ALL SELECT id FROM files WHERE id IN (${sql.join(roots)})` : sql``;
    const keyset = after ? sql`AND (f.name > ${after.name} OR (f.name = ${after.name} AND f.id > ${after.id}))` : sql``;
    const empty = this.sqlite ? sql`''` : sql`CAST('' AS text) COLLATE "C"`;
    const live = sql`f.kind = 1 AND f.trashed_at IS NULL AND f.parent_id IS NOT NULL ${keyset}
          AND f.owner_id IN (SELECT owner_id FROM files WHERE id IN (SELECT id FROM stops))`;
    // By the index: every matching doc, then its files in page order (CROSS JOIN: docs outside, even
    // with no statistics; SQLite otherwise walked every file of the person, 34 ms vs 1 ms for one match). By a scan (PostgreSQL, a common word):
    // the next `scan` files in page order, each one's text tested (the doc's text row by its key).
    const hits =
      scan === undefined
        ? sql`
      cand(id) AS (SELECT NULL WHERE false),
      hits AS MATERIALIZED (
        SELECT f.*, d.doc_id AS doc_id FROM search_docs d CROSS JOIN files f
        WHERE f.blob_id = d.blob_id AND d.doc_id IN (${this.matchingDocs(q)}) AND ${live}
        ORDER BY f.name, f.id LIMIT ${batch}
      ),`
        : sql`
      cand AS MATERIALIZED (
        SELECT f.id, f.blob_id FROM files f
        WHERE ${live}
        ORDER BY f.name, f.id LIMIT ${scan}
      ),
      -- LATERAL … OFFSET 0: one text read by its key per file, not joined to every matching text (which is what is avoided).
      hits AS MATERIALIZED (
        SELECT f.*, d.doc_id AS doc_id FROM cand c JOIN files f ON f.id = c.id JOIN search_docs d ON d.blob_id = c.blob_id
        CROSS JOIN LATERAL (SELECT b.folded FROM search_bodies b WHERE b.doc_id = d.doc_id OFFSET 0) b
        WHERE ${this.bodyConds(q, sql.ref('b.folded'))}
      ),`;
    const res = await sql<Selectable<FilesTable> & { doc_id: number | string; via: string | null; suffix: string | null; scanned: number | string }>`
      WITH RECURSIVE
      stops(id) AS (
        SELECT id FROM files WHERE owner_id = ${ownerId} AND parent_id IS NULL AND trashed_at IS NULL
        ${extraRoots}
      ),
      ${hits}
      up(file_id, cur, parent, cur_name, suffix) AS (
        SELECT h.id, h.id, h.parent_id, h.name, ${empty} FROM hits h
        UNION ALL
        SELECT up.file_id, p.id, p.parent_id, p.name, '/' || up.cur_name || up.suffix
        FROM up JOIN files p ON p.id = up.parent
        WHERE up.cur NOT IN (SELECT id FROM stops)
      ),
      reached AS (
        SELECT file_id, cur AS via, suffix FROM up WHERE cur IN (SELECT id FROM stops)
      )
      SELECT h.*, reached.via AS via, reached.suffix AS suffix, (SELECT COUNT(*) FROM cand) AS scanned
      FROM hits h LEFT JOIN reached ON reached.file_id = h.id
      ORDER BY h.name, h.id`.execute(this.db);
    return res.rows;
  }

  /**
   * The person's own live files whose content has no text yet, up to
   * PENDING_CAP (a hint for "still indexing", not a tally). Two cheap parts
   * instead of an anti-join over every file they own: the docs waiting in
   * the queue (the state index, then each one's files by blob), and content
   * written in the last DISCOVERY_WINDOW_MS that has no doc at all yet (the
   * indexer discovers a write within moments; blobs by creation time).
   * Content undiscovered for longer (the indexer down) is not counted.
   * Items under a trashed folder may be (only the top trashed item carries
   * trashed_at). CROSS JOIN keeps SQLite's loop order (queue or blobs
   * outside) when the database has no statistics (it never gets ANALYZE):
   * left to choose, it walked every file of the person (54 ms vs 1 ms at
   * 10,000 files).
   */
  async pending(ownerId: string, now: number): Promise<number> {
    const queued = await sql<{ n: number | string }>`
      SELECT COUNT(*) AS n FROM (
        SELECT 1 FROM search_docs d CROSS JOIN files f
        WHERE f.blob_id = d.blob_id AND d.state = 'pending' AND f.owner_id = ${ownerId} AND f.kind = 1 AND f.trashed_at IS NULL
        LIMIT ${PENDING_CAP}
      ) q`.execute(this.db);
    const fresh = await sql<{ n: number | string }>`
      SELECT COUNT(*) AS n FROM (
        SELECT 1 FROM blobs b CROSS JOIN files f
        WHERE f.blob_id = b.id AND b.created_at >= ${now - DISCOVERY_WINDOW_MS} AND f.owner_id = ${ownerId} AND f.kind = 1 AND f.trashed_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM search_docs d WHERE d.blob_id = b.id)
        LIMIT ${PENDING_CAP}
      ) q`.execute(this.db);
    return Math.min(PENDING_CAP, Number(queued.rows[0]?.n ?? 0) + Number(fresh.rows[0]?.n ?? 0));
  }

  /**
   * A window of each doc's text around the first place one of `terms`
   * (lower-cased) appears, for snippets: `before` characters ahead of it,
   * `length` in all. A doc where none is found (a case only the index folds)
   * answers its beginning.
   */
  async windows(docIds: readonly number[], terms: readonly string[], before: number, length: number): Promise<Map<number, { text: string; start: number }>> {
    const out = new Map<number, { text: string; start: number }>();
    if (docIds.length === 0) return out;
    const find = this.sqlite ? (t: string) => sql`NULLIF(instr(lower(body), ${t}), 0)` : (t: string) => sql`NULLIF(strpos(folded, lower(${t})), 0)`;
    const pos = sql`COALESCE(${sql.join([...terms.map(find), sql`1`])})`;
    const rows = this.sqlite
      ? await sql<{ doc_id: number; p: number; win: string }>`
          SELECT doc_id, p, substr(body, max(1, p - ${before}), ${length}) AS win
          FROM (SELECT rowid AS doc_id, body, ${pos} AS p FROM search_text WHERE rowid IN (${sql.join(docIds)}))`.execute(this.db)
      : await sql<{ doc_id: number; p: number; win: string }>`
          SELECT doc_id, p, substr(body, greatest(1, p - ${before}), ${length}) AS win
          FROM (SELECT doc_id, body, ${pos} AS p FROM search_bodies WHERE doc_id IN (${sql.join(docIds)})) w`.execute(this.db);
    for (const r of rows.rows) out.set(Number(r.doc_id), { text: r.win ?? '', start: Math.max(1, Number(r.p) - before) });
    return out;
  }
}
