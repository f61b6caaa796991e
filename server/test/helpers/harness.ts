// Starts a real Cirrus server on a loopback port for one test file, on
// SQLite (a fresh temp data dir) or, when CIRRUS_TEST_DATABASE_URL is set, on
// a fresh PostgreSQL database (a copy of a migrated template) created for this server and dropped after it.
//
// Which transport a test uses (issue 13):
// - app.inject (startInjectedServer in inject.ts; `server.fetch`, or
//   `new Api(server)`): route tests of the JSON API, OAuth endpoints, shares,
//   admin, site, file listings and downloads, WebDAV accounts. The request
//   runs through the whole app (hooks, parsers, schemas, error mapping)
//   without a socket: faster, and no ports or connection timing involved.
// - a listening socket (startServer here): whatever needs what only a
//   socket has. Browser tests (Chromium loads the pages); WebDAV protocol,
//   failures, quirks, litmus, rclone and cadaver (curl and other external
//   clients, chunked responses, raw requests); the OAuth flow (openid-client
//   discovers and calls a URL); robustness (Node's HTTP parser, fuzzing,
//   aborts, crashed children); uploads and tus (cut connections, streamed
//   request bodies); scale and S3 (several processes, fault injection);
//   metrics (bytes counted on the connection); the command line and config
//   tests (a child process serving).
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp, type BuiltApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createDb } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import type { Clock } from '../../src/core/clock.js';
import { freePort } from '../../src/ops/free-port.js';

export const ADMIN_EMAIL = 'admin@example.com';
export const ADMIN_PASSWORD = 'admin-password-123';

export interface TestServer {
  url: string;
  built: BuiltApp;
  config: Config;
  dialect: 'sqlite' | 'postgres';
  /** The clock every service reads (the one given to startServer, or the system clock). */
  clock: Clock;
  close(): Promise<void>;
}

export interface StartOptions {
  /** A ManualClock (src/core/clock.ts) lets a test move time instead of rewriting rows or sleeping. */
  clock?: Clock;
}

/**
 * A new PostgreSQL database on the server `adminUrl` names, dropped by `drop`.
 * Empty, or with `migrated` a copy of a template database that has every
 * migration applied: migrating a new database costs about 450 ms, copying the
 * template about 150 (docs/testing.md). Tests of migrations and of first start
 * ask for an empty one.
 */
export async function createPgDatabase(adminUrl: string, options: { migrated?: boolean } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `cirrus_t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const template = options.migrated ? await migratedTemplate(adminUrl) : undefined;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    if (template) {
      // CREATE DATABASE refuses a template any other session is connected to; none is (it is migrated under
      // another name and renamed when done). Copies also wait for a template being made, under its lock.
      await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    } else {
      await admin.query(`CREATE DATABASE ${name}`);
    }
  } finally {
    await admin.end();
  }
  return {
    url: databaseUrl(adminUrl, name),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** pg_advisory_lock key under which templates are made and copied ("tmpl"). */
const TEMPLATE_LOCK = 0x746d706c;
let templateName: Promise<string> | undefined;

/**
 * The name of a database with every migration applied, made once on the
 * server and named by a hash of the migrations' code, so a changed migration
 * never reuses an old template. Made under an advisory lock (test files run in
 * parallel), migrated under another name and renamed when complete, so a run
 * cut short leaves no half-migrated template behind.
 */
function migratedTemplate(adminUrl: string): Promise<string> {
  templateName ??= (async () => {
    const hash = createHash('sha256');
    for (const [id, m] of Object.entries(migrations)) hash.update(`${id}\n${String(m.up)}\n`);
    const name = `cirrus_template_${hash.digest('hex').slice(0, 16)}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount === 0) {
        const building = `${name}_building`;
        await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
        await admin.query(`CREATE DATABASE ${building}`);
        const db = createDb({ kind: 'postgres', url: databaseUrl(adminUrl, building) });
        try {
          await migrateToLatest(db);
        } finally {
          await db.destroy();
        }
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      }
    } finally {
      await admin.end();
    }
    return name;
  })();
  return templateName;
}

/**
 * The app for one test file, built but not listening: a fresh data dir and,
 * with CIRRUS_TEST_DATABASE_URL, a fresh PostgreSQL database; close() stops
 * the app and removes both. `env` is applied over the test defaults.
 */
export async function buildTestApp(env: Record<string, string>, options: StartOptions = {}): Promise<Omit<TestServer, 'url'>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cirrus-test-'));
  const pgAdminUrl = process.env.CIRRUS_TEST_DATABASE_URL;
  const pgDb = pgAdminUrl ? await createPgDatabase(pgAdminUrl, { migrated: true }) : undefined;
  const config = loadConfig({
    CIRRUS_DATA_DIR: dataDir,
    CIRRUS_PORT: '0',
    CIRRUS_HOST: '127.0.0.1',
    CIRRUS_ADMIN_EMAIL: ADMIN_EMAIL,
    CIRRUS_ADMIN_PASSWORD: ADMIN_PASSWORD,
    CIRRUS_LOG_LEVEL: process.env.CIRRUS_TEST_LOG_LEVEL ?? 'silent',
    ...(pgDb ? { CIRRUS_DATABASE_URL: pgDb.url } : {}),
    ...env,
  });
  const built = await buildApp(config, { clock: options.clock });
  return {
    built,
    config,
    dialect: pgDb ? 'postgres' : 'sqlite',
    clock: built.services.clock,
    async close() {
      // A connection a test left open (a refused body still being sent, an answer it did not read) would
      // hold app.close() until the keep-alive timeout (72 s): requests still running get 2 s, then it is cut.
      const cut = setTimeout(() => built.app.server.closeAllConnections(), 2000);
      try {
        await built.app.close();
      } finally {
        clearTimeout(cut);
      }
      await pgDb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function startServer(env: Record<string, string> = {}, options: StartOptions = {}): Promise<TestServer> {
  // The port is chosen before the build, so that config.baseUrl (the issuer,
  // share and signed URLs) names it from the start and is never patched.
  const port = await freePort('127.0.0.1');
  const server = await buildTestApp({ CIRRUS_PORT: String(port), ...env }, options);
  await server.built.app.listen({ host: '127.0.0.1', port });
  return { ...server, url: `http://127.0.0.1:${port}` };
}
