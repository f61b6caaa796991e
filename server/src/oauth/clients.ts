// OAuth applications: registration rules, the admin's view, and lookup for
// the authorization and token endpoints.
import { LRUCache } from 'lru-cache';
import { uuid } from '../crypto/random.js';
import { DomainError, ErrorCode, notFound } from '../core/errors.js';
import type { RevocationService } from '../sessions/revocation.js';
import type { ClientListQuery, ClientRepository, ClientRow } from './clients-repository.js';
import { MIN_SUPPLIED_SECRET_LENGTH, type ClientSecrets } from './client-secrets.js';
import { redirectUriProblem, webOrigin } from './redirect-uris.js';
import { iconNameProblem } from './icons.js';
import { isKnownScope, scopeList } from './scopes.js';
import { rfc3339 } from '../accounts/views.js';
import type { Clock } from '../core/clock.js';
import { AUTHORIZATION_CODE, DEFAULT_GRANT_TYPES, isGrantType, type GrantType } from './grant-types.js';

export interface Client {
  id: string;
  name: string;
  icon: string;
  homepageUrl: string | null;
  description: string;
  redirectUris: string[];
  scopes: string[];
  secretHash: string | null;
  isPublic: boolean;
  isEnabled: boolean;
  /** Seconds; null = the site's refresh-token lifetime. */
  refreshTokenTtl: number | null;
  /** The grant types the token endpoint accepts from this app. */
  grantTypes: GrantType[];
  /** Authorization requests must come through PAR (RFC 9126 §5). */
  requirePar: boolean;
  /** Every token request must carry a DPoP proof (RFC 9449 §5.2's dpop_bound_access_tokens). */
  requireDpop: boolean;
  /** Where an RP-initiated logout may send the browser (exact match). */
  postLogoutRedirectUris: string[];
  createdAt: number;
  updatedAt: number;
}

export interface ClientFields {
  name: string;
  icon: string;
  homepage_url?: string | null;
  description?: string;
  /** Required (1–20) when the app may use the authorization code grant; may be empty otherwise. */
  redirect_uris?: string[];
  scopes: string[];
  secret?: string;
  is_public?: boolean;
  is_enabled?: boolean;
  refresh_token_ttl?: number | null;
  grant_types?: string[];
  require_par?: boolean;
  require_dpop?: boolean;
  post_logout_redirect_uris?: string[];
}

export type ClientPatch = Partial<ClientFields> & { regenerate_secret?: boolean };

export interface ClientView {
  id: string;
  name: string;
  icon: string;
  homepage_url: string | null;
  description: string;
  redirect_uris: string[];
  scopes: string[];
  is_public: boolean;
  is_enabled: boolean;
  refresh_token_ttl: number | null;
  grant_types: GrantType[];
  require_par: boolean;
  require_dpop: boolean;
  post_logout_redirect_uris: string[];
  created_at: string;
  updated_at: string;
  /** Only in the response that created or regenerated it. */
  secret?: string;
}

/** Client IDs are UUIDs; anything much longer is refused before a lookup. */
export const MAX_CLIENT_ID_LENGTH = 128;

const PRINTABLE_SECRET = /^[\x21-\x7e]+$/;

const paramError = (message: string) => new DomainError(ErrorCode.ParamError, message);

function fromRow(row: ClientRow): Client {
  return {
    id: row.id,
    name: row.name,
    icon: row.icon,
    homepageUrl: row.homepage_url,
    description: row.description,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    scopes: scopeList(row.scopes),
    secretHash: row.secret_hash,
    isPublic: row.is_public === 1,
    isEnabled: row.is_enabled === 1,
    refreshTokenTtl: row.refresh_token_ttl,
    grantTypes: row.grant_types.split(' ').filter(isGrantType),
    requirePar: row.require_par === 1,
    requireDpop: row.require_dpop === 1,
    postLogoutRedirectUris: JSON.parse(row.post_logout_redirect_uris) as string[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toClientView(c: Client, secret?: string): ClientView {
  const view: ClientView = {
    id: c.id,
    name: c.name,
    icon: c.icon,
    homepage_url: c.homepageUrl,
    description: c.description,
    redirect_uris: c.redirectUris,
    scopes: c.scopes,
    is_public: c.isPublic,
    is_enabled: c.isEnabled,
    refresh_token_ttl: c.refreshTokenTtl,
    grant_types: c.grantTypes,
    require_par: c.requirePar,
    require_dpop: c.requireDpop,
    post_logout_redirect_uris: c.postLogoutRedirectUris,
    created_at: rfc3339(c.createdAt),
    updated_at: rfc3339(c.updatedAt),
  };
  if (secret !== undefined) view.secret = secret;
  return view;
}

function checkHttpUrl(field: string, value: string, httpsOnly: boolean): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw paramError(`${field}: must be an absolute URL`);
  }
  const allowed = httpsOnly ? ['https:'] : ['https:', 'http:'];
  if (!allowed.includes(url.protocol) || url.username || url.password) throw paramError(`${field}: must be an ${httpsOnly ? 'https' : 'http(s)'} URL without credentials`);
}

function checkIcon(icon: string): void {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(icon)) checkHttpUrl('icon', icon, true);
  else {
    const problem = iconNameProblem(icon);
    if (problem) throw paramError(`icon: ${problem}`);
  }
}

