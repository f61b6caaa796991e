// Login Flow v2 and v1 (api-contract §14): a sync client starts a flow without
// credentials, the person signs in to the web app and grants it, which makes a
// WebDAV account named after the client; the client then fetches that account's
// password once, by polling with a secret token only it holds (v2), or is sent
// it in an nc:// redirect (v1).
//
// Nothing in the database lets anyone but the client read the password: the
// row keeps the SHA-256 of the poll token (to find it) and an X25519 public
// key derived from the token; the grant seals the password to that key
// (ephemeral X25519 + HKDF-SHA256 + AES-256-GCM), and only a poll with the
// token can derive the private key to open it. Rows live in the database, so
// a flow may be started, granted and polled on different instances.
import { createCipheriv, createDecipheriv, createPrivateKey, createPublicKey, diffieHellman, generateKeyPairSync, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';
import { DomainError, ErrorCode, notFound } from '../core/errors.js';
import type { Clock } from '../core/clock.js';
import { safeEqual, sha256Hex } from '../crypto/compare.js';
import { secretToken, shortId } from '../crypto/random.js';
import type { Throttle, ThrottlePolicy } from '../throttle/service.js';
import type { DavAccountService } from '../webdav/accounts.js';
import type { LoginFlowRepository, LoginFlowRow } from './repository.js';

/** A flow is open for 20 minutes (§14). */
export const FLOW_TTL_MS = 20 * 60_000;
/** Client names are made from the User-Agent, at most this long. */
export const CLIENT_NAME_MAX = 100;
/** Wrong poll tokens per address: a 256-bit token cannot be guessed, this only bounds the cost of trying. */
const POLL_POLICY: ThrottlePolicy = { freeFailures: 50, maxLockMs: 15 * 60_000, windowMs: 15 * 60_000 };
/** Flows started per address (each is a row): plenty for a person trying again, not a table flood. */
const START_POLICY: ThrottlePolicy = { freeFailures: 30, maxLockMs: 10 * 60_000, windowMs: 10 * 60_000 };

const PKCS8_X25519 = Buffer.from('302e020100300506032b656e04220420', 'hex');
const SPKI_X25519 = Buffer.from('302a300506032b656e032100', 'hex');
const SEAL_INFO = 'cirrus login flow seal v1';

function privateKeyFromToken(token: string): KeyObject {
  const seed = Buffer.from(hkdfSync('sha256', token, Buffer.alloc(0), 'cirrus login flow key v1', 32));
  return createPrivateKey({ key: Buffer.concat([PKCS8_X25519, seed]), format: 'der', type: 'pkcs8' });
}

function rawPublic(key: KeyObject): Buffer {
  return (createPublicKey(key).export({ format: 'der', type: 'spki' }) as Buffer).subarray(SPKI_X25519.length);
}

function publicFromRaw(raw: Buffer): KeyObject {
  return createPublicKey({ key: Buffer.concat([SPKI_X25519, raw]), format: 'der', type: 'spki' });
}

function sealKey(shared: Buffer, ephemeral: Buffer, flowId: string): Buffer {
  return Buffer.from(hkdfSync('sha256', shared, ephemeral, `${SEAL_INFO} ${flowId}`, 32));
}

/** Seals `secret` to the flow's public key (`pk:...`); the result is `box:<eph>.<iv>.<tag>.<ciphertext>`. */
export function seal(publicField: string, flowId: string, secret: string): string {
  if (!publicField.startsWith('pk:')) throw new Error('login flow: no public key');
  const flowPublic = publicFromRaw(Buffer.from(publicField.slice(3), 'base64url'));
  const eph = generateKeyPairSync('x25519');
  const ephRaw = rawPublic(eph.privateKey);
  const key = sealKey(diffieHellman({ privateKey: eph.privateKey, publicKey: flowPublic }), ephRaw, flowId);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(flowId));
  const ct = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return 'box:' + [ephRaw, iv, cipher.getAuthTag(), ct].map((b) => b.toString('base64url')).join('.');
}

