// Several real Cirrus processes (the built `serve` command) serving one site,
// as an operator runs them behind a load balancer: one PostgreSQL database,
// one S3 bucket, one Redis, and a data directory of each instance's own (so
// nothing can work by sharing local files). Each instance can be stopped with
// SIGTERM or SIGKILL and started again.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createPgDatabase } from './harness.js';
import { freePort } from './redis.js';
import { ROOT_DIR } from '../../src/paths.js';

const MAIN = path.join(ROOT_DIR, 'dist/server/src/main.js');
const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * The PostgreSQL server the multi-instance tests create their database on:
 * CIRRUS_TEST_DATABASE_URL, else the machine's default one when it answers.
 * `skip` says why the tests cannot run when there is none.
 */
export async function pgForInstances(): Promise<{ url: string; skip?: undefined } | { url?: undefined; skip: string }> {
  const url = process.env.CIRRUS_TEST_DATABASE_URL || DEFAULT_PG;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return { url };
  } catch (err) {
    return { skip: `several instances need one PostgreSQL database; none answers at ${redact(url)} (${(err as Error).message}): set CIRRUS_TEST_DATABASE_URL` };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Why the multi-instance tests cannot run here, or undefined when they can. */
export async function instancesSkipReason(): Promise<string | undefined> {
  if (!existsSync(MAIN)) return `${path.relative(ROOT_DIR, MAIN)} is missing: run \`npm run build:server\` first`;
  const onPath = (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(path.join(dir, 'redis-server')));
  if (!onPath) return 'redis-server is not installed';
  return (await pgForInstances()).skip;
}

function redact(url: string): string {
  const u = new URL(url);
  u.password = u.password ? '***' : '';
  return u.toString();
}

export class Instance {
  url = '';
  private proc: ChildProcess | null = null;
  private readonly dataDir = mkdtempSync(path.join(tmpdir(), 'cirrus-inst-'));
  /** What the process wrote to stderr (errors only: the log level is "error"). */
  stderr = '';

  constructor(private readonly env: Record<string, string>) {}

  get pid(): number | undefined {
    return this.proc?.pid;
  }

  get running(): boolean {
    return this.proc !== null && this.proc.exitCode === null && this.proc.signalCode === null;
  }

  /** Starts the process and waits until it answers /api/v4/site/ping. */
  async start(timeoutMs = 60_000): Promise<void> {
    const port = await freePort();
    this.url = `http://127.0.0.1:${port}`;
    const proc = spawn(process.execPath, [MAIN, 'serve'], {
      // A caller's CIRRUS_DATA_DIR wins: instances sharing one SQLite file (startOneSite).
      env: { PATH: process.env.PATH ?? '', ...this.env, CIRRUS_DATA_DIR: this.env.CIRRUS_DATA_DIR ?? this.dataDir, CIRRUS_PORT: String(port), CIRRUS_HOST: '127.0.0.1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.proc = proc;
    proc.stderr!.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-20_000);
    });
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`instance exited with ${proc.exitCode ?? proc.signalCode}: ${this.stderr.slice(-2000)}`);
      try {
        if ((await fetch(`${this.url}/api/v4/site/ping`)).ok) return;
      } catch {
        /* not listening yet */
      }
      if (Date.now() > deadline) throw new Error(`instance did not answer within ${timeoutMs} ms`);
      await sleep(100);
    }
  }

  /** Sends `signal` and resolves with the exit code (null when killed by a signal). */
  async signal(signal: NodeJS.Signals, timeoutMs = 45_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const proc = this.proc;
    if (!proc || !this.running) return { code: proc?.exitCode ?? null, signal: proc?.signalCode ?? null };
    const exited = once(proc, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    proc.kill(signal);
    const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
    const [code, sig] = await exited;
    clearTimeout(timer);
    return { code, signal: sig };
  }

  async close(): Promise<void> {
    await this.signal('SIGKILL');
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/**
 * `count` instances of one site, started one after the other (the first
 * creates it), on the database the suite runs on: one PostgreSQL database
 * with CIRRUS_TEST_DATABASE_URL, else one SQLite file (and storage) in a data
 * directory they share. Needs no Redis (createInstances does).
 */
export async function startOneSite(count: number): Promise<{ list: Instance[]; close(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cirrus-site-'));
  const pgUrl = process.env.CIRRUS_TEST_DATABASE_URL;
  const pgDb = pgUrl ? await createPgDatabase(pgUrl) : undefined;
  const env = {
    CIRRUS_ADMIN_EMAIL: ADMIN_EMAIL,
    CIRRUS_ADMIN_PASSWORD: ADMIN_PASSWORD,
    CIRRUS_LOG_LEVEL: 'error',
    CIRRUS_BASE_URL: 'http://cirrus.test',
    ...(pgDb ? { CIRRUS_DATABASE_URL: pgDb.url } : { CIRRUS_DATA_DIR: dataDir }),
  };
  const list: Instance[] = [];
  const close = async () => {
    for (const i of list) await i.close();
    await pgDb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < count; i++) {
      const instance = new Instance(env);
      list.push(instance);
      await instance.start();
    }
  } catch (err) {
    await close();
    throw err;
  }
  return { list, close };
}

export interface Instances {
  list: Instance[];
  dbUrl: string;
  /** Starts every instance at the same time and waits until all answer. */
  startAll(): Promise<void>;
  /** On a connection of the test's own to the site's database. */
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/** A fresh database and `count` instances configured for it, not started yet. */
export async function createInstances(count: number, env: Record<string, string>): Promise<Instances> {
  const server = await pgForInstances();
  if (!server.url) throw new Error(server.skip);
  const db = await createPgDatabase(server.url);
  const shared: Record<string, string> = {
    CIRRUS_DATABASE_URL: db.url,
    CIRRUS_ADMIN_EMAIL: ADMIN_EMAIL,
    CIRRUS_ADMIN_PASSWORD: ADMIN_PASSWORD,
    CIRRUS_LOG_LEVEL: process.env.CIRRUS_TEST_LOG_LEVEL ?? 'error',
    // The load balancer's public URL, the same for every instance.
    CIRRUS_BASE_URL: 'http://cirrus.test',
    ...env,
  };
  const list = Array.from({ length: count }, () => new Instance(shared));
  let client: pg.Client | null = null;
  return {
    list,
    dbUrl: db.url,
    async startAll() {
      await Promise.all(list.map((i) => i.start()));
    },
    async query<T>(text: string, params: unknown[] = []) {
      if (!client) {
        client = new pg.Client({ connectionString: db.url });
        await client.connect();
      }
      return (await client.query(text, params)).rows as T[];
    },
    async close() {
      await Promise.all(list.map((i) => i.close()));
      await client?.end().catch(() => undefined);
      await db.drop();
    },
  };
}

/**
 * Creates a fresh database and starts `count` instances on it at the same
 * time (so that start-up against an empty database is exercised too).
 */
export async function startInstances(count: number, env: Record<string, string>): Promise<Instances> {
  const site = await createInstances(count, env);
  try {
    await site.startAll();
  } catch (err) {
    await site.close();
    throw err;
  }
  return site;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
