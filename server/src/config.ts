// The one place that reads configuration: environment variables, optionally
// layered over a JSON file named by CIRRUS_CONFIG. Everything else receives a
// typed, validated Config object.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { ROOT_DIR } from './paths.js';
import { Email, Password } from './http/schemas.js';

export type DatabaseConfig =
  | { kind: 'sqlite'; file: string }
  | { kind: 'postgres'; url: string };

export type StorageConfig =
  /**
   * fsync false (CIRRUS_BENCHMARK_NO_FSYNC): blobs are not flushed to the disk
   * before they count as stored. For benchmarks only, to compare with servers
   * that do not flush (Apache mod_dav); a crash may then lose stored files.
   */
  | { kind: 'local'; fsync?: false }
  | {
      kind: 's3';
      endpoint: string | undefined;
      region: string;
      bucket: string;
      accessKeyId: string | undefined;
      secretAccessKey: string | undefined;
      forcePathStyle: boolean;
      /** Downloads answered with a redirect to a presigned URL of the store. */
      presignedDownloads: boolean;
    };

/** The SMTP transport from the environment (api-contract §11); admin settings may fill in or override fields (mail/transport.ts). */
export interface MailEnvConfig {
  host: string | undefined;
  port: number;
  security: 'starttls' | 'tls' | 'none';
  user: string | undefined;
  password: string | undefined;
  from: string | undefined;
}

export interface Config {
  host: string;
  port: number;
  baseUrl: string;
  /** True when CIRRUS_BASE_URL was not set and baseUrl was derived from the listen address. */
  baseUrlDerived: boolean;
  dataDir: string;
  database: DatabaseConfig;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  logLevel: string;
  /** auto: readable lines when stdout is a terminal, pino JSON otherwise (ops/readable-log.ts). */
  logFormat: 'auto' | 'json' | 'pretty';
  trustProxy: boolean;
  /** Where the built web app lives; served at / when present. */
  webDir: string;
  /** Where file bytes live (api-contract §9). */
  storage: StorageConfig;
  /** Redis for revocations, throttles and cache invalidations across instances. */
  redisUrl: string | undefined;
  /** Bearer token that guards GET /metrics; unset: /metrics is 404. */
  metricsToken: string | undefined;
  /** SMTP from CIRRUS_SMTP_* and CIRRUS_MAIL_FROM. */
  mail: MailEnvConfig;
  /** CIRRUS_SIGNUP_EMAIL_VERIFICATION: the default of the admin setting signup_email_verification. */
  signupEmailVerification: boolean | undefined;
  /** CIRRUS_DPOP_NONCES: every DPoP proof must carry a server nonce (RFC 9449 §8, §9). */
  dpopNonces: boolean;
  /** What one account or token may hold open on an instance at once (docs/security.md "Long-lived connections"). */
  connections: ConnectionLimits;
  /** CIRRUS_CLAMAV (clamd's socket or address) and CIRRUS_CLAMAV_SCAN; unset: no scanning (docs/features/antivirus.md). */
  antivirus: AntivirusConfig | undefined;
  /** CIRRUS_LINK_UPLOAD_IDLE_MINUTES: an upload through an upload-request link that receives no bytes for this long expires (default 10). */
  linkUploadIdleMs: number;
  /**
   * CIRRUS_LINK_UPLOAD_PENDING_MB_PER_LINK / _PER_ADDRESS: the most bytes that
   * uploads through one upload-request link (or from one address through an
   * owner's links) may have reserved and not yet sent (defaults 10240 and 4096 MiB).
   */
  linkUploadPendingPerLink: number;
  linkUploadPendingPerAddress: number;
  /**
   * CIRRUS_BENCHMARK_RECORDING_OFF: no audit rows and no activity history are
   * written (bench/audit-cost.mjs measures what they cost). For benchmarks
   * only: a server run so keeps no record of what happened.
   */
  recordingOff: boolean;
}