function normalizeList(field: string, values: string[], check: (v: string) => string | null): string[] {
  if (values.length === 0) throw paramError(`${field}: must not be empty`);
  const unique = [...new Set(values)];
  if (unique.length !== values.length) {
    const index = values.findIndex((v, i) => values.indexOf(v) !== i);
    throw new DomainError(ErrorCode.ParamError, `${field}: ${JSON.stringify(values[index]!.slice(0, 100))} is listed twice`, { data: { field, index } });
  }
  for (const [index, v] of values.entries()) {
    const problem = check(v);
    // `data` says which entry failed, so a form can put the error on its line.
    if (problem) throw new DomainError(ErrorCode.ParamError, `${field}: ${JSON.stringify(v.slice(0, 100))} ${problem}`, { data: { field, index } });
  }
  return unique;
}

function checkSecret(secret: string): void {
  if (secret.length < MIN_SUPPLIED_SECRET_LENGTH || secret.length > 256 || !PRINTABLE_SECRET.test(secret)) {
    throw paramError(`secret: must be ${MIN_SUPPLIED_SECRET_LENGTH} to 256 printable ASCII characters without spaces`);
  }
}

/** The stored form of an app's grant types: known names, each once, at least one. */
function checkedGrantTypes(values: string[]): string {
  return normalizeList('grant_types', values, (g) => (isGrantType(g) ? null : 'is not a supported grant type')).join(' ');
}

/** Post-logout redirect URIs: the redirect URIs' rules, each once; the list may be empty. */
function checkedLogoutUris(values: string[]): string {
  return values.length === 0 ? '[]' : JSON.stringify(normalizeList('post_logout_redirect_uris', values, redirectUriProblem));
}

/**
 * How long another instance may go on using a client row it read (a
 * regenerated secret, changed redirect URIs, a disabled app). This instance
 * drops its entry at once on every change; tokens of a disabled or deleted
 * app are cut off everywhere through the revocation cache, not through this.
 */
export const CLIENT_CACHE_TTL_MS = 2000;
const CLIENT_CACHE_MAX = 10_000;

export class ClientService {
  /** Only rows that exist are kept: unknown ids (anyone can send them) always read the database. */
  private readonly cache = new LRUCache<string, { at: number; client: Client }>({ max: CLIENT_CACHE_MAX });
  /** Bumped on every local change, so a read that started before it is not cached after it. */
  private generation = 0;
  private origins: { at: number; set: Promise<ReadonlySet<string>> } | undefined;

  constructor(
    private readonly repo: ClientRepository,
    readonly secrets: ClientSecrets,
    private readonly revocation: RevocationService,
    private readonly clock: Clock,
    /** Tells the other instances (through Redis) that this client changed. */
    private readonly broadcast: (id: string) => void = () => undefined,
  ) {}

  /** Drops an entry another instance changed. */
  forget(id: string): void {
    this.generation++;
    this.cache.delete(id);
    this.origins = undefined;
  }

  async find(id: string): Promise<Client | undefined> {
    const row = await this.repo.find(id);
    return row ? fromRow(row) : undefined;
  }

