// The only place with SQL for share links.
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import { dialectOf, type Db } from '../db/database.js';
import type { SharesTable } from '../db/schema.js';
import { containsInsensitive, type SortDirection } from '../db/search.js';

export type ShareRow = Selectable<SharesTable>;
export type SharePatch = Omit<Updateable<SharesTable>, 'id' | 'owner_id' | 'file_id' | 'downloads' | 'views' | 'created_at'>;

/** Keyset position in a newest-first list. */
export interface ListCursor {
  createdAt: number;
  id: string;
}

/** What the administrator's list can be sorted by. */
export const ADMIN_SHARE_ORDER = ['created_at', 'item', 'owner', 'views', 'downloads', 'expires_at'] as const;
export type AdminShareOrder = (typeof ADMIN_SHARE_ORDER)[number];

export interface AdminShareQuery {
  ownerId?: string;
  /** Part of the owner's e-mail or nickname, the item's name or the share id, any case. */
  keyword?: string;
  orderBy?: AdminShareOrder;
  direction?: SortDirection;
}

export class ShareRepository {
  constructor(private readonly db: Db) {}

  async insert(row: Insertable<SharesTable>): Promise<void> {
    await this.db.insertInto('shares').values(row).execute();
  }

  find(id: string): Promise<ShareRow | undefined> {
    return this.db.selectFrom('shares').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findOwned(ownerId: string, id: string): Promise<ShareRow | undefined> {
    return this.db.selectFrom('shares').selectAll().where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
  }

  /** Newest first, then by id, strictly after `after`. */
  listByOwner(ownerId: string, after: ListCursor | null, limit: number, fileId?: string): Promise<ShareRow[]> {
    return this.db
      .selectFrom('shares')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .$if(fileId !== undefined, (q) => q.where('file_id', '=', fileId!))
      .$if(after !== null, (q) => q.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after!.createdAt, after!.id))))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /**
   * Every share for the administrator: filtered, sorted and cut into a page
   * by the database, so the dashboard sees all shares, not the newest few.
   * Offset paging (the dashboard jumps to page N); shares are few per site
   * compared with files, and the id breaks ties so pages never overlap.
   */
  adminList(q: AdminShareQuery, offset: number, limit: number): Promise<ShareRow[]> {
    const dir = q.direction ?? 'desc';
    const by = q.orderBy ?? 'created_at';
    const column = { created_at: 'shares.created_at', views: 'shares.views', downloads: 'shares.downloads', expires_at: 'shares.expires_at', item: 'files.name', owner: 'users.email' }[by];
    // "Never expires" sorts as the latest expiry, on both dialects (they put NULLs at opposite ends).
    const key = by === 'expires_at' ? sql`coalesce(shares.expires_at, ${Number.MAX_SAFE_INTEGER})` : sql.ref(column);
    return this.filtered(q)
      .selectAll('shares')
      .orderBy(key, dir)
      .orderBy('shares.id', dir)
      .offset(offset)
      .limit(limit)
      .execute();
  }

  async adminCount(q: AdminShareQuery): Promise<number> {
    const row = await this.filtered(q)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  private filtered(q: AdminShareQuery) {
    const keyword = q.keyword?.trim();
    // The name column is byte-ordered ("C") on PostgreSQL, whose lower() folds ASCII only.
    const name = dialectOf(this.db) === 'sqlite' ? 'files.name' : sql.raw('files.name COLLATE "default"');
    return this.db
      .selectFrom('shares')
      .leftJoin('users', 'users.id', 'shares.owner_id')
      .leftJoin('files', 'files.id', 'shares.file_id')
      .$if(q.ownerId !== undefined, (b) => b.where('shares.owner_id', '=', q.ownerId!))
      .$if(Boolean(keyword), (b) =>
        b.where((eb) => {
          const escaped = keyword!.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
          return eb.or([
            containsInsensitive('users.email', keyword!),
            containsInsensitive('users.nickname', keyword!),
            containsInsensitive('shares.id', keyword!),
            sql<boolean>`lower(${typeof name === 'string' ? sql.ref(name) : name}) like ${`%${escaped}%`} escape '\\'`,
          ]);
        }),
      );
  }

  /** Applies the patch to the owner's share; false when there is no such share. */
  async update(ownerId: string, id: string, patch: SharePatch): Promise<boolean> {
    const res = await this.db.updateTable('shares').set(patch).where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Deletes a share (the owner's when `ownerId` is given); false when there is no such share. */
  async delete(id: string, ownerId?: string): Promise<boolean> {
    const res = await this.db
      .deleteFrom('shares')
      .where('id', '=', id)
      .$if(ownerId !== undefined, (q) => q.where('owner_id', '=', ownerId!))
      .executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }

  /**
   * Counts one download if the share still allows it, in one conditional
   * UPDATE: concurrent downloads serialise on the row, and the condition is
   * re-checked against the committed count, so the limit is never exceeded.
   */
  async claimDownload(id: string, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('shares')
      .set((eb) => ({ downloads: eb('downloads', '+', 1) }))
      .where('id', '=', id)
      .where((eb) => eb.or([eb('download_limit', 'is', null), eb('downloads', '<', eb.ref('download_limit'))]))
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Undoes one claimDownload (never below zero). */
  async releaseDownload(id: string): Promise<void> {
    await this.db
      .updateTable('shares')
      .set((eb) => ({ downloads: eb('downloads', '-', 1) }))
      .where('id', '=', id)
      .where('downloads', '>', 0)
      .execute();
  }

  async addView(id: string): Promise<void> {
    await this.db
      .updateTable('shares')
      .set((eb) => ({ views: eb('views', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }
}
