// SQL for file versions (migration 020). Each row holds one reference on its
// blob; whoever deletes rows gets back what they held (sizes, blob ids) so the
// counters follow exactly the rows that statement removed.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, FileVersionsTable } from '../db/schema.js';

export type VersionRow = Selectable<FileVersionsTable>;
type Executor = Kysely<Database>;

/** What a deleted version held: bytes to take off `used`, a reference to drop. */
export interface Released {
  size: number;
  blob_id: string | null;
}

export interface Retention {
  maxVersions: number;
  versionDays: number;
}

const DAY_MS = 86_400_000;

export class VersionRepository {
  constructor(private readonly db: Executor) {}

  async insert(row: VersionRow): Promise<void> {
    await this.db.insertInto('file_versions').values(row).execute();
  }

  /** Newest first (archived_at, then id, so the order is total). */
  listOfFile(fileId: string): Promise<VersionRow[]> {
    return this.db.selectFrom('file_versions').selectAll().where('file_id', '=', fileId).orderBy('archived_at', 'desc').orderBy('id', 'desc').execute();
  }

  /** A version by id whoever owns it (callers check that the person may reach its file). */
  findAny(id: string): Promise<VersionRow | undefined> {
    return this.db.selectFrom('file_versions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  find(ownerId: string, id: string): Promise<VersionRow | undefined> {
    return this.db.selectFrom('file_versions').selectAll().where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
  }

  async deleteByIds(ids: readonly string[]): Promise<Released[]> {
    if (ids.length === 0) return [];
    return this.db.deleteFrom('file_versions').where('id', 'in', [...ids]).returning(['size', 'blob_id']).execute();
  }

  /** Hands a file's versions to another file (a MOVE over it). */
  async reparent(fromFileId: string, toFileId: string): Promise<void> {
    await this.db.updateTable('file_versions').set({ file_id: toFileId }).where('file_id', '=', fromFileId).execute();
  }

  /** Deletes every version of these files (they are being deleted for good). */
  async deleteOfFiles(fileIds: readonly string[]): Promise<Released[]> {
    if (fileIds.length === 0) return [];
    return this.db.deleteFrom('file_versions').where('file_id', 'in', [...fileIds]).returning(['size', 'blob_id']).execute();
  }

  /** The group's retention for a user (the defaults when the user is gone). */
  async retentionOf(ownerId: string): Promise<Retention> {
    const row = await this.db
      .selectFrom('users')
      .innerJoin('groups', 'groups.id', 'users.group_id')
      .select(['groups.max_versions', 'groups.version_days'])
      .where('users.id', '=', ownerId)
      .executeTakeFirst();
    return { maxVersions: Number(row?.max_versions ?? 10), versionDays: Number(row?.version_days ?? 30) };
  }

  /** Ids of a file's versions past the newest `keep`. */
  async beyond(fileId: string, keep: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('file_versions')
      .select('id')
      .where('file_id', '=', fileId)
      .orderBy('archived_at', 'desc')
      .orderBy('id', 'desc')
      .offset(keep)
      .limit(1_000_000)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Versions past their group's age (or of a group that keeps none), oldest first: the pruning job's work. */
  async expired(now: number, limit: number): Promise<{ id: string; owner_id: string }[]> {
    return this.db
      .selectFrom('file_versions as v')
      .innerJoin('users as u', 'u.id', 'v.owner_id')
      .innerJoin('groups as g', 'g.id', 'u.group_id')
      .select(['v.id', 'v.owner_id'])
      .where((eb) => eb.or([eb('g.max_versions', '=', 0), eb('v.archived_at', '<', sql<number>`cast(${now} as bigint) - g.version_days * cast(${DAY_MS} as bigint)`)]))
      .orderBy('v.archived_at')
      .limit(limit)
      .execute();
  }

  /** Files holding more versions than their owner's group keeps (the limit was lowered). */
  async overfull(limit: number): Promise<{ file_id: string; owner_id: string; max_versions: number }[]> {
    const rows = await this.db
      .selectFrom('file_versions as v')
      .innerJoin('users as u', 'u.id', 'v.owner_id')
      .innerJoin('groups as g', 'g.id', 'u.group_id')
      .select(['v.file_id', 'v.owner_id', 'g.max_versions'])
      .groupBy(['v.file_id', 'v.owner_id', 'g.max_versions'])
      .having((eb) => eb(eb.fn.countAll(), '>', eb.ref('g.max_versions')))
      .limit(limit)
      .execute();
    return rows.map((r) => ({ ...r, max_versions: Number(r.max_versions) }));
  }

  /** Current names of apps (OAuth clients) and of the owner's WebDAV accounts, keyed 'app:<id>' / 'webdav:<id>'. */
  async sourceNames(ownerId: string, appIds: readonly string[], davIds: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (appIds.length) for (const r of await this.db.selectFrom('oauth_clients').select(['id', 'name']).where('id', 'in', [...appIds]).execute()) out.set(`app:${r.id}`, r.name);
    if (davIds.length) {
      const rows = await this.db.selectFrom('dav_accounts').select(['id', 'name']).where('id', 'in', [...davIds]).where('user_id', '=', ownerId).execute();
      for (const r of rows) out.set(`webdav:${r.id}`, r.name);
    }
    return out;
  }

  /**
   * Display names of the people who wrote contents, by user id: the nickname,
   * else the e-mail (as sharing shows people). Read here beside the app and
   * device names above, for the same list.
   */
  async authorNames(userIds: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (userIds.length === 0) return out;
    for (const r of await this.db.selectFrom('users').select(['id', 'nickname', 'email']).where('id', 'in', [...userIds]).execute()) out.set(r.id, r.nickname || r.email);
    return out;
  }

  /** Bytes of an owner's versions (capacity's `versions`). */
  async bytesOf(ownerId: string): Promise<number> {
    const row = await this.db.selectFrom('file_versions').select((eb) => eb.fn.sum<number | string | null>('size').as('n')).where('owner_id', '=', ownerId).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Blob references held by an owner's versions, counted per blob. */
  async blobRefsOfOwner(ownerId: string): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('file_versions')
      .select(['blob_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('owner_id', '=', ownerId)
      .where('blob_id', 'is not', null)
      .groupBy('blob_id')
      .execute();
    return new Map(rows.map((r) => [r.blob_id!, Number(r.n)]));
  }

  async deleteOwner(ownerId: string): Promise<void> {
    await this.db.deleteFrom('file_versions').where('owner_id', '=', ownerId).execute();
  }
}
