// The only SQL of the WebDAV feature: accounts, dead properties and locks
// (migration 008). Files themselves are reached through the file service.
import { sql, type Selectable, type Updateable } from 'kysely';
import { dialectOf, type Db, type Dialect } from '../db/database.js';
import type { DavAccountsTable, DavLocksTable } from '../db/schema.js';

export type DavAccountRow = Selectable<DavAccountsTable>;
export type LockRow = Selectable<DavLocksTable>;
export interface PropertyRow {
  name: string;
  value: string;
}

const BATCH = 400;
/** First key of the PostgreSQL advisory lock that serialises one person's LOCKs (the second is a hash of the user id). */
const LOCKS_ADVISORY_CLASS = 0x64617600; // "dav\0"
const PROPERTIES_ADVISORY_CLASS = 0x64617601;

/** What a property costs: the UTF-8 bytes of its name and of its value (the stored XML). */
export function propertyBytes(p: PropertyRow): number {
  return Buffer.byteLength(p.name, 'utf8') + Buffer.byteLength(p.value, 'utf8');
}

/** Dead property sizes after a change: one resource's total (0 when not one resource), the person's, and the change. */
export interface PropertySizes {
  resource: number;
  user: number;
  change: number;
}

export class DavRepository {
  private readonly dialect: Dialect;

  constructor(private readonly db: Db) {
    this.dialect = dialectOf(db);
  }

  // ---- accounts ----

  listAccounts(userId: string): Promise<DavAccountRow[]> {
    return this.db.selectFrom('dav_accounts').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
  }

  findAccount(userId: string, id: string): Promise<DavAccountRow | undefined> {
    return this.db.selectFrom('dav_accounts').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  }

  findAccountByKey(userId: string, keyId: string): Promise<DavAccountRow | undefined> {
    return this.db.selectFrom('dav_accounts').selectAll().where('user_id', '=', userId).where('key_id', '=', keyId).executeTakeFirst();
  }

  async insertAccount(row: DavAccountRow): Promise<void> {
    await this.db.insertInto('dav_accounts').values(row).execute();
  }

  async updateAccount(userId: string, id: string, patch: Updateable<DavAccountsTable>): Promise<boolean> {
    const res = await this.db.updateTable('dav_accounts').set(patch).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Deletes every WebDAV account of the user; answers their ids. */
  async deleteAccountsOf(userId: string): Promise<string[]> {
    const rows = await this.db.deleteFrom('dav_accounts').where('user_id', '=', userId).returning('id').execute();
    return rows.map((r) => r.id);
  }

  async deleteAccount(userId: string, id: string): Promise<boolean> {
    const res = await this.db.deleteFrom('dav_accounts').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  // ---- dead properties ----

  async properties(fileIds: readonly string[]): Promise<Map<string, PropertyRow[]>> {
    const out = new Map<string, PropertyRow[]>();
    for (let i = 0; i < fileIds.length; i += BATCH) {
      const rows = await this.db.selectFrom('dav_properties').selectAll().where('file_id', 'in', fileIds.slice(i, i + BATCH)).orderBy('name').execute();
      groupByFile(rows, out);
    }
    return out;
  }

  /**
   * The dead properties of a folder's children (rows whose parent is the
   * folder), read at once when they hold at most `maxBytes` together; null
   * when they hold more (the caller then reads them page by page). A listing
   * that reads them before its first page needs no query between reading a
   * page of rows and writing it, so the rows die young (issue 19, memory).
   */
  async propertiesOfChildren(folderId: string, maxBytes: number): Promise<Map<string, PropertyRow[]> | null> {
    const children = () => this.db.selectFrom('dav_properties').innerJoin('files', 'files.id', 'dav_properties.file_id').where('files.parent_id', '=', folderId);
    const size = await children()
      .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.sum<number | string | null>('dav_properties.bytes').as('total')])
      .executeTakeFirst();
    const out = new Map<string, PropertyRow[]>();
    if (Number(size?.n ?? 0) === 0) return out;
    if (Number(size?.total ?? 0) > maxBytes) return null;
    const rows = await children().select(['dav_properties.file_id', 'dav_properties.name', 'dav_properties.value']).orderBy('dav_properties.name').execute();
    groupByFile(rows, out);
    return out;
  }