  /** The client if it exists and is enabled; at most CLIENT_CACHE_TTL_MS stale for changes made on other instances. */
  async findEnabled(id: string): Promise<Client | undefined> {
    const now = this.clock.now();
    const hit = this.cache.get(id);
    if (hit && now - hit.at < CLIENT_CACHE_TTL_MS) return hit.client.isEnabled ? hit.client : undefined;
    const generation = this.generation;
    const client = await this.find(id);
    if (client && generation === this.generation) {
      Object.freeze(client.redirectUris);
      Object.freeze(client.scopes);
      Object.freeze(client.grantTypes);
      Object.freeze(client.postLogoutRedirectUris);
      this.remember(id, { at: now, client: Object.freeze(client) });
    } else this.cache.delete(id);
    return client?.isEnabled ? client : undefined;
  }

  private remember(id: string, entry: { at: number; client: Client }): void {
    this.cache.set(id, entry);
  }

  private invalidate(id: string): void {
    this.forget(id);
    this.broadcast(id);
  }

  /**
   * The web origins of the redirect URIs of every enabled client: the origins
   * CORS allows on the Bearer API (http/cors.ts). Read once and kept; a local
   * change drops it at once, a change on another instance is seen within
   * CLIENT_CACHE_TTL_MS, like the client rows.
   */
  registeredOrigins(): Promise<ReadonlySet<string>> {
    const now = this.clock.now();
    if (this.origins && now - this.origins.at < CLIENT_CACHE_TTL_MS) return this.origins.set;
    const generation = this.generation;
    const set = this.repo.enabledRedirectUris().then((lists) => {
      const origins = new Set<string>();
      for (const list of lists) for (const uri of JSON.parse(list) as string[]) {
        const origin = webOrigin(uri);
        if (origin !== null) origins.add(origin);
      }
      return origins;
    });
    // A read that a local change overtook is answered but not kept.
    const entry = { at: now, set };
    this.origins = entry;
    void set.then(
      () => {
        if (generation !== this.generation && this.origins === entry) this.origins = undefined;
      },
      () => {
        if (this.origins === entry) this.origins = undefined;
      },
    );
    return set;
  }

  /** The web origins of one enabled client's redirect URIs (empty for an unknown or disabled client). */
  async originsOf(id: string): Promise<ReadonlySet<string>> {
    const client = await this.findEnabled(id);
    const origins = new Set<string>();
    for (const uri of client?.redirectUris ?? []) {
      const origin = webOrigin(uri);
      if (origin !== null) origins.add(origin);
    }
    return origins;
  }

  async get(id: string): Promise<Client> {
    const client = await this.find(id);
    if (!client) throw notFound('OAuth app not found');
    return client;
  }

  async list(page: number, pageSize: number, query: ClientListQuery = {}): Promise<{ clients: Client[]; total: number }> {
    const [rows, total] = await Promise.all([this.repo.list((page - 1) * pageSize, pageSize, query), this.repo.count(query)]);
    return { clients: rows.map(fromRow), total };
  }

  async create(input: ClientFields): Promise<{ client: Client; secret: string | undefined }> {
    const isPublic = input.is_public ?? false;
    if (isPublic && input.secret !== undefined) throw paramError('secret: public clients have no secret');
    if (input.secret !== undefined) checkSecret(input.secret);
    const secret = isPublic ? undefined : (input.secret ?? this.secrets.generate());
    const now = this.clock.now();
    const grantTypes = checkedGrantTypes(input.grant_types ?? [...DEFAULT_GRANT_TYPES]);
    const row: ClientRow = {
      id: uuid(),
      ...this.checkedFields({ ...input, redirect_uris: input.redirect_uris ?? [] }, grantTypes),
      description: input.description ?? '',
      secret_hash: secret === undefined ? null : this.secrets.hash(secret),
      is_public: isPublic ? 1 : 0,
      is_enabled: input.is_enabled === false ? 0 : 1,
      refresh_token_ttl: input.refresh_token_ttl ?? null,
      grant_types: grantTypes,
      require_par: input.require_par ? 1 : 0,
      require_dpop: input.require_dpop ? 1 : 0,
      post_logout_redirect_uris: checkedLogoutUris(input.post_logout_redirect_uris ?? []),
      created_at: now,
      updated_at: now,
    };
    await this.repo.insert(row);
    // Its redirect URIs' origins join the CORS set at once.
    this.invalidate(row.id);
    return { client: fromRow(row), secret };
  }

