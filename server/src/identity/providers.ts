// The upstream providers an administrator connects (api-contract §15): their
// settings, the rules those settings must follow, and the views that never
// carry the secret. Sign-in reads the enabled ones through a short cache, so
// that a password sign-in does not pay a query to learn there is no directory.
import { isIP } from 'node:net';
import { DomainError, ErrorCode, badRequest, notFound } from '../core/errors.js';
import { shortId } from '../crypto/random.js';
import type { Clock } from '../core/clock.js';
import type { ProviderRepository, ProviderRow } from './providers-repository.js';
import type { SealedSecrets } from './sealed-secrets.js';

/** How long an instance keeps the provider list (a change elsewhere shows within this). */
const CACHE_MS = 2000;

export interface Mapping {
  /** Claim or directory value -> Cirrus group id. Order matters: the first value the person holds wins. */
  group_map: Record<string, number>;
  /** Values that make the person an administrator. */
  admin_values: string[];
  create_accounts: boolean;
}

export interface OidcSettings extends Mapping {
  issuer: string;
  client_id: string;
  scopes: string;
  groups_claim: string | null;
  link_by_verified_email: boolean;
  allowed_domains: string[];
}

export interface LdapSettings extends Mapping {
  url: string;
  start_tls: boolean;
  bind_dn: string;
  user_base: string;
  user_filter: string;
  email_attribute: string;
  name_attribute: string;
  group_base: string | null;
  group_filter: string | null;
}

interface Common {
  id: string;
  name: string;
  icon: string | null;
  enabled: boolean;
  created_at: number;
  updated_at: number;
  /** The client secret or bind password, opened ('' for none). Never part of a view. */
  secret: string;
}

export type OidcProvider = Common & { type: 'oidc'; settings: OidcSettings };
export type LdapProvider = Common & { type: 'ldap'; settings: LdapSettings };
export type Provider = OidcProvider | LdapProvider;

/** What an administrator sends: the settings flat, the secret beside them. */
export type ProviderInput = Record<string, unknown> & { type?: 'oidc' | 'ldap'; name?: string; icon?: string | null; enabled?: boolean };

const OIDC_DEFAULTS: Omit<OidcSettings, 'issuer' | 'client_id'> = {
  scopes: 'openid email profile',
  groups_claim: null,
  group_map: {},
  admin_values: [],
  create_accounts: false,
  link_by_verified_email: false,
  allowed_domains: [],
};

const LDAP_DEFAULTS: Omit<LdapSettings, 'url' | 'user_base'> = {
  start_tls: false,
  bind_dn: '',
  user_filter: '(&(objectClass=inetOrgPerson)(|(uid={login})(mail={login})))',
  email_attribute: 'mail',
  name_attribute: 'cn',
  group_base: null,
  group_filter: null,
  group_map: {},
  admin_values: [],
  create_accounts: false,
};

const SECRET_FIELD = { oidc: 'client_secret', ldap: 'bind_password' } as const;