export interface AntivirusConfig {
  /** As written: `unix:/path`, `/path`, `tcp://host:port` or `host:port` (antivirus/clamd.ts parses it). */
  clamd: string;
  /** links: uploads through upload-request links only; all: every upload. */
  scope: 'links' | 'all';
}

export interface ConnectionLimits {
  /** CIRRUS_MAX_STREAMS_PER_ACCOUNT: change-feed streams of one account. */
  streamsPerAccount: number;
  /** CIRRUS_MAX_STREAMS_PER_TOKEN: change-feed streams of one access token. */
  streamsPerToken: number;
  /** CIRRUS_MAX_UPLOADS_PER_ACCOUNT: upload bodies one account (or one upload-request link) sends at once. */
  uploadsPerAccount: number;
  /** CIRRUS_MAX_DOWNLOADS_PER_ACCOUNT: responses streaming file bytes to one account (or through one share link) at once. */
  downloadsPerAccount: number;
}

const DEFAULT_CONNECTIONS: ConnectionLimits = { streamsPerAccount: 50, streamsPerToken: 20, uploadsPerAccount: 20, downloadsPerAccount: 100 };

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

/**
 * Every setting, as the text it arrives in, with the rule it must follow. The
 * description is the error message's "must be …" part and the documentation
 * of the setting at once. Other CIRRUS_* settings are read by the features
 * that own them.
 */
const BOOLEAN = '^(1|0|[Tt]rue|TRUE|[Ff]alse|FALSE|[Yy]es|YES|[Nn]o|NO)$';

