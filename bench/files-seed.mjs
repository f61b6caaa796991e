// Seeds a folder with many (empty) files for the listing benchmark. Creating
// 100,000 files through the HTTP API would take most of the time budget, so
// the rows go in through the file service's own repository and id generator
// (from the build the server runs), on a second connection to the server's
// database: one transaction, rows exactly as the service writes them.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { ROOT } from './lib.mjs';

const dist = (p) => import(pathToFileURL(path.join(ROOT, 'dist/server/src', p)).href);

/**
 * Inserts `count` files named `file-000000.txt` … into the folder `folderId`
 * of `ownerId`. `database` is the server's DatabaseConfig
 * ({kind: 'sqlite', file} or {kind: 'postgres', url}).
 */
export async function seedFolder({ database, ownerId, folderId, count }) {
  const [{ createDb }, { FileStore, FILE, newFileRow }, { mimeFor }] = await Promise.all([
    dist('db/database.js'),
    dist('files/repository.js'),
    dist('files/mime.js'),
  ]);
  const db = createDb(database);
  try {
    const now = Date.now();
    const width = String(count - 1).length;
    const rows = [];
    for (let i = 0; i < count; i++) {
      const name = `file-${String(i).padStart(Math.max(6, width), '0')}.txt`;
      rows.push(newFileRow({ owner_id: ownerId, parent_id: folderId, name, kind: FILE, mime_type: mimeFor(name), created_at: now }));
    }
    await new FileStore(db).transaction((s) => s.tree.insert(rows));
    // PostgreSQL plans with table statistics; autovacuum refreshes them within
    // a minute of a bulk change like this one, so do it now instead of
    // measuring the plan for a table it still believes empty (the keyset query
    // of later pages then takes a bitmap scan and sorts the whole folder).
    if (database.kind === 'postgres') await sql`analyze files`.execute(db);
  } finally {
    await db.destroy();
  }
}