/** Opens a `box:` with the poll token; undefined when it does not open. */
export function open(sealed: string, flowId: string, token: string): string | undefined {
  if (!sealed.startsWith('box:')) return undefined;
  const [ephRaw, iv, tag, ct] = sealed.slice(4).split('.').map((p) => Buffer.from(p, 'base64url'));
  if (!ephRaw || !iv || !tag || !ct) return undefined;
  try {
    const key = sealKey(diffieHellman({ privateKey: privateKeyFromToken(token), publicKey: publicFromRaw(ephRaw) }), ephRaw, flowId);
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(Buffer.from(flowId));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ct), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** A readable name for the client behind a User-Agent, e.g. "Nextcloud desktop (Linux)". */
export function clientName(userAgent: string | undefined): string {
  // eslint-disable-next-line no-control-regex
  const ua = (userAgent ?? '').replace(/[\u0000-\u001f\u007f]/g, ' ').replace(/\s+/g, ' ').trim();
  const os = /\((Windows|Macintosh|Linux|FreeBSD)/i.exec(ua)?.[1];
  const platform = os ? ` (${os === 'Macintosh' ? 'macOS' : os})` : '';
  if (/mirall\//i.test(ua)) return `${/owncloud/i.test(ua) ? 'ownCloud' : 'Nextcloud'} desktop${platform}`;
  if (/Nextcloud-android/i.test(ua)) return 'Nextcloud Android';
  if (/Nextcloud-iOS/i.test(ua)) return 'Nextcloud iOS';
  if (/ownCloud-?android/i.test(ua)) return 'ownCloud Android';
  if (/ownCloud-?iOS/i.test(ua)) return 'ownCloud iOS';
  if (ua === '') return 'Sync client';
  const chars = [...ua];
  return chars.length > CLIENT_NAME_MAX ? chars.slice(0, CLIENT_NAME_MAX - 1).join('') + '…' : ua;
}

export interface FlowStart {
  id: string;
  token: string;
}

export interface FlowView {
  id: string;
  client_name: string;
  expires_at: string;
}

export interface Credentials {
  loginName: string;
  appPassword: string;
}

export interface LoginFlowPorts {
  /** The name a person signs in to /dav/ with (the e-mail); undefined when not an active person. */
  loginName(userId: string): Promise<string | undefined>;
}

const gone = () => notFound('This sign-in request is unknown or has expired');

export class LoginFlows {
  constructor(
    private readonly repo: LoginFlowRepository,
    private readonly accounts: DavAccountService,
    private readonly throttle: Throttle,
    private readonly ports: LoginFlowPorts,
    private readonly clock: Clock,
  ) {}

  /** A new flow for the client with this User-Agent; the token is the client's only. */
  async start(userAgent: string | undefined, address: string): Promise<FlowStart> {
    // Every start counts against the address (a falsy check is a counted attempt).
    await this.throttle.attempt([{ key: `login-flow-start:${address}`, policy: START_POLICY }], () => false);
    const token = secretToken(48);
    const id = shortId(24);
    const now = this.clock.now();
    await this.repo.insert({
      id,
      poll_hash: sha256Hex(token),
      client_name: clientName(userAgent),
      created_at: now,
      expires_at: now + FLOW_TTL_MS,
      user_id: null,
      login_name: null,
      sealed_password: 'pk:' + rawPublic(privateKeyFromToken(token)).toString('base64url'),
    });
    return { id, token };
  }

  private async open(id: string): Promise<LoginFlowRow> {
    const row = await this.repo.find(id);
    if (!row || row.user_id !== null || row.expires_at <= this.clock.now()) throw gone();
    return row;
  }

  /** What the grant page shows. */
  async view(id: string): Promise<FlowView> {
    const row = await this.open(id);
    return { id: row.id, client_name: row.client_name, expires_at: new Date(row.expires_at).toISOString() };
  }

  /** The person grants: a WebDAV account named after the client, its password sealed for the client's single poll. */
  async grant(userId: string, id: string): Promise<{ account_id: string; name: string }> {
    const row = await this.open(id);
    const loginName = await this.ports.loginName(userId);
    if (!loginName) throw new DomainError(ErrorCode.Forbidden, 'Not an active account');
    const { row: account, password } = await this.accounts.create(userId, { name: row.client_name });
    let granted = false;
    try {
      granted = await this.repo.grant(id, userId, loginName, seal(row.sealed_password ?? '', id, password), this.clock.now());
    } finally {
      // Cancelled, expired or granted elsewhere meanwhile: the account is not left behind.
      if (!granted) await this.accounts.delete(userId, account.id).catch(() => undefined);
    }
    if (!granted) throw gone();
    return { account_id: account.id, name: account.name };
  }

  /** The person declines: the flow ends (the client's polls stay 404 until it gives up). */
  async cancel(id: string): Promise<void> {
    await this.open(id);
    if (!(await this.repo.cancel(id))) throw gone();
  }

  /**
   * The client's poll: the credentials once after the grant, undefined before
   * it and after that one answer. Unknown tokens are counted per address.
   */
  async poll(token: string, address: string): Promise<Credentials | undefined> {
    const now = this.clock.now();
    const hash = sha256Hex(token);
    const row = await this.throttle.attempt([{ key: `login-flow-poll:${address}`, policy: POLL_POLICY }], async () => {
      const found = await this.repo.findByPollHash(hash);
      return found && safeEqual(found.poll_hash, hash) && found.expires_at > now ? found : undefined;
    });
    if (!row || row.user_id === null || row.login_name === null || row.sealed_password === null) return undefined;
    const password = open(row.sealed_password, row.id, token);
    if (password === undefined || !(await this.repo.take(row.id))) return undefined;
    return { loginName: row.login_name, appPassword: password };
  }

  sweep(): Promise<void> {
    return this.repo.sweep(this.clock.now());
  }
}
