// Names: folders list case-insensitively and naturally
// (`file2` before `file10`), keyset-paged, and two names of one folder may
// not differ only in case (docs/decisions/025-names-unique-ignoring-case.md).
//
// Both values are computed in JavaScript at every write (files/name-rules.ts:
// sortKey, foldName; this migration uses its frozen copy, frozen/016-name-rules.ts),
// the same way on both dialects, and compared in byte order (collate "C" on PostgreSQL, SQLite's default):
// - sort_key: the listing index (parent_id, kind, sort_key, name);
// - name_fold: unique per parent (trashed rows have no parent).
// Existing rows are filled in here. Siblings that differ only in case get a
// numbered name, the oldest keeping its own: "Report (2).pdf".
import { sql, type ColumnDefinitionBuilder } from 'kysely';
import { isSqlite, type AnyDb } from './util.js';
import { foldName, sortKey } from './frozen/016-name-rules.js';

interface Row {
  id: string;
  parent_id: string | null;
  name: string;
  kind: number;
  created_at: number;
}

/** "Report.pdf" -> "Report (2).pdf" (files), "Docs" -> "Docs (2)" (folders). */
function numbered(name: string, n: number, folder: boolean): string {
  const dot = folder ? -1 : name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}

export async function up(db: AnyDb): Promise<void> {
  const byteOrder = (c: ColumnDefinitionBuilder) => (isSqlite(db) ? c : c.modifyEnd(sql`collate "C"`));
  await db.schema.alterTable('files').addColumn('sort_key', 'text', byteOrder).execute();
  await db.schema.alterTable('files').addColumn('name_fold', 'text', byteOrder).execute();

  const rows = (await db.selectFrom('files').select(['id', 'parent_id', 'name', 'kind', 'created_at']).orderBy('created_at').orderBy('id').execute()) as Row[];
  // Names that differ only in case, per folder: the oldest keeps its name.
  const taken = new Map<string, Set<string>>();
  for (const r of rows) {
    if (r.parent_id === null) continue;
    let folds = taken.get(r.parent_id);
    if (!folds) taken.set(r.parent_id, (folds = new Set()));
    folds.add(foldName(r.name));
  }
  const seen = new Map<string, Set<string>>();
  for (const r of rows) {
    let name = r.name;
    if (r.parent_id !== null) {
      let mine = seen.get(r.parent_id);
      if (!mine) seen.set(r.parent_id, (mine = new Set()));
      if (mine.has(foldName(name))) {
        const folds = taken.get(r.parent_id)!;
        for (let n = 2; folds.has(foldName(name)); n++) name = numbered(r.name, n, r.kind === 0);
        folds.add(foldName(name));
      }
      mine.add(foldName(name));
    }
    await db
      .updateTable('files')
      .set({ name, sort_key: sortKey(name), name_fold: foldName(name) })
      .where('id', '=', r.id)
      .execute();
  }

  await db.schema.createIndex('files_list_natural_idx').on('files').columns(['parent_id', 'kind', 'sort_key', 'name']).execute();
  await db.schema.createIndex('files_fold_uq').on('files').columns(['parent_id', 'name_fold']).unique().execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('files_fold_uq').execute();
  await db.schema.dropIndex('files_list_natural_idx').execute();
  await db.schema.alterTable('files').dropColumn('name_fold').execute();
  await db.schema.alterTable('files').dropColumn('sort_key').execute();
}