  async update(id: string, patch: ClientPatch): Promise<{ client: Client; secret: string | undefined }> {
    const current = await this.get(id);
    const isPublic = patch.is_public ?? current.isPublic;
    if (isPublic && (patch.secret !== undefined || patch.regenerate_secret)) throw paramError('secret: public clients have no secret');
    if (patch.secret !== undefined) checkSecret(patch.secret);
    // A new secret when asked for, or when a public client becomes confidential.
    const needsSecret = !isPublic && (patch.secret !== undefined || patch.regenerate_secret === true || current.secretHash === null);
    const secret = needsSecret ? (patch.secret ?? this.secrets.generate()) : undefined;
    const grantTypes = patch.grant_types !== undefined ? checkedGrantTypes(patch.grant_types) : undefined;
    const fields = this.checkedFields(
      {
      name: patch.name ?? current.name,
      icon: patch.icon ?? current.icon,
      homepage_url: patch.homepage_url === undefined ? current.homepageUrl : patch.homepage_url,
      redirect_uris: patch.redirect_uris ?? current.redirectUris,
      scopes: patch.scopes ?? current.scopes,
      },
      grantTypes ?? current.grantTypes.join(' '),
    );
    const isEnabled = patch.is_enabled ?? current.isEnabled;
    this.invalidate(id);
    await this.repo.update(id, {
      ...fields,
      ...(patch.description !== undefined ? { description: patch.description } : {}),
      ...(secret !== undefined ? { secret_hash: this.secrets.hash(secret) } : isPublic ? { secret_hash: null } : {}),
      is_public: isPublic ? 1 : 0,
      is_enabled: isEnabled ? 1 : 0,
      ...(patch.refresh_token_ttl !== undefined ? { refresh_token_ttl: patch.refresh_token_ttl } : {}),
      ...(grantTypes !== undefined ? { grant_types: grantTypes } : {}),
      ...(patch.require_par !== undefined ? { require_par: patch.require_par ? 1 : 0 } : {}),
      ...(patch.require_dpop !== undefined ? { require_dpop: patch.require_dpop ? 1 : 0 } : {}),
      ...(patch.post_logout_redirect_uris !== undefined ? { post_logout_redirect_uris: checkedLogoutUris(patch.post_logout_redirect_uris) } : {}),
      updated_at: this.clock.now(),
    });
    this.invalidate(id);
    // Disabling stops every token at once; the users' consents are kept for when it returns.
    if (current.isEnabled && !isEnabled) await this.revocation.revokeClient(id, 'client_disabled');
    return { client: await this.get(id), secret };
  }

  /** Deletes the app, its grants and codes, and stops every token it holds. */
  async delete(id: string): Promise<void> {
    this.invalidate(id);
    const deleted = await this.repo.delete(id);
    this.invalidate(id);
    if (!deleted) throw notFound('OAuth app not found');
    await this.revocation.revokeClient(id, 'client_deleted');
  }

  /** `grantTypes` is the stored (checked, space-separated) list the app will have. */
  private checkedFields(f: Pick<ClientFields, 'name' | 'icon' | 'homepage_url' | 'scopes'> & { redirect_uris: string[] }, grantTypes: string) {
    const name = f.name.trim();
    if (!name) throw paramError('name: must not be empty');
    checkIcon(f.icon);
    if (f.homepage_url) checkHttpUrl('homepage_url', f.homepage_url, false);
    // Only the authorization code grant sends the browser back to the app
    // (RFC 6749 §3.1.2); an app limited to the device grant (RFC 8628) and
    // refresh never names a redirect URI, so it need not register one.
    const usesRedirects = grantTypes.split(' ').includes(AUTHORIZATION_CODE);
    if (usesRedirects && f.redirect_uris.length === 0) {
      throw new DomainError(ErrorCode.ParamError, 'redirect_uris: at least one is required when grant_types includes authorization_code', { data: { field: 'redirect_uris' } });
    }
    const redirectUris = f.redirect_uris.length > 0 ? normalizeList('redirect_uris', f.redirect_uris, redirectUriProblem) : [];
    const scopes = normalizeList('scopes', f.scopes, (s) => (isKnownScope(s) ? null : 'is not a known scope'));
    return { name, icon: f.icon, homepage_url: f.homepage_url || null, redirect_uris: JSON.stringify(redirectUris), scopes: scopes.join(' ') };
  }
}
