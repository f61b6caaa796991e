// Helpers of the foundation suite that a real client or operator would have:
// RFC 6238 codes computed from the enrolment secret, HS256 tokens signed with
// node:crypto, requests from another loopback address, a fresh database for
// the command line, and a server whose log lines are captured.
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { readableLogStream } from '../../src/ops/readable-log.js';
import type { TestServer } from '../helpers/harness.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createPgDatabase } from '../helpers/harness.js';
import { INJECT_ORIGIN, injectFetch, type InjectedServer } from '../helpers/inject.js';
import type { ApiResponse } from '../helpers/client.js';

/** RFC 3339 date-time with an explicit offset (`Z` or ±hh:mm). */
export const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

// ---- RFC 6238 (TOTP, SHA-1, 6 digits, 30 s) written from the RFC, not imported from the server.

function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of text.replace(/=+$/, '').toUpperCase()) {
    const idx = alphabet.indexOf(ch);
    if (idx < 0) throw new Error(`not base32: ${ch}`);
    value = ((value << 5) | idx) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 4226 §5.3 HOTP over the RFC 6238 time step. */
export function totp(secretBase32: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', base32Decode(secretBase32)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const bin = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(bin % 1_000_000).padStart(6, '0');
}

export const currentStep = (): number => Math.floor(Date.now() / 30_000);

/** Waits until at least `marginMs` remain in the current 30 s step, so a short sequence of codes stays in one step. */
export async function awayFromStepEdge(marginMs = 5000): Promise<void> {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < marginMs) await sleep(left + 50);
}

// ---- JWTs built by hand, the way a debugging client or an attacker would.

export const b64url = (value: unknown): string => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

export function signJwt(key: string | Buffer, claims: Record<string, unknown>, header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT' }, hash = 'sha256'): string {
  const input = `${b64url(header)}.${b64url(claims)}`;
  return `${input}.${createHmac(hash, key).update(input).digest('base64url')}`;
}

export async function readMasterKey(server: TestServer): Promise<string> {
  const row = await server.built.services.db.selectFrom('settings').select('value').where('name', '=', 'secret_key').executeTakeFirstOrThrow();
  return row.value;
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until `probe` returns true or `timeoutMs` passes; returns whether it did. */
export async function eventually(probe: () => Promise<boolean>, timeoutMs = 5000, everyMs = 100): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(everyMs);
  }
}

/**
 * A JSON request from a chosen loopback source address: over a socket bound to
 * it (Linux routes all of 127/8 to lo), or, for an injected server, as the
 * client address app.inject reports.
 */
export async function postFrom(localAddress: string, server: TestServer | InjectedServer, urlPath: string, json: unknown): Promise<ApiResponse<{ code: number; data: unknown; msg: string }>> {
  if ('transport' in server && server.transport === 'inject') {
    const res = await injectFetch(server.built.app, server.url, { remoteAddress: localAddress })(urlPath, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(json),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: JSON.parse(text) as { code: number; data: unknown; msg: string }, text };
  }
  return postOverSocket(localAddress, server.url, urlPath, json);
}

function postOverSocket(localAddress: string, baseUrl: string, urlPath: string, json: unknown): Promise<ApiResponse<{ code: number; data: unknown; msg: string }>> {
  const url = new URL(urlPath, baseUrl);
  const body = JSON.stringify(json);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
          resolve({ status: res.statusCode ?? 0, headers, body: JSON.parse(text) as { code: number; data: unknown; msg: string }, text });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

// ---- Fresh databases and a server with captured logs.

export interface FreshDatabase {
  dataDir: string;
  /** CIRRUS_* variables that point a process at this database. */
  env: Record<string, string>;
  dialect: 'sqlite' | 'postgres';
  drop(): Promise<void>;
}

export async function freshDatabase(): Promise<FreshDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cirrus-foundation-'));
  const adminUrl = process.env.CIRRUS_TEST_DATABASE_URL;
  if (!adminUrl) {
    return { dataDir, env: { CIRRUS_DATA_DIR: dataDir }, dialect: 'sqlite', drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const pgDb = await createPgDatabase(adminUrl);
  return {
    dataDir,
    env: { CIRRUS_DATA_DIR: dataDir, CIRRUS_DATABASE_URL: pgDb.url },
    dialect: 'postgres',
    async drop() {
      await pgDb.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface LoggedServer extends InjectedServer {
  /** Every log line written so far, as written. */
  logs(): string;
}

/** Like startInjectedServer (no socket), with logging on at `trace` and every line captured. */
/** readable: the log goes through ops/readable-log.ts (as on a terminal) before it is captured. */
export async function startLoggedServer(opts: { readable?: boolean } = {}): Promise<LoggedServer> {
  const db = await freshDatabase();
  const config = loadConfig({
    CIRRUS_PORT: '0',
    CIRRUS_HOST: '127.0.0.1',
    CIRRUS_BASE_URL: INJECT_ORIGIN,
    CIRRUS_ADMIN_EMAIL: ADMIN_EMAIL,
    CIRRUS_ADMIN_PASSWORD: ADMIN_PASSWORD,
    CIRRUS_LOG_LEVEL: 'trace',
    ...db.env,
  });
  const chunks: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
  const built = await buildApp(config, { logStream: opts.readable ? readableLogStream(stream, false) : stream });
  await built.app.ready();
  return {
    url: INJECT_ORIGIN,
    transport: 'inject',
    fetch: injectFetch(built.app, INJECT_ORIGIN),
    built,
    config,
    dialect: db.dialect,
    clock: built.services.clock,
    logs: () => chunks.join(''),
    async close() {
      await built.app.close();
      await db.drop();
    },
  };
}