const Settings = Type.Object({
  CIRRUS_PORT: Type.Optional(Type.String({ pattern: '^[0-9]{1,5}$', description: 'a port number, 0 to 65535' })),
  CIRRUS_HOST: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'a listen address' })),
  CIRRUS_DATA_DIR: Type.Optional(Type.String({ minLength: 1, description: 'a directory path' })),
  CIRRUS_DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://', description: 'a postgres:// URL (leave it unset for the embedded SQLite database)' })),
  CIRRUS_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$', description: 'an http:// or https:// URL' })),
  CIRRUS_ADMIN_EMAIL: Type.Optional(Type.Unsafe<string>({ ...Email, description: 'an e-mail address of at most 254 characters' })),
  CIRRUS_ADMIN_PASSWORD: Type.Optional(Type.Unsafe<string>({ ...Password, description: '8 to 128 characters, without NUL (the same rule as every password)' })),
  CIRRUS_LOG_LEVEL: Type.Optional(Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)), { description: 'one of fatal, error, warn, info, debug, trace, silent' })),
  CIRRUS_LOG_FORMAT: Type.Optional(Type.Union([Type.Literal('auto'), Type.Literal('json'), Type.Literal('pretty')], { description: 'auto, json or pretty' })),
  CIRRUS_TRUST_PROXY: Type.Optional(Type.String({ pattern: '^(1|0|[Tt]rue|TRUE|[Ff]alse|FALSE|[Yy]es|YES|[Nn]o|NO)$', description: 'true or false' })),
  CIRRUS_WEB_DIR: Type.Optional(Type.String({ minLength: 1, description: 'a directory path' })),
  CIRRUS_STORAGE: Type.Optional(Type.Union([Type.Literal('local'), Type.Literal('s3')], { description: 'local or s3' })),
  CIRRUS_S3_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$', description: 'an http:// or https:// URL' })),
  CIRRUS_S3_REGION: Type.Optional(Type.String({ pattern: '^[a-z0-9-]{1,64}$', description: 'a region name such as us-east-1' })),
  CIRRUS_S3_BUCKET: Type.Optional(Type.String({ pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$', description: 'a bucket name (3 to 63 lower-case letters, digits, dots and hyphens)' })),
  CIRRUS_S3_ACCESS_KEY_ID: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'an access key id' })),
  CIRRUS_S3_SECRET_ACCESS_KEY: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'a secret access key' })),
  CIRRUS_S3_FORCE_PATH_STYLE: Type.Optional(Type.String({ pattern: BOOLEAN, description: 'true or false' })),
  CIRRUS_S3_PRESIGNED_DOWNLOADS: Type.Optional(Type.String({ pattern: BOOLEAN, description: 'true or false' })),
  CIRRUS_REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://', description: 'a redis:// or rediss:// URL' })),
  CIRRUS_METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16, maxLength: 256, description: 'a token of 16 to 256 characters' })),
  CIRRUS_SMTP_HOST: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9.:\\[\\]-]{1,255}$', description: 'a host name or address' })),
  CIRRUS_SMTP_PORT: Type.Optional(Type.String({ pattern: '^[0-9]{1,5}$', description: 'a port number, 1 to 65535' })),
  CIRRUS_SMTP_SECURITY: Type.Optional(Type.Union([Type.Literal('starttls'), Type.Literal('tls'), Type.Literal('none')], { description: 'starttls, tls or none' })),
  CIRRUS_SMTP_USER: Type.Optional(Type.String({ minLength: 1, maxLength: 256, pattern: '^[^\\u0000-\\u001f\\u007f]*$', description: 'a user name without control characters' })),
  CIRRUS_SMTP_PASSWORD: Type.Optional(Type.String({ minLength: 1, maxLength: 256, pattern: '^[^\\u0000-\\u001f\\u007f]*$', description: 'a password without control characters' })),
  CIRRUS_MAIL_FROM: Type.Optional(Type.String({ minLength: 3, maxLength: 320, pattern: '^[^\\u0000-\\u001f\\u007f]*@[^\\u0000-\\u001f\\u007f]*$', description: 'an address such as "Cirrus <noreply@example.org>" (one line)' })),
  CIRRUS_SIGNUP_EMAIL_VERIFICATION: Type.Optional(Type.String({ pattern: BOOLEAN, description: 'true or false' })),
  CIRRUS_DPOP_NONCES: Type.Optional(Type.String({ pattern: BOOLEAN, description: 'true or false' })),
  CIRRUS_MAX_STREAMS_PER_ACCOUNT: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,5}$', description: 'a whole number from 1 to 999999' })),
  CIRRUS_MAX_STREAMS_PER_TOKEN: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,5}$', description: 'a whole number from 1 to 999999' })),
  CIRRUS_MAX_UPLOADS_PER_ACCOUNT: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,5}$', description: 'a whole number from 1 to 999999' })),
  CIRRUS_MAX_DOWNLOADS_PER_ACCOUNT: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,5}$', description: 'a whole number from 1 to 999999' })),
  CIRRUS_CLAMAV: Type.Optional(Type.String({ pattern: '^((unix:)?/[^\\s]+|(tcp://)?([A-Za-z0-9.-]+|\\[[0-9A-Fa-f:.]+\\]):[0-9]{1,5})$', description: 'clamd\'s socket (unix:/path or /path) or address (tcp://host:port or host:port)' })),
  CIRRUS_LINK_UPLOAD_IDLE_MINUTES: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,3}$', description: 'a whole number of minutes from 1 to 9999' })),
  CIRRUS_LINK_UPLOAD_PENDING_MB_PER_LINK: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,7}$', description: 'a whole number of MiB from 1 to 99999999' })),
  CIRRUS_LINK_UPLOAD_PENDING_MB_PER_ADDRESS: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,7}$', description: 'a whole number of MiB from 1 to 99999999' })),
  CIRRUS_BENCHMARK_RECORDING_OFF: Type.Optional(Type.String({ pattern: BOOLEAN, description: 'true or false' })),
  CIRRUS_BENCHMARK_NO_FSYNC: Type.Optional(Type.String({ pattern: BOOLEAN, description: 'true or false' })),
  CIRRUS_CLAMAV_SCAN: Type.Optional(Type.Union([Type.Literal('links'), Type.Literal('all')], { description: 'links or all' })),
  CIRRUS_CONFIG: Type.Optional(Type.String()),
});

