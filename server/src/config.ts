// The one place that reads configuration: environment variables, optionally
// layered over a JSON file named by CIRRUS_CONFIG. Everything else receives a
// typed, validated Config object.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Value } from 'typebox/value';
import { ROOT_DIR } from './paths.js';
import { Email, Password } from './http/schemas.js';

export type DatabaseConfig =
  | { kind: 'sqlite'; file: string }
  | { kind: 'postgres'; url: string };

export interface Config {
  host: string;
  port: number;
  baseUrl: string;
  dataDir: string;
  database: DatabaseConfig;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  logLevel: string;
  trustProxy: boolean;
  /** Where the built web app lives; served at / when present. */
  webDir: string;
}

export class ConfigError extends Error {}

type Source = Record<string, string | undefined>;

function readFileSource(env: Source): Source {
  const file = env.CIRRUS_CONFIG;
  if (!file) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError(`cannot read config file ${file}: ${(err as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigError(`config file ${file} must hold a JSON object of CIRRUS_* keys`);
  }
  const out: Source = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (!key.startsWith('CIRRUS_')) throw new ConfigError(`config file key ${key} is not a CIRRUS_* setting`);
    out[key] = value === null || value === undefined ? undefined : String(value);
  }
  return out;
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 5212;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`CIRRUS_PORT must be 0-65535, got ${raw}`);
  return port;
}

function parseBool(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got ${raw}`);
}

export function loadConfig(env: Source = process.env): Config {
  const merged: Source = { ...readFileSource(env), ...stripEmpty(env) };
  const port = parsePort(merged.CIRRUS_PORT);
  const host = merged.CIRRUS_HOST || '0.0.0.0';
  const dataDir = path.resolve(merged.CIRRUS_DATA_DIR || './data');
  const dbUrl = merged.CIRRUS_DATABASE_URL;
  let database: DatabaseConfig;
  if (dbUrl && /^postgres(ql)?:\/\//.test(dbUrl)) database = { kind: 'postgres', url: dbUrl };
  else if (dbUrl) throw new ConfigError('CIRRUS_DATABASE_URL must be a postgres:// URL (leave it unset for the embedded SQLite database)');
  else database = { kind: 'sqlite', file: path.join(dataDir, 'cirrus.db') };
  const baseUrl = (merged.CIRRUS_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    new URL(baseUrl);
  } catch {
    throw new ConfigError(`CIRRUS_BASE_URL is not a URL: ${baseUrl}`);
  }
  // The first administrator obeys the same rules as every other account: a
  // weak or malformed value stops start-up instead of creating a weak admin.
  if (merged.CIRRUS_ADMIN_EMAIL !== undefined && !Value.Check(Email, merged.CIRRUS_ADMIN_EMAIL)) {
    throw new ConfigError('CIRRUS_ADMIN_EMAIL must be an e-mail address of at most 254 characters');
  }
  if (merged.CIRRUS_ADMIN_PASSWORD !== undefined && !Value.Check(Password, merged.CIRRUS_ADMIN_PASSWORD)) {
    throw new ConfigError('CIRRUS_ADMIN_PASSWORD must be 8 to 128 characters, without NUL (the same rule as every password)');
  }
  return {
    host,
    port,
    baseUrl,
    dataDir,
    database,
    adminEmail: merged.CIRRUS_ADMIN_EMAIL,
    adminPassword: merged.CIRRUS_ADMIN_PASSWORD,
    logLevel: merged.CIRRUS_LOG_LEVEL || 'info',
    trustProxy: parseBool('CIRRUS_TRUST_PROXY', merged.CIRRUS_TRUST_PROXY, false),
    webDir: path.resolve(merged.CIRRUS_WEB_DIR || path.join(ROOT_DIR, 'web/dist')),
  };
}

function stripEmpty(env: Source): Source {
  const out: Source = {};
  for (const [k, v] of Object.entries(env)) if (k.startsWith('CIRRUS_') && v !== undefined && v !== '') out[k] = v;
  return out;
}
