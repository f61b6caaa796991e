// The offline_access rule has two forms: grantsOfflineAccess (JS: whether a
// refresh token is issued) and offlineAccessSql (the exchange statement:
// which lifetime the family gets). If they disagreed, a family would get the
// short lifetime while a refresh token was issued for it, or the reverse.
// This runs the SQL form on the database the suite runs on and compares it
// with the JS form for scope strings near the rule's edges (issue 13 item 4).
// It found that the first SQL form (LIKE) matched OFFLINE_ACCESS on SQLite,
// where LIKE ignores ASCII case.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createDb, dialectOf, type Db } from '../../src/db/database.js';
import { offlineAccessSql } from '../../src/oauth/grants-repository.js';
import { grantsOfflineAccess } from '../../src/oauth/scopes.js';
import { createPgDatabase } from '../helpers/harness.js';

/** Stored scope strings (single-space separated, as parseScopeParam leaves them) around the rule's edges. */
const CASES = [
  'offline_access',
  'openid offline_access',
  'offline_access openid',
  'openid offline_access Files.Read',
  '',
  'openid',
  'offlineXaccess',
  'offline%access',
  'offline_accessx',
  'xoffline_access',
  'Offline_Access',
  'OFFLINE_ACCESS',
  'offline_access_',
  'openid offline-access',
  'offline access',
  'Files.Read Files.Write',
];

describe('offline_access: the SQL form equals the JS form (issue 13 item 4)', () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  before(async () => {
    const adminUrl = process.env.CIRRUS_TEST_DATABASE_URL;
    if (adminUrl) {
      const pg = await createPgDatabase(adminUrl);
      db = createDb({ kind: 'postgres', url: pg.url });
      cleanup = async () => {
        await db.destroy();
        await pg.drop();
      };
    } else {
      const dir = mkdtempSync(path.join(tmpdir(), 'cirrus-offline-'));
      db = createDb({ kind: 'sqlite', file: path.join(dir, 'x.db') });
      cleanup = async () => {
        await db.destroy();
        rmSync(dir, { recursive: true, force: true });
      };
    }
  });
  after(() => cleanup());

  for (const scopes of CASES) {
    it(`"${scopes}"`, async () => {
      const row = await db
        .selectNoFrom(sql<boolean>`CASE WHEN ${offlineAccessSql(dialectOf(db), sql.val(scopes))} THEN 1 ELSE 0 END`.as('offline'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(row.offline) === 1, grantsOfflineAccess(scopes));
    });
  }
});
