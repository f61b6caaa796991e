// The SQL of the statements whose exact shape carries a security or
// durability rule, per dialect, kept as reviewed text (issue 13 item 4; the
// idea of Immich's @GenerateSql). A change to one of them (a dropped
// `used_at IS NULL`, a lost `WHERE locked_until <= now`) shows up as a diff
// of server/test/sql/<dialect>.sql in review instead of passing silently.
//
// The repositories run against Kysely with a driver that records each
// statement and answers no rows, so nothing is executed. After an intended
// change, regenerate with:
//   CIRRUS_UPDATE_SQL_SNAPSHOTS=1 node --import tsx --test server/test/unit/sql-snapshots.test.ts
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type QueryResult,
} from 'kysely';
import type { Database } from '../../src/db/schema.js';
import type { Db } from '../../src/db/database.js';
import { GrantRepository } from '../../src/oauth/grants-repository.js';
import { SessionRepository } from '../../src/sessions/repository.js';
import { SqlThrottleStore } from '../../src/throttle/repository.js';
import { ACCOUNT_POLICY } from '../../src/throttle/service.js';
import { UsageRepository } from '../../src/files/repository.js';
import { ROOT_DIR } from '../../src/paths.js';

const snapshotDir = path.join(ROOT_DIR, 'server/test/sql');

/** A driver that records every statement and answers no rows. */
class RecordingDriver extends DummyDriver {
  constructor(private readonly sink: string[]) {
    super();
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const sink = this.sink;
    return {
      async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
        sink.push(query.sql);
        return { rows: [], numAffectedRows: 0n };
      },
      // eslint-disable-next-line require-yield -- no rows to stream
      async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
        return;
      },
    };
  }
}

function recordingDb(dialect: 'sqlite' | 'postgres', sink: string[]): Db {
  const sqlite = dialect === 'sqlite';
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => (sqlite ? new SqliteAdapter() : new PostgresAdapter()),
      createDriver: () => new RecordingDriver(sink),
      createIntrospector: (db) => (sqlite ? new SqliteIntrospector(db) : new PostgresIntrospector(db)),
      createQueryCompiler: () => (sqlite ? new SqliteQueryCompiler() : new PostgresQueryCompiler()),
    },
  }) as unknown as Db;
}

/** Each named case runs repository calls; its recorded statements are its snapshot. */
const cases: { name: string; dialects?: readonly ('sqlite' | 'postgres')[]; run: (db: Db) => Promise<unknown> }[] = [
  {
    // RFC 6749 §4.1.2 / §10.5: a code is used once, by its own client, before it expires, with its redirect_uri and PKCE challenge (RFC 7636 §4.6).
    name: 'authorization code exchange (with redirect_uri and PKCE)',
    run: (db) =>
      new GrantRepository(db).exchange(
        'code-hash',
        { clientId: 'client', redirectUri: 'https://app.example/cb', codeChallenge: 'challenge', dpopJkt: null },
        { id: 'sid', current_jti: 'jti', created_at: 1, offline: { expires_at: 2, refresh_ttl: 3 }, online: { expires_at: 4, refresh_ttl: null } },
        5,
      ),
  },
  {
    name: 'authorization code exchange (no redirect_uri, no PKCE)',
    run: (db) =>
      new GrantRepository(db).exchange(
        'code-hash',
        { clientId: 'client', redirectUri: undefined, codeChallenge: null, dpopJkt: null },
        { id: 'sid', current_jti: 'jti', created_at: 1, offline: { expires_at: 2, refresh_ttl: 3 }, online: { expires_at: 4, refresh_ttl: null } },
        5,
      ),
  },
  {
    // RFC 9449 §10: with a DPoP proof, a code bound to a key (dpop_jkt) matches only that key's.
    name: 'authorization code exchange with a DPoP proof',
    run: (db) =>
      new GrantRepository(db).exchange(
        'code-hash',
        { clientId: 'client', redirectUri: 'https://app.example/cb', codeChallenge: 'challenge', dpopJkt: 'thumbprint' },
        { id: 'sid', current_jti: 'jti', created_at: 1, offline: { expires_at: 2, refresh_ttl: 3 }, online: { expires_at: 4, refresh_ttl: null } },
        5,
      ),
  },
  { name: 'authorization code replay marked (RFC 6749 §4.1.2: revoke what it produced)', run: (db) => new GrantRepository(db).markReused('code-hash', 5) },
  // Refresh rotation (RFC 9700 §4.14.2): only the holder of the current jti moves the family on.
  { name: 'refresh token rotation', run: (db) => new SessionRepository(db).rotate('sid', 'old-jti', 'new-jti', 5, 6) },
  // The token endpoint's refresh in one statement: the same rotation rule on a live family, the grant read with it (user and app compared on the row).
  {
    name: 'refresh token rotation of an app family (token endpoint)',
    run: (db) => new GrantRepository(db).rotateAppFamily({ sid: 'sid', userId: 'user', clientId: 'client', fromJti: 'old-jti', toJti: 'new-jti', now: 5, siteRefreshTtl: 6 }),
  },
  // Decision 027: on PostgreSQL, calls that arrive while one runs go together as one
  // statement over arrays, with the same rules. Three calls at once: the first runs
  // alone, the two queued behind it as one batch (the second statement recorded).
  {
    name: 'authorization code exchanges batched (PostgreSQL, decision 027)',
    dialects: ['postgres'],
    run: (db) => {
      const grants = new GrantRepository(db);
      return Promise.all(
        ['a', 'b', 'c'].map((id) =>
          grants.exchange(
            `code-hash-${id}`,
            { clientId: 'client', redirectUri: 'https://app.example/cb', codeChallenge: 'challenge', dpopJkt: null },
            { id: `sid-${id}`, current_jti: `jti-${id}`, created_at: 1, offline: { expires_at: 2, refresh_ttl: 3 }, online: { expires_at: 4, refresh_ttl: null } },
            5,
          ),
        ),
      );
    },
  },
  {
    name: 'refresh token rotations of app families batched (PostgreSQL, decision 027)',
    dialects: ['postgres'],
    run: (db) => {
      const grants = new GrantRepository(db);
      return Promise.all(['a', 'b', 'c'].map((id) => grants.rotateAppFamily({ sid: `sid-${id}`, userId: 'user', clientId: 'client', fromJti: `old-${id}`, toJti: `new-${id}`, now: 5, siteRefreshTtl: 6 })));
    },
  },
  // The guess limit: one atomic reserve that refuses while locked (issue 11 defect 1).
  { name: 'throttle reserve', run: (db) => new SqlThrottleStore(db).reserve('acct:someone@example.com', ACCOUNT_POLICY, 5, 0) },
  // Quota: a reservation never passes the quota, in one statement.
  { name: 'quota reserve', run: (db) => new UsageRepository(db).reserve('user', 10, 100) },
];

