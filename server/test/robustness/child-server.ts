// A real Cirrus process (the built `serve` command) that a test can kill -9,
// then start again on the same data directory and database, as an operator
// pulling the plug would. Plus direct database reads, used only to observe
// state a crash left behind (reservations, recorded offsets).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createPgDatabase } from '../helpers/harness.js';
import type { DatabaseConfig } from '../../src/config.js';

const MAIN = path.resolve('dist/server/src/main.js');

async function freePort(): Promise<number> {
  const srv = createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const port = (srv.address() as { port: number }).port;
  srv.close();
  await once(srv, 'close');
  return port;
}

export class ChildSite {
  readonly dataDir = mkdtempSync(path.join(tmpdir(), 'cirrus-crash-'));
  dialect: 'sqlite' | 'postgres' = 'sqlite';
  url = '';
  private dbUrl: string | undefined;
  private dropDb: (() => Promise<void>) | undefined;
  private proc: ChildProcess | null = null;
  private pgClient: pg.Client | null = null;
  private sqlite: SQLite.Database | null = null;

  async init(): Promise<void> {
    const adminUrl = process.env.CIRRUS_TEST_DATABASE_URL;
    if (adminUrl) {
      const created = await createPgDatabase(adminUrl);
      this.dbUrl = created.url;
      this.dropDb = created.drop;
      this.dialect = 'postgres';
    }
  }

  /** Starts a server process and waits until it answers. */
  async start(): Promise<void> {
    const port = await freePort();
    this.url = `http://127.0.0.1:${port}`;
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      CIRRUS_DATA_DIR: this.dataDir,
      CIRRUS_PORT: String(port),
      CIRRUS_HOST: '127.0.0.1',
      CIRRUS_BASE_URL: this.url,
      CIRRUS_ADMIN_EMAIL: ADMIN_EMAIL,
      CIRRUS_ADMIN_PASSWORD: ADMIN_PASSWORD,
      CIRRUS_LOG_LEVEL: 'error',
    };
    if (this.dbUrl) env.CIRRUS_DATABASE_URL = this.dbUrl;
    const proc = spawn(process.execPath, [MAIN, 'serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    this.proc = proc;
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}`);
      try {
        const res = await fetch(`${this.url}/api/v4/site/ping`);
        if (res.ok) return;
      } catch {
        /* not listening yet */
      }
      if (Date.now() > deadline) throw new Error('server did not start within 60 s');
      await sleep(100);
    }
  }

  /** kill -9: no cleanup of any kind runs in the process. */
  async kill9(): Promise<void> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill('SIGKILL');
    await once(proc, 'exit');
    this.proc = null;
  }

  async stop(): Promise<void> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
    await once(proc, 'exit');
    clearTimeout(timer);
    this.proc = null;
  }

  /** Where this server keeps its data, as its config names it. */
  get database(): DatabaseConfig {
    return this.dbUrl ? { kind: 'postgres', url: this.dbUrl } : { kind: 'sqlite', file: path.join(this.dataDir, 'cirrus.db') };
  }

  /** A second database connection (PostgreSQL), e.g. to hold a row lock. */
  async pgConnection(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.dbUrl });
    await client.connect();
    return client;
  }

  /** A second SQLite connection that may write (to hold the write lock); it never waits for a lock. */
  sqliteWriter(): SQLite.Database {
    return new SQLite(path.join(this.dataDir, 'cirrus.db'), { fileMustExist: true, timeout: 0 });
  }

  /** A read-only SQLite connection of the test's own (to poll without waiting on the event loop). */
  sqliteReader(): SQLite.Database {
    return new SQLite(path.join(this.dataDir, 'cirrus.db'), { readonly: true, fileMustExist: true });
  }

  /** Reads rows straight from the database (read-only use). */
  async query<T>(sqlText: string, params: unknown[] = []): Promise<T[]> {
    if (this.dialect === 'postgres') {
      this.pgClient ??= await this.pgConnection();
      let i = 0;
      return (await this.pgClient.query(sqlText.replace(/\?/g, () => `$${++i}`), params)).rows as T[];
    }
    this.sqlite ??= new SQLite(path.join(this.dataDir, 'cirrus.db'), { readonly: true, fileMustExist: true });
    return this.sqlite.prepare(sqlText).all(...params) as T[];
  }

  stagingCount(): number {
    return readdirSync(path.join(this.dataDir, 'files', 'staging')).length;
  }

  async close(): Promise<void> {
    await this.stop();
    await this.pgClient?.end();
    this.sqlite?.close();
    await this.dropDb?.();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` every 200 ms until it returns a value other than undefined, or fails after `ms`. */
export async function waitFor<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(200);
  }
}
