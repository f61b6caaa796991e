// The only place with SQL for share links.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../db/database.js';
import type { SharesTable } from '../db/schema.js';

export type ShareRow = Selectable<SharesTable>;
export type SharePatch = Omit<Updateable<SharesTable>, 'id' | 'owner_id' | 'file_id' | 'downloads' | 'views' | 'created_at'>;

/** Keyset position in a newest-first list. */
export interface ListCursor {
  createdAt: number;
  id: string;
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
  listByOwner(ownerId: string, after: ListCursor | null, limit: number): Promise<ShareRow[]> {
    return this.db
      .selectFrom('shares')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .$if(after !== null, (q) => q.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after!.createdAt, after!.id))))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  listAll(ownerId: string | undefined, offset: number, limit: number): Promise<ShareRow[]> {
    return this.db
      .selectFrom('shares')
      .selectAll()
      .$if(ownerId !== undefined, (q) => q.where('owner_id', '=', ownerId!))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute();
  }

  async countAll(ownerId: string | undefined): Promise<number> {
    const row = await this.db
      .selectFrom('shares')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .$if(ownerId !== undefined, (q) => q.where('owner_id', '=', ownerId!))
      .executeTakeFirstOrThrow();
    return Number(row.n);
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

  async addView(id: string): Promise<void> {
    await this.db
      .updateTable('shares')
      .set((eb) => ({ views: eb('views', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }
}