function render(dialect: 'sqlite' | 'postgres', recorded: { name: string; statements: string[] }[]): string {
  const parts = [`-- Generated by server/test/unit/sql-snapshots.test.ts (${dialect}). Review changes; do not edit by hand.\n`];
  for (const { name, statements } of recorded) {
    parts.push(`\n-- ${name}\n`);
    for (const s of statements) parts.push(`${s.replace(/\s+/g, ' ').trim()};\n`);
  }
  return parts.join('');
}

describe('SQL snapshots of the rule-carrying statements (issue 13 item 4)', () => {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    it(`${dialect}: the statements match server/test/sql/${dialect}.sql`, async () => {
      const recorded: { name: string; statements: string[] }[] = [];
      for (const c of cases) {
        if (c.dialects && !c.dialects.includes(dialect)) continue;
        const sink: string[] = [];
        // No rows come back, so some calls end in "not found" errors after their statements: the statements are what counts.
        await c.run(recordingDb(dialect, sink)).catch(() => undefined);
        assert.ok(sink.length > 0, `${c.name}: no statement recorded`);
        recorded.push({ name: c.name, statements: sink });
      }
      const actual = render(dialect, recorded);
      const file = path.join(snapshotDir, `${dialect}.sql`);
      if (process.env.CIRRUS_UPDATE_SQL_SNAPSHOTS === '1') writeFileSync(file, actual);
      assert.equal(actual, readFileSync(file, 'utf8'), `SQL changed; review it and regenerate (see the top of this file)`);
    });
  }

  it('the exchange keeps its rules in the SQL itself (an unmatched code never starts a family)', () => {
    const pg = readFileSync(path.join(snapshotDir, 'postgres.sql'), 'utf8');
    const exchange = pg.split('\n-- ')[1]!;
    for (const rule of ['"used_at" is null', '"client_id" = $', '"expires_at" > $', '"code_challenge" = $', '"redirect_uri" = $', '"dpop_jkt" is null']) {
      assert.ok(exchange.includes(rule), `exchange lacks ${rule}`);
    }
    // The batched exchange (decision 027) applies the same rules to each request's row of values.
    const batched = pg.split('\n-- ').find((part) => part.startsWith('authorization code exchanges batched'))!.split('\n')[2]!;
    for (const rule of ['"used_at" is null', '"client_id" = "req"."clientId"', '"expires_at" > "req"."now"', '"code_challenge" = "req"."codeChallenge"', '"redirect_uri" = "req"."redirectUri"', '"dpop_jkt" is null']) {
      assert.ok(batched.includes(rule), `batched exchange lacks ${rule}`);
    }
  });
});