/** A host that is this machine: the only place an http:// issuer is accepted. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  return h === '::1';
}

export type GroupExists = (id: number) => Promise<boolean>;

export class ProviderService {
  private cached: { at: number; value: Provider[] } | undefined;
  private readonly changeHooks: ((id: string) => void)[] = [];

  constructor(
    private readonly repo: ProviderRepository,
    private readonly secrets: SealedSecrets,
    private readonly groupExists: GroupExists,
    private readonly clock: Clock,
  ) {}

  /** Told when a provider changes or goes (the OpenID Connect discovery cache drops it). */
  onChange(hook: (id: string) => void): void {
    this.changeHooks.push(hook);
  }

  async all(): Promise<Provider[]> {
    const now = this.clock.now();
    if (this.cached && now - this.cached.at < CACHE_MS) return this.cached.value;
    const value = (await this.repo.list()).map((row) => this.fromRow(row));
    this.cached = { at: now, value };
    return value;
  }

  async enabledOidc(): Promise<OidcProvider[]> {
    return (await this.all()).filter((p): p is OidcProvider => p.enabled && p.type === 'oidc');
  }

  async enabledLdap(): Promise<LdapProvider[]> {
    return (await this.all()).filter((p): p is LdapProvider => p.enabled && p.type === 'ldap');
  }

  async get(id: string): Promise<Provider> {
    const row = await this.repo.find(id);
    if (!row) throw notFound('No such sign-in provider');
    return this.fromRow(row);
  }

  async create(input: ProviderInput): Promise<Provider> {
    const type = input.type;
    if (type !== 'oidc' && type !== 'ldap') throw badRequest('type: must be "oidc" or "ldap"');
    const settings = await this.checkSettings(type, { ...(type === 'oidc' ? OIDC_DEFAULTS : LDAP_DEFAULTS), ...pickSettings(input) });
    const secret = typeof input[SECRET_FIELD[type]] === 'string' ? (input[SECRET_FIELD[type]] as string) : '';
    const now = this.clock.now();
    const row: ProviderRow = {
      id: shortId(10),
      type,
      name: checkName(input.name),
      icon: input.icon ?? null,
      config: JSON.stringify(settings),
      secret: this.secrets.seal(secret),
      enabled: input.enabled === false ? 0 : 1,
      created_at: now,
      updated_at: now,
    };
    await this.repo.insert(row);
    this.changed(row.id);
    return this.fromRow(row);
  }

  async update(id: string, patch: ProviderInput): Promise<Provider> {
    const current = await this.get(id);
    if (patch.type !== undefined && patch.type !== current.type) throw badRequest('type: a provider keeps its type; add a new one instead');
    const settings = await this.checkSettings(current.type, { ...current.settings, ...pickSettings(patch) });
    const secretField = SECRET_FIELD[current.type];
    const newSecret = patch[secretField];
    await this.repo.update(id, {
      ...(patch.name !== undefined ? { name: checkName(patch.name) } : {}),
      ...(patch.icon !== undefined ? { icon: patch.icon } : {}),
      ...(patch.enabled !== undefined ? { enabled: patch.enabled ? 1 : 0 } : {}),
      // An absent secret keeps the stored one (the dashboard never has it to send back).
      ...(typeof newSecret === 'string' ? { secret: this.secrets.seal(newSecret) } : {}),
      config: JSON.stringify(settings),
      updated_at: this.clock.now(),
    });
    this.changed(id);
    return this.get(id);
  }

  async delete(id: string): Promise<void> {
    if (!(await this.repo.delete(id))) throw notFound('No such sign-in provider');
    this.changed(id);
  }

  private changed(id: string): void {
    this.cached = undefined;
    for (const hook of this.changeHooks) hook(id);
  }

  private fromRow(row: ProviderRow): Provider {
    const common = {
      id: row.id,
      name: row.name,
      icon: row.icon,
      enabled: row.enabled === 1,
      created_at: Number(row.created_at),
      updated_at: Number(row.updated_at),
      secret: this.secrets.open(row.secret),
    };
    const settings = JSON.parse(row.config) as OidcSettings | LdapSettings;
    return row.type === 'oidc' ? { ...common, type: 'oidc', settings: settings as OidcSettings } : { ...common, type: 'ldap', settings: settings as LdapSettings };
  }

  private async checkSettings(type: 'oidc' | 'ldap', s: Record<string, unknown>): Promise<OidcSettings | LdapSettings> {
    const groupMap = s.group_map as Record<string, number>;
    for (const [value, groupId] of Object.entries(groupMap)) {
      if (!(await this.groupExists(groupId))) throw badRequest(`group_map: "${value}" names group ${groupId}, which does not exist`);
    }
    if (type === 'oidc') {
      const o = s as unknown as OidcSettings;
      if (typeof o.issuer !== 'string' || typeof o.client_id !== 'string' || o.client_id === '') throw badRequest('issuer, client_id: required');
      checkIssuer(o.issuer);
      if (!o.scopes.split(' ').includes('openid')) throw badRequest('scopes: must include "openid"');
      return pick(o, ['issuer', 'client_id', 'scopes', 'groups_claim', 'group_map', 'admin_values', 'create_accounts', 'link_by_verified_email', 'allowed_domains']) as OidcSettings;
    }
    const l = s as unknown as LdapSettings;
    if (typeof l.url !== 'string' || typeof l.user_base !== 'string' || l.user_base === '') throw badRequest('url, user_base: required');
    if (!/^ldaps?:\/\/[^/\s]+\/?$/i.test(l.url)) throw badRequest('url: must be ldap://host[:port] or ldaps://host[:port]');
    if (l.start_tls && /^ldaps:/i.test(l.url)) throw badRequest('start_tls: not with ldaps:// (it is TLS already)');
    if (!l.user_filter.includes('{login}')) throw badRequest('user_filter: must contain {login}');
    if (l.group_filter !== null && l.group_filter !== '' && !l.group_filter.includes('{dn}') && !l.group_filter.includes('{login}')) {
      throw badRequest('group_filter: must contain {dn} (or {login})');
    }
    return pick(l, ['url', 'start_tls', 'bind_dn', 'user_base', 'user_filter', 'email_attribute', 'name_attribute', 'group_base', 'group_filter', 'group_map', 'admin_values', 'create_accounts']) as LdapSettings;
  }
}

function checkName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') throw badRequest('name: required');
  return name.trim();
}

/** https, or http on this machine only (api-contract §15). */
function checkIssuer(issuer: string): void {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw badRequest('issuer: not a URL');
  }
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return;
  throw new DomainError(ErrorCode.ParamError, 'issuer: must be https:// (http:// only on a loopback address)');
}

function pickSettings(input: ProviderInput): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined || ['type', 'name', 'icon', 'enabled', 'client_secret', 'bind_password'].includes(k)) continue;
    out[k] = v;
  }
  return out;
}

function pick<T extends object>(o: T, keys: (keyof T)[]): Partial<T> {
  const out: Partial<T> = {};
  for (const k of keys) out[k] = o[k];
  return out;
}

/** The admin view: the settings flat, whether a secret is stored, never the secret. */
export function toProviderView(p: Provider) {
  const base = { id: p.id, name: p.name, icon: p.icon, enabled: p.enabled, created_at: new Date(p.created_at).toISOString(), updated_at: new Date(p.updated_at).toISOString() };
  if (p.type === 'oidc') return { ...base, type: 'oidc' as const, ...p.settings, client_secret_set: p.secret !== '' };
  return { ...base, type: 'ldap' as const, ...p.settings, bind_password_set: p.secret !== '' };
}
