// The only place with SQL for the file tree, blobs and storage counters
// (uploads: upload-repository.ts). Every method runs on whatever executor the
// store was built with, so a service can compose them in one transaction.
import { sql, type Kysely, type Selectable } from 'kysely';
import { shortId } from '../crypto/random.js';
import type { BlobsTable, Database } from '../db/schema.js';
import { FILE, FOLDER, type FileRow } from './rows.js';
import { UploadRepository } from './upload-repository.js';
import { foldName, sortKey } from './name-rules.js';
import { VersionRepository } from './version-repository.js';
import { EventLog } from './events/repository.js';
import type { ActivitySink, FeedAudience } from './events/audience.js';
import type { Actor } from '../core/actor.js';

export type BlobRow = Selectable<BlobsTable>;
export type Executor = Kysely<Database>;

export { FILE, FOLDER, type FileRow };

export function newFileId(): string {
  return shortId(16);
}

export function newBlobId(): string {
  return shortId(24);
}

/** The fields a new row must be given; the rest default below. */
export type NewFileRow = Pick<FileRow, 'owner_id' | 'parent_id' | 'name' | 'kind' | 'created_at'> & Partial<Omit<FileRow, 'sort_key' | 'name_fold'>>;

/** The row with its name-derived columns (sort key, folded name) computed from its name. */
function withNameKeys<T extends { name: string }>(row: T): T & { sort_key: string; name_fold: string } {
  return { ...row, sort_key: sortKey(row.name), name_fold: foldName(row.name) };
}

/**
 * A new live row: a fresh id, empty (no blob, size 0, no type), not in the
 * trash, updated when created, unless `fields` says otherwise. Every insert
 * of a new item builds its row here, so the columns stay in one order.
 */
export function newFileRow(fields: NewFileRow): FileRow {
  const { owner_id, parent_id, name, kind, created_at, ...rest } = fields;
  return {
    id: newFileId(),
    owner_id,
    parent_id,
    name,
    kind,
    size: 0,
    blob_id: null,
    mime_type: null,
    created_at,
    updated_at: created_at,
    trashed_at: null,
    trashed_parent_id: null,
    trashed_path: null,
    pending: 0,
    content_source: null,
    content_author: null,
    named_at: created_at,
    ...rest,
    sort_key: sortKey(name),
    name_fold: foldName(name),
  };
}

/** A row of a subtree walk; depth 0 is the walk's start. */
export type SubtreeRow = FileRow & { depth: number };

const BATCH = 500;

