// Starts a real Cirrus server on a loopback port for one test file, on
// SQLite (a fresh temp data dir) or, when CIRRUS_TEST_DATABASE_URL is set, on
// a fresh PostgreSQL database created for this server and dropped after it.
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
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp, type BuiltApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
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

export async function createPgDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `cirrus_t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * The app for one test file, built but not listening: a fresh data dir and,
 * with CIRRUS_TEST_DATABASE_URL, a fresh PostgreSQL database; close() stops
 * the app and removes both. `env` is applied over the test defaults.
 */
export async function buildTestApp(env: Record<string, string>, options: StartOptions = {}): Promise<Omit<TestServer, 'url'>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cirrus-test-'));
  const pgAdminUrl = process.env.CIRRUS_TEST_DATABASE_URL;
  const pgDb = pgAdminUrl ? await createPgDatabase(pgAdminUrl) : undefined;
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
      await built.app.close();
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