  /** Takes the per-person transaction lock that serialises the checks of `kind` (PostgreSQL; SQLite has one writer). */
  private async serialise(tx: Db, kind: number, userId: string): Promise<void> {
    if (this.dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(${kind}::int4, hashtext(${userId}))`.execute(tx);
  }

  private async userPropertyBytesIn(tx: Db, userId: string): Promise<number> {
    const row = await tx.selectFrom('dav_properties').select((eb) => eb.fn.sum<number | string | null>('bytes').as('total')).where('user_id', '=', userId).executeTakeFirst();
    return Number(row?.total ?? 0);
  }

  /** Bytes of dead properties one person holds. */
  userPropertyBytes(userId: string): Promise<number> {
    return this.userPropertyBytesIn(this.db, userId);
  }

  /** Bytes of the dead properties of these files together. */
  async propertyBytesOf(fileIds: readonly string[]): Promise<number> {
    let total = 0;
    for (let i = 0; i < fileIds.length; i += BATCH) {
      const row = await this.db
        .selectFrom('dav_properties')
        .select((eb) => eb.fn.sum<number | string | null>('bytes').as('total'))
        .where('file_id', 'in', fileIds.slice(i, i + BATCH))
        .executeTakeFirst();
      total += Number(row?.total ?? 0);
    }
    return total;
  }

  /**
   * Sets and removes properties of one file together (PROPPATCH is all or
   * nothing, RFC 4918 §9.2), once `admit` accepts the sizes they leave: the
   * file's and the person's totals, and the change. Check and write are one
   * step per person (the advisory lock), so parallel PROPPATCHes cannot pass
   * a cap together.
   */
  async patchProperties(userId: string, fileId: string, set: readonly PropertyRow[], remove: readonly string[], admit: (sizes: PropertySizes) => void): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await this.serialise(tx, PROPERTIES_ADVISORY_CLASS, userId);
      const current = new Map((await tx.selectFrom('dav_properties').select(['name', 'bytes']).where('file_id', '=', fileId).execute()).map((r) => [r.name, Number(r.bytes)]));
      let resource = [...current.values()].reduce((a, b) => a + b, 0);
      let change = 0;
      for (const name of remove) change -= current.get(name) ?? 0;
      for (const p of set) change += propertyBytes(p) - (current.get(p.name) ?? 0);
      resource += change;
      admit({ resource, user: (await this.userPropertyBytesIn(tx, userId)) + change, change });
      if (remove.length) await tx.deleteFrom('dav_properties').where('file_id', '=', fileId).where('name', 'in', [...remove]).execute();
      for (const p of set) {
        const bytes = propertyBytes(p);
        await tx
          .insertInto('dav_properties')
          .values({ file_id: fileId, name: p.name, value: p.value, user_id: userId, bytes })
          .onConflict((oc) => oc.columns(['file_id', 'name']).doUpdateSet({ value: p.value, user_id: userId, bytes }))
          .execute();
      }
    });
  }

  /** Copies the properties of copied rows (old id -> new id), once `admit` accepts the person's total after the copy. */
  async copyProperties(userId: string, ids: ReadonlyMap<string, string>, admit: (sizes: PropertySizes) => void): Promise<void> {
    const props = await this.properties([...ids.keys()]);
    const rows = [...props].flatMap(([oldId, list]) => list.map((p) => ({ file_id: ids.get(oldId)!, name: p.name, value: p.value, user_id: userId, bytes: propertyBytes(p) })));
    if (rows.length === 0) return;
    const change = rows.reduce((a, r) => a + r.bytes, 0);
    await this.db.transaction().execute(async (tx) => {
      await this.serialise(tx, PROPERTIES_ADVISORY_CLASS, userId);
      admit({ resource: 0, user: (await this.userPropertyBytesIn(tx, userId)) + change, change });
      for (let i = 0; i < rows.length; i += BATCH) await tx.insertInto('dav_properties').values(rows.slice(i, i + BATCH)).onConflict((oc) => oc.doNothing()).execute();
    });
  }

  // ---- locks ----

  liveLocks(userId: string, now: number): Promise<LockRow[]> {
    return this.db.selectFrom('dav_locks').selectAll().where('user_id', '=', userId).where('expires_at', '>', now).execute();
  }

  /**
   * Inserts a lock once `admit` accepts the person's live locks as they are
   * inside the transaction (it throws to refuse: a conflict, the cap). The
   * check and the insert are one step for every instance: on PostgreSQL a
   * transaction-scoped advisory lock per person serialises them (parallel
   * LOCKs granted past the cap before, issue 19); SQLite has one writer.
   */
  async insertLock(row: LockRow, now: number, admit: (live: readonly LockRow[]) => void): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await this.serialise(tx, LOCKS_ADVISORY_CLASS, row.user_id);
      await tx.deleteFrom('dav_locks').where('user_id', '=', row.user_id).where('expires_at', '<=', now).execute();
      admit(await tx.selectFrom('dav_locks').selectAll().where('user_id', '=', row.user_id).execute());
      await tx.insertInto('dav_locks').values(row).execute();
    });
  }

  async refreshLock(userId: string, token: string, timeoutS: number, expiresAt: number): Promise<void> {
    await this.db.updateTable('dav_locks').set({ timeout_s: timeoutS, expires_at: expiresAt }).where('user_id', '=', userId).where('token', '=', token).execute();
  }

  async deleteLocks(userId: string, tokens: readonly string[]): Promise<void> {
    if (tokens.length === 0) return;
    await this.db.deleteFrom('dav_locks').where('user_id', '=', userId).where('token', 'in', [...tokens]).execute();
  }
}

/** Adds property rows to `out` by their file, in the rows' order. */
function groupByFile(rows: readonly { file_id: string; name: string; value: string }[], out: Map<string, PropertyRow[]>): void {
  for (const r of rows) {
    const list = out.get(r.file_id) ?? [];
    list.push({ name: r.name, value: r.value });
    out.set(r.file_id, list);
  }
}