function chunks<T>(items: readonly T[], size = BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** One link of a path: a row's id, owner, parent, name and whether it is trashed. */
export type PathLink = Pick<FileRow, 'id' | 'owner_id' | 'parent_id' | 'name' | 'trashed_at'>;

export class TreeRepository {
  constructor(private readonly db: Executor) {}

  findRoot(ownerId: string): Promise<FileRow | undefined> {
    return this.db
      .selectFrom('files')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where('parent_id', 'is', null)
      .where('trashed_at', 'is', null)
      .executeTakeFirst();
  }

  async insertRootIfAbsent(row: FileRow): Promise<void> {
    await this.db.insertInto('files').values(withNameKeys(row)).onConflict((oc) => oc.doNothing()).execute();
  }

  findById(ownerId: string, id: string): Promise<FileRow | undefined> {
    return this.db.selectFrom('files').selectAll().where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
  }

  /** Any owner's row: for capability URLs that carry no user (signed downloads, share links). */
  findAnyById(id: string): Promise<FileRow | undefined> {
    return this.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findChild(parentId: string, name: string): Promise<FileRow | undefined> {
    return this.db.selectFrom('files').selectAll().where('parent_id', '=', parentId).where('name', '=', name).executeTakeFirst();
  }

  /**
   * The rows along `names` below `parentId` as far as they exist: it stops at
   * a missing name or below a file. One statement for the whole path (each
   * step is the (parent_id, name) index), where a findChild per name took one
   * statement each; most requests resolve a path two or three times.
   */
  async findPath(parentId: string, names: readonly string[]): Promise<FileRow[]> {
    if (names.length === 0) return [];
    if (names.length === 1) {
      const child = await this.findChild(parentId, names[0]!);
      return child ? [child] : [];
    }
    const nameAt = sql.join(
      names.slice(1).map((name, i) => sql`when ${i + 1} then ${name}`),
      sql` `,
    );
    const { rows } = await sql<FileRow & { depth: number }>`
      with recursive walk as (
        select files.*, 1 as depth from files where parent_id = ${parentId} and name = ${names[0]!}
        union all
        select f.*, w.depth + 1 from walk w join files f on f.parent_id = w.id and f.name = (case w.depth ${nameAt} end)
        where w.kind = ${FOLDER} and w.depth < ${names.length}
      )
      select * from walk order by depth`.execute(this.db);
    return rows.map(({ depth: _depth, ...row }) => row);
  }

  /**
   * One page of a folder, folders first, then by name case-insensitively and
   * naturally (sort_key, the name breaking ties); keyset on the natural list index.
   */
  listChildren(parentId: string, after: { kind: number; name: string } | null, limit: number): Promise<FileRow[]> {
    return this.db
      .selectFrom('files')
      .selectAll()
      .where('parent_id', '=', parentId)
      .$if(after !== null, (q) =>
        q.where((eb) => eb(eb.refTuple('kind', 'sort_key', 'name'), '>', eb.tuple(after!.kind, sortKey(after!.name), after!.name))),
      )
      .orderBy('kind')
      .orderBy('sort_key')
      .orderBy('name')
      .limit(limit)
      .execute();
  }

  /**
   * One kind's part of a folder in another order (size or modified date, or
   * names descending), the name breaking ties (unique per folder). One kind
   * per query keeps the keyset a plain row comparison that the
   * (parent_id, kind, column, name) indexes answer in order, either way.
   */
  listChildrenOfKind(
    parentId: string,
    kind: number,
    column: 'name' | 'size' | 'updated_at',
    desc: boolean,
    after: { value: number | string; name: string } | null,
    limit: number,
  ): Promise<FileRow[]> {
    const dir = desc ? 'desc' : 'asc';
    const op = desc ? '<' : '>';
    return this.db
      .selectFrom('files')
      .selectAll()
      .where('parent_id', '=', parentId)
      .where('kind', '=', kind)
      .$if(after !== null && column === 'name', (q) => q.where((eb) => eb(eb.refTuple('sort_key', 'name'), op, eb.tuple(sortKey(after!.name), after!.name))))
      .$if(after !== null && column !== 'name', (q) =>
        q.where((eb) => eb(eb.refTuple(column as 'size', 'name'), op, eb.tuple(after!.value as number, after!.name))),
      )
      .$if(column !== 'name', (q) => q.orderBy(column, dir))
      .$if(column === 'name', (q) => q.orderBy('sort_key', dir))
      .orderBy('name', dir)
      .limit(limit)
      .execute();
  }

  /** The item and its ancestors up to a row without a parent, nearest first. */
  async ancestry(id: string): Promise<FileRow[]> {
    const res = await sql<FileRow & { depth: number }>`
      with recursive chain as (
        select files.*, 0 as depth from files where id = ${id}
        union all
        select f.*, chain.depth + 1 from files f join chain on f.id = chain.parent_id
      )
      select * from chain order by depth`.execute(this.db);
    return res.rows;
  }

  /**
   * The ancestry of each of `ids` in one recursive query: per id, the names
   * and links up to a row without a parent, nearest first (as `ancestry`,
   * with only what a path needs). Ids not found are absent.
   */
  async ancestries(ids: readonly string[]): Promise<Map<string, PathLink[]>> {
    const out = new Map<string, PathLink[]>();
    if (ids.length === 0) return out;
    const res = await sql<PathLink & { item: string; depth: number | string }>`
      with recursive chain as (
        select id as item, id, owner_id, parent_id, name, trashed_at, 0 as depth from files where id in (${sql.join(ids)})
        union all
        select chain.item, f.id, f.owner_id, f.parent_id, f.name, f.trashed_at, chain.depth + 1 from files f join chain on f.id = chain.parent_id
      )
      select item, id, owner_id, parent_id, name, trashed_at, depth from chain order by item, depth`.execute(this.db);
    for (const { item, depth: _depth, ...link } of res.rows) {
      const chain = out.get(item) ?? [];
      chain.push(link);
      out.set(item, chain);
    }
    return out;
  }

  /** Every row of the subtree under (and including) `id`, parents before children. */
  async subtree(id: string): Promise<SubtreeRow[]> {
    const res = await sql<SubtreeRow>`
      with recursive sub as (
        select files.*, 0 as depth from files where id = ${id}
        union all
        select f.*, sub.depth + 1 from files f join sub on f.parent_id = sub.id
      )
      select * from sub order by depth`.execute(this.db);
    return res.rows.map((r) => ({ ...r, depth: Number(r.depth) }));
  }

  /**
   * How far the subtree under `id` reaches below it: the most levels and the
   * most bytes ("/" + name per level) any descendant adds to the folder's
   * path; 0 and 0 for a file or an empty folder. One query, nothing but two
   * numbers per row held by the database; each maximum may come from a
   * different descendant, and each is checked on its own.
   */
  async subtreeExtent(id: string): Promise<{ depth: number; bytes: number }> {
    const res = await sql<{ depth: number | string | null; bytes: number | string | null }>`
      with recursive sub(id, depth, bytes) as (
        select id, 1, 1 + octet_length(name) from files where parent_id = ${id}
        union all
        select f.id, sub.depth + 1, sub.bytes + 1 + octet_length(f.name) from files f join sub on f.parent_id = sub.id
      )
      select max(depth) as depth, max(bytes) as bytes from sub`.execute(this.db);
    const row = res.rows[0];
    return { depth: Number(row?.depth ?? 0), bytes: Number(row?.bytes ?? 0) };
  }

  async insert(rows: FileRow[]): Promise<void> {
    // Copies and restored rows are built from other rows: their keys follow their own names.
    for (const batch of chunks(rows, 200)) await this.db.insertInto('files').values(batch.map(withNameKeys)).execute();
  }

  async update(id: string, patch: Partial<Omit<FileRow, 'id' | 'owner_id' | 'sort_key' | 'name_fold'>>): Promise<void> {
    await this.db.updateTable('files').set(patch.name === undefined ? patch : withNameKeys({ ...patch, name: patch.name })).where('id', '=', id).execute();
  }

  /** A child whose name equals `name` case-insensitively (files_fold_uq): the name is taken. */
  findChildFolded(parentId: string, name: string): Promise<FileRow | undefined> {
    return this.db.selectFrom('files').selectAll().where('parent_id', '=', parentId).where('name_fold', '=', foldName(name)).executeTakeFirst();
  }

  /**
   * Deletes these rows (a batch of a pending subtree, children in the same
   * or an earlier batch than their parents) and returns what they held, so
   * the counters follow exactly the rows this statement removed (a second
   * runner on the same batch removes and returns nothing).
   */
  async deleteRows(ids: readonly string[]): Promise<{ kind: number; size: number; blob_id: string | null }[]> {
    if (ids.length === 0) return [];
    return this.db.deleteFrom('files').where('id', 'in', [...ids]).returning(['kind', 'size', 'blob_id']).execute();
  }

  /** Sets a root's `pending` mark (migration 014), touched now. */
  async markPending(id: string, pending: number, now: number): Promise<void> {
    await this.db.updateTable('files').set({ pending, updated_at: now }).where('id', '=', id).execute();
  }

  /** Touches a pending root still in state `pending`; false when it changed (the job took it). */
  async touchPending(id: string, pending: number, now: number): Promise<boolean> {
    const res = await this.db.updateTable('files').set({ updated_at: now }).where('id', '=', id).where('pending', '=', pending).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Reveals a copy built hidden (pending = 2) with `patch`; false when the job took it. */
  async reveal(id: string, patch: Partial<Omit<FileRow, 'id' | 'owner_id'>>): Promise<boolean> {
    const res = await this.db.updateTable('files').set(patch).where('id', '=', id).where('pending', '=', 2).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Pending roots (migration 014) untouched since `staleBefore`: their runner stopped (a crash). */
  pendingRoots(staleBefore: number, limit: number): Promise<FileRow[]> {
    return this.db.selectFrom('files').selectAll().where('pending', '<>', 0).where('updated_at', '<', staleBefore).limit(limit).execute();
  }

  /** Takes over a stale pending root as a deletion (touched now, so no other runner takes it too); false when it moved on. */
  async claimStale(id: string, staleBefore: number, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('files')
      .set({ pending: 1, updated_at: now })
      .where('id', '=', id)
      .where('pending', '<>', 0)
      .where('updated_at', '<', staleBefore)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  listTrash(ownerIds: string | readonly string[], before: { trashedAt: number; id: string } | null, limit: number): Promise<FileRow[]> {
    const owners = typeof ownerIds === 'string' ? [ownerIds] : ownerIds;
    return this.db
      .selectFrom('files')
      .selectAll()
      .where('owner_id', 'in', owners)
      .where('trashed_at', 'is not', null)
      .where('pending', '=', 0)
      .$if(before !== null, (q) => q.where((eb) => eb(eb.refTuple('trashed_at', 'id'), '<', eb.tuple(before!.trashedAt, before!.id))))
      .orderBy('trashed_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /** How many items listTrash would list for these owners (the same filter, no paging). */
  async countTrash(ownerIds: readonly string[]): Promise<number> {
    if (ownerIds.length === 0) return 0;
    const row = await this.db
      .selectFrom('files')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('owner_id', 'in', ownerIds)
      .where('trashed_at', 'is not', null)
      .where('pending', '=', 0)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async trashIds(ownerId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('files').select('id').where('owner_id', '=', ownerId).where('trashed_at', 'is not', null).where('pending', '=', 0).execute();
    return rows.map((r) => r.id);
  }

  /** Blob references held by an owner's files, counted per blob. */
  async blobRefsOfOwner(ownerId: string): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('files')
      .select(['blob_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('owner_id', '=', ownerId)
      .where('blob_id', 'is not', null)
      .groupBy('blob_id')
      .execute();
    return new Map(rows.map((r) => [r.blob_id!, Number(r.n)]));
  }

  /** Removes every row of an owner; children go with their parents in the one statement. */
  async deleteOwner(ownerId: string): Promise<void> {
    await this.db.deleteFrom('files').where('owner_id', '=', ownerId).execute();
  }
}

export class BlobRepository {
  constructor(private readonly db: Executor) {}

  async insert(row: BlobRow): Promise<void> {
    await this.db.insertInto('blobs').values(row).execute();
  }

  find(id: string): Promise<BlobRow | undefined> {
    return this.db.selectFrom('blobs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async findMany(ids: readonly string[]): Promise<Map<string, BlobRow>> {
    const out = new Map<string, BlobRow>();
    for (const batch of chunks([...new Set(ids)])) {
      for (const row of await this.db.selectFrom('blobs').selectAll().where('id', 'in', batch).execute()) out.set(row.id, row);
    }
    return out;
  }

  /** Adds references; false when a blob is already unreferenced (being collected). */
  async addRefs(counts: Map<string, number>): Promise<boolean> {
    for (const [id, n] of counts) {
      const res = await this.db
        .updateTable('blobs')
        .set((eb) => ({ ref_count: eb('ref_count', '+', n) }))
        .where('id', '=', id)
        .where('ref_count', '>', 0)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return false;
    }
    return true;
  }

  async dropRefs(counts: Map<string, number>): Promise<void> {
    const singles = [...counts].filter(([, n]) => n === 1).map(([id]) => id);
    for (const batch of chunks(singles)) {
      await this.db.updateTable('blobs').set((eb) => ({ ref_count: eb('ref_count', '-', 1) })).where('id', 'in', batch).execute();
    }
    for (const [id, n] of counts) {
      if (n === 1) continue;
      await this.db.updateTable('blobs').set((eb) => ({ ref_count: eb('ref_count', '-', n) })).where('id', '=', id).execute();
    }
  }

  async unreferenced(limit: number, among?: readonly string[]): Promise<string[]> {
    if (among && among.length === 0) return [];
    let q = this.db.selectFrom('blobs').select('id').where('ref_count', '=', 0);
    if (among) q = q.where('id', 'in', [...among].slice(0, 10_000));
    return (await q.limit(limit).execute()).map((r) => r.id);
  }

  /** Deletes the row if it is still unreferenced. */
  async deleteIfUnreferenced(id: string): Promise<boolean> {
    const res = await this.db.deleteFrom('blobs').where('id', '=', id).where('ref_count', '=', 0).executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }
}

export class UsageRepository {
  constructor(private readonly db: Executor) {}

  async insertIfAbsent(userId: string): Promise<void> {
    await this.db.insertInto('storage_usage').values({ user_id: userId, used: 0, reserved: 0 }).onConflict((oc) => oc.doNothing()).execute();
  }

  get(userId: string): Promise<{ used: number; reserved: number } | undefined> {
    return this.db.selectFrom('storage_usage').select(['used', 'reserved']).where('user_id', '=', userId).executeTakeFirst();
  }

  /**
   * Serialises a user's tree changes: the row lock is held until the
   * transaction ends (PostgreSQL); SQLite runs one writer at a time anyway.
   * False when the user has no storage row (deleted).
   */
  async lock(userId: string): Promise<{ audience: boolean } | null> {
    // The tree's audience flag comes with the lock (read after any change to it has committed), so no query of its own.
    const row = await this.db
      .updateTable('storage_usage')
      .set((eb) => ({ used: eb.ref('used') }))
      .where('user_id', '=', userId)
      .returning('feed_audience')
      .executeTakeFirst();
    return row ? { audience: Number(row.feed_audience) === 1 } : null;
  }

  /** Marks the user's tree as followed by others (files/events/audience.ts), or not. */
  async setAudience(userId: string, on: boolean): Promise<void> {
    await this.db.updateTable('storage_usage').set({ feed_audience: on ? 1 : 0 }).where('user_id', '=', userId).execute();
  }

  /** Atomically adds to `reserved` if used + reserved stays within `quota`. */
  async reserve(userId: string, bytes: number, quota: number): Promise<boolean> {
    const res = await this.db
      .updateTable('storage_usage')
      .set((eb) => ({ reserved: eb('reserved', '+', bytes) }))
      .where('user_id', '=', userId)
      .where((eb) => eb(eb(eb.ref('used'), '+', eb.ref('reserved')), '<=', quota - bytes))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Atomically adds to `used` if used + reserved stays within `quota` (copies). */
  async charge(userId: string, bytes: number, quota: number): Promise<boolean> {
    const res = await this.db
      .updateTable('storage_usage')
      .set((eb) => ({ used: eb('used', '+', bytes) }))
      .where('user_id', '=', userId)
      .where((eb) => eb(eb(eb.ref('used'), '+', eb.ref('reserved')), '<=', quota - bytes))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Unconditional adjustment (finishing an upload, deleting). */
  async adjust(userId: string, delta: { used?: number; reserved?: number }): Promise<void> {
    await this.db
      .updateTable('storage_usage')
      .set((eb) => ({ used: eb('used', '+', delta.used ?? 0), reserved: eb('reserved', '+', delta.reserved ?? 0) }))
      .where('user_id', '=', userId)
      .execute();
  }

  async delete(userId: string): Promise<void> {
    await this.db.deleteFrom('storage_usage').where('user_id', '=', userId).execute();
  }
}

/** What the change feed gives a FileStore: the time of an event, and who to tell once events have committed. */
export interface FeedHooks {
  now(): number;
  committed(owners: ReadonlySet<string>): void;
  /** Who else sees changes of a followed tree (files/events/audience.ts); filled at start-up. */
  audience?: readonly FeedAudience[];
  /** Where item histories are written (activity/recorder.ts); none: no history. */
  activity?: ActivitySink;
}

const NO_FEED: FeedHooks = { now: () => Date.now(), committed: () => undefined };

/** The repositories on one executor; `transaction` rebinds them to a transaction. */
export class FileStore {
  readonly tree: TreeRepository;
  readonly blobs: BlobRepository;
  readonly usage: UsageRepository;
  readonly uploads: UploadRepository;
  readonly versions: VersionRepository;
  /** The change feed (files/events/): `s.events.record(...)` in the transaction of each change. */
  readonly events: EventLog;

  constructor(
    /** Also for features that write in the same transaction (shares/upload-requests.ts). */
    readonly db: Executor,
    private readonly inTransaction = false,
    private readonly feed: FeedHooks = NO_FEED,
    /** Who makes the changes recorded through this store (activity); null: each tree's owner. */
    private readonly actor: Actor | null = null,
  ) {
    this.tree = new TreeRepository(db);
    this.blobs = new BlobRepository(db);
    this.usage = new UsageRepository(db);
    this.uploads = new UploadRepository(db);
    this.versions = new VersionRepository(db);
    this.events = new EventLog(db, feed.now, feed.audience, feed.activity, actor);
  }

  /** `actor`: who makes the changes it records (a nested call keeps the outer transaction's). */
  async transaction<T>(fn: (store: FileStore) => Promise<T>, actor: Actor | null = null): Promise<T> {
    if (this.inTransaction) return fn(this);
    let inner: FileStore | undefined;
    const result = await this.db.transaction().execute((trx) => fn((inner = new FileStore(trx, true, this.feed, actor))));
    // Committed: streams on this instance (and, through the feed, on others) may read the new events now.
    if (inner && inner.events.owners.size) this.feed.committed(inner.events.owners);
    return result;
  }
}

// Kept here for the files feature's importers; they live in db/ so other features can use them.
export { isForeignKeyViolation, isUniqueViolation } from '../db/errors.js';