/** Secrets and URLs that may hold credentials: never repeated in an error. */
const SECRET_SETTINGS = new Set(['CIRRUS_ADMIN_PASSWORD', 'CIRRUS_DATABASE_URL', 'CIRRUS_S3_SECRET_ACCESS_KEY', 'CIRRUS_S3_ACCESS_KEY_ID', 'CIRRUS_REDIS_URL', 'CIRRUS_METRICS_TOKEN', 'CIRRUS_SMTP_PASSWORD']);

/** The first broken rule, as "NAME must be …, got …" (a password's value is never repeated). */
function checkSettings(source: Source): void {
  for (const error of Value.Errors(Settings, source)) {
    const name = error.instancePath.replace(/^\//, '');
    const field = (Settings.properties as Record<string, { description?: string; anyOf?: unknown }>)[name];
    if (!field) continue;
    const shown = SECRET_SETTINGS.has(name) ? '' : `, got ${JSON.stringify(source[name])}`;
    throw new ConfigError(`${name} must be ${field.description ?? 'valid'}${shown}`);
  }
}

const truthy = (raw: string | undefined) => raw !== undefined && ['1', 'true', 'yes'].includes(raw.toLowerCase());

export function loadConfig(env: Source = process.env): Config {
  const merged: Source = { ...readFileSource(env), ...stripEmpty(env) };
  checkSettings(merged);
  const port = Number(merged.CIRRUS_PORT ?? 5212);
  if (port > 65535) throw new ConfigError(`CIRRUS_PORT must be a port number, 0 to 65535, got "${merged.CIRRUS_PORT}"`);
  const host = merged.CIRRUS_HOST || '0.0.0.0';
  const dataDir = path.resolve(merged.CIRRUS_DATA_DIR || './data');
  const database: DatabaseConfig = merged.CIRRUS_DATABASE_URL
    ? { kind: 'postgres', url: merged.CIRRUS_DATABASE_URL }
    : { kind: 'sqlite', file: path.join(dataDir, 'cirrus.db') };
  const baseUrl = (merged.CIRRUS_BASE_URL || defaultBaseUrl(host, port)).replace(/\/+$/, '');
  try {
    new URL(baseUrl);
  } catch {
    throw new ConfigError(`CIRRUS_BASE_URL must be an http:// or https:// URL, got "${baseUrl}"`);
  }
  if (merged.CIRRUS_CLAMAV_SCAN && !merged.CIRRUS_CLAMAV) throw new ConfigError('CIRRUS_CLAMAV_SCAN needs CIRRUS_CLAMAV (the scanner to use)');
  let storage: StorageConfig = truthy(merged.CIRRUS_BENCHMARK_NO_FSYNC) ? { kind: 'local', fsync: false } : { kind: 'local' };
  if (merged.CIRRUS_STORAGE === 's3') {
    if (!merged.CIRRUS_S3_BUCKET) throw new ConfigError('CIRRUS_S3_BUCKET must be set when CIRRUS_STORAGE is s3');
    storage = {
      kind: 's3',
      endpoint: merged.CIRRUS_S3_ENDPOINT,
      region: merged.CIRRUS_S3_REGION || 'us-east-1',
      bucket: merged.CIRRUS_S3_BUCKET,
      accessKeyId: merged.CIRRUS_S3_ACCESS_KEY_ID,
      secretAccessKey: merged.CIRRUS_S3_SECRET_ACCESS_KEY,
      forcePathStyle: truthy(merged.CIRRUS_S3_FORCE_PATH_STYLE),
      presignedDownloads: truthy(merged.CIRRUS_S3_PRESIGNED_DOWNLOADS),
    };
  }
  return {
    host,
    port,
    baseUrl,
    baseUrlDerived: !merged.CIRRUS_BASE_URL,
    dataDir,
    database,
    adminEmail: merged.CIRRUS_ADMIN_EMAIL,
    adminPassword: merged.CIRRUS_ADMIN_PASSWORD,
    logLevel: merged.CIRRUS_LOG_LEVEL || 'info',
    logFormat: (merged.CIRRUS_LOG_FORMAT as Config['logFormat'] | undefined) || 'auto',
    trustProxy: truthy(merged.CIRRUS_TRUST_PROXY),
    webDir: path.resolve(merged.CIRRUS_WEB_DIR || path.join(ROOT_DIR, 'web/dist')),
    storage,
    redisUrl: merged.CIRRUS_REDIS_URL,
    metricsToken: merged.CIRRUS_METRICS_TOKEN,
    mail: {
      host: merged.CIRRUS_SMTP_HOST,
      port: smtpPort(merged.CIRRUS_SMTP_PORT),
      security: (merged.CIRRUS_SMTP_SECURITY as MailEnvConfig['security'] | undefined) ?? 'starttls',
      user: merged.CIRRUS_SMTP_USER,
      password: merged.CIRRUS_SMTP_PASSWORD,
      from: merged.CIRRUS_MAIL_FROM,
    },
    signupEmailVerification: merged.CIRRUS_SIGNUP_EMAIL_VERIFICATION === undefined ? undefined : truthy(merged.CIRRUS_SIGNUP_EMAIL_VERIFICATION),
    dpopNonces: truthy(merged.CIRRUS_DPOP_NONCES),
    connections: {
      streamsPerAccount: Number(merged.CIRRUS_MAX_STREAMS_PER_ACCOUNT ?? DEFAULT_CONNECTIONS.streamsPerAccount),
      streamsPerToken: Number(merged.CIRRUS_MAX_STREAMS_PER_TOKEN ?? DEFAULT_CONNECTIONS.streamsPerToken),
      uploadsPerAccount: Number(merged.CIRRUS_MAX_UPLOADS_PER_ACCOUNT ?? DEFAULT_CONNECTIONS.uploadsPerAccount),
      downloadsPerAccount: Number(merged.CIRRUS_MAX_DOWNLOADS_PER_ACCOUNT ?? DEFAULT_CONNECTIONS.downloadsPerAccount),
    },
    linkUploadIdleMs: Number(merged.CIRRUS_LINK_UPLOAD_IDLE_MINUTES ?? 10) * 60_000,
    linkUploadPendingPerLink: Number(merged.CIRRUS_LINK_UPLOAD_PENDING_MB_PER_LINK ?? 10_240) * 2 ** 20,
    linkUploadPendingPerAddress: Number(merged.CIRRUS_LINK_UPLOAD_PENDING_MB_PER_ADDRESS ?? 4096) * 2 ** 20,
    recordingOff: truthy(merged.CIRRUS_BENCHMARK_RECORDING_OFF),
    antivirus: merged.CIRRUS_CLAMAV ? { clamd: merged.CIRRUS_CLAMAV, scope: (merged.CIRRUS_CLAMAV_SCAN as AntivirusConfig['scope'] | undefined) ?? 'links' } : undefined,
  };
}

/**
 * The base URL when CIRRUS_BASE_URL is unset: the listen address itself, and
 * for a wildcard address `localhost`. Not the loopback literal: browsers
 * refuse WebAuthn (passkeys) on an IP address, and treat http://localhost as
 * a secure context. A browser treats http://localhost and http://127.0.0.1
 * as two origins (each with its own sign-in), so `serve` prints this one URL
 * and the origin people open is the issuer's (issue 11).
 */
export function defaultBaseUrl(host: string, port: number): string {
  const wildcard = host === '0.0.0.0' || host === '::' || host === '[::]';
  const name = wildcard ? 'localhost' : host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

function smtpPort(raw: string | undefined): number {
  const port = Number(raw ?? 587);
  if (port < 1 || port > 65535) throw new ConfigError(`CIRRUS_SMTP_PORT must be a port number, 1 to 65535, got "${raw}"`);
  return port;
}

function stripEmpty(env: Source): Source {
  const out: Source = {};
  for (const [k, v] of Object.entries(env)) if (k.startsWith('CIRRUS_') && v !== undefined && v !== '') out[k] = v;
  return out;
}
