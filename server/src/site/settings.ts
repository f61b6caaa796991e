// Site settings an administrator can change. The master key lives in the same
// table (row `secret_key`) but is never part of these views.
import type { SettingsRepository } from './settings-repository.js';
import { systemClock, type Clock } from '../core/clock.js';

export const SECRET_KEY_SETTING = 'secret_key';

export interface SiteSettings {
  signup_enabled: boolean;
  /** Seconds. */
  access_token_ttl: number;
  /** Seconds. */
  refresh_token_ttl: number;
  default_group_id: number;
  site_name: string;
  /** New accounts stay inactive until their address is confirmed (api-contract §11). */
  signup_email_verification: boolean;
  /** Mail transport fields; '' (or null) = the environment's CIRRUS_SMTP_* value (mail/transport.ts). */
  smtp_host: string;
  smtp_port: number | null;
  smtp_security: '' | 'starttls' | 'tls' | 'none';
  smtp_user: string;
  /** Write-only: never part of an answer. */
  smtp_password: string;
  mail_from: string;
  /** Whom people may share files with (issue 22): any user, only people of their own group, or nobody. */
  share_with: 'anyone' | 'groups' | 'nobody';
  /** When false only administrators sign in with a Cirrus password; everyone else through a provider (api-contract §15). */
  password_sign_in: boolean;
  /** Days the audit log keeps its rows (issue 37); 0 keeps them for ever. */
  audit_retention_days: number;
  /** Days activity (file and folder histories) is kept (issue 37); 0 keeps it for ever. */
  activity_retention_days: number;
  /** Map tiles for the Photos page (`https://…/{z}/{x}/{y}.png`); '' = no map, and no request to any other host. */
  map_tile_url: string;
  /** The credit the tile provider asks for, shown in the map's corner; '' shows the tiles' host. */
  map_attribution: string;
}

export const DEFAULT_SETTINGS: SiteSettings = {
  signup_enabled: false,
  access_token_ttl: 3600,
  refresh_token_ttl: 90 * 24 * 3600,
  default_group_id: 2,
  site_name: 'Cirrus',
  signup_email_verification: false,
  smtp_host: '',
  smtp_port: null,
  smtp_security: '',
  smtp_user: '',
  smtp_password: '',
  mail_from: '',
  share_with: 'anyone',
  password_sign_in: true,
  audit_retention_days: 0,
  activity_retention_days: 365,
  map_tile_url: '',
  map_attribution: '',
};

const SECURITY_VALUES = new Set(['starttls', 'tls', 'none']);

const CACHE_MS = 2000;

export class SettingsService {
  private cached: { at: number; value: SiteSettings } | undefined;
  /**
   * The read under way after the cache expired: the requests that find the
   * cache expired meanwhile wait for it instead of each reading the table
   * (under load, every request in flight did: a sixth of the PostgreSQL code
   * exchanges read the settings). Dropped with the cache on a change.
   */
  private reading: Promise<SiteSettings> | undefined;
  /** Defaults taken from the environment (CIRRUS_SIGNUP_EMAIL_VERIFICATION). */
  private defaults: SiteSettings = DEFAULT_SETTINGS;

  constructor(
    private readonly repo: SettingsRepository,
    /** Tells the other instances (through Redis) that the settings changed. */
    private readonly broadcast: () => void = () => undefined,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Environment values used while the administrator has not set the setting. */
  useDefaults(defaults: Partial<SiteSettings>): void {
    this.defaults = { ...DEFAULT_SETTINGS, ...defaults };
    this.forget();
  }

  /** Drops the cached settings after a change on another instance. */
  forget(): void {
    this.cached = undefined;
    this.reading = undefined;
  }

  async current(): Promise<SiteSettings> {
    const now = this.clock.now();
    if (this.cached && now - this.cached.at < CACHE_MS) return this.cached.value;
    if (this.reading) return this.reading;
    const reading = this.read();
    this.reading = reading;
    try {
      const value = await reading;
      // A change while the read was under way dropped it (forget): then it must not fill the cache.
      if (this.reading === reading) this.cached = { at: now, value };
      return value;
    } finally {
      if (this.reading === reading) this.reading = undefined;
    }
  }

  private async read(): Promise<SiteSettings> {
    const raw = await this.repo.all();
    const value: SiteSettings = {
      signup_enabled: raw.signup_enabled !== undefined ? raw.signup_enabled === 'true' : DEFAULT_SETTINGS.signup_enabled,
      access_token_ttl: numberOr(raw.access_token_ttl, DEFAULT_SETTINGS.access_token_ttl),
      refresh_token_ttl: numberOr(raw.refresh_token_ttl, DEFAULT_SETTINGS.refresh_token_ttl),
      default_group_id: numberOr(raw.default_group_id, DEFAULT_SETTINGS.default_group_id),
      site_name: raw.site_name ?? DEFAULT_SETTINGS.site_name,
      signup_email_verification:
        raw.signup_email_verification !== undefined ? raw.signup_email_verification === 'true' : this.defaults.signup_email_verification,
      smtp_host: raw.smtp_host ?? '',
      smtp_port: raw.smtp_port ? numberOr(raw.smtp_port, 0) || null : null,
      smtp_security: raw.smtp_security && SECURITY_VALUES.has(raw.smtp_security) ? (raw.smtp_security as SiteSettings['smtp_security']) : '',
      smtp_user: raw.smtp_user ?? '',
      smtp_password: raw.smtp_password ?? '',
      mail_from: raw.mail_from ?? '',
      share_with: raw.share_with === 'groups' || raw.share_with === 'nobody' ? raw.share_with : 'anyone',
      password_sign_in: raw.password_sign_in !== 'false',
      audit_retention_days: numberOr(raw.audit_retention_days, DEFAULT_SETTINGS.audit_retention_days),
      activity_retention_days: numberOr(raw.activity_retention_days, DEFAULT_SETTINGS.activity_retention_days),
      map_tile_url: raw.map_tile_url ?? '',
      map_attribution: raw.map_attribution ?? '',
    };
    return value;
  }

  async update(patch: Partial<SiteSettings>): Promise<SiteSettings> {
    for (const [name, value] of Object.entries(patch)) {
      if (value === undefined || name === SECRET_KEY_SETTING) continue;
      await this.repo.set(name, value === null ? '' : String(value));
    }
    this.forget();
    this.broadcast();
    return this.current();
  }

  /**
   * A key another feature keeps in the settings table (OAuth's id_token key):
   * the stored value, or `make()`'s after storing it if none was there. When
   * instances race, the first stored value wins and everyone reads it back.
   */
  async keyOrCreate(name: string, make: () => Promise<string>): Promise<string> {
    const stored = await this.repo.get(name);
    if (stored !== undefined) return stored;
    await this.repo.insertIfAbsent(name, await make());
    const winner = await this.repo.get(name);
    if (winner === undefined) throw new Error(`setting ${name} missing after insert`);
    return winner;
  }

  async secretKey(): Promise<string | undefined> {
    return this.repo.get(SECRET_KEY_SETTING);
  }
}

function numberOr(raw: string | undefined, fallback: number): number {
  const n = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(n) ? n : fallback;
}
