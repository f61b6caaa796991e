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
}

export const DEFAULT_SETTINGS: SiteSettings = {
  signup_enabled: false,
  access_token_ttl: 3600,
  refresh_token_ttl: 90 * 24 * 3600,
  default_group_id: 2,
  site_name: 'Cirrus',
};

const CACHE_MS = 2000;

export class SettingsService {
  private cached: { at: number; value: SiteSettings } | undefined;

  constructor(
    private readonly repo: SettingsRepository,
    /** Tells the other instances (through Redis) that the settings changed. */
    private readonly broadcast: () => void = () => undefined,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Drops the cached settings after a change on another instance. */
  forget(): void {
    this.cached = undefined;
  }

  async current(): Promise<SiteSettings> {
    const now = this.clock.now();
    if (this.cached && now - this.cached.at < CACHE_MS) return this.cached.value;
    const raw = await this.repo.all();
    const value: SiteSettings = {
      signup_enabled: raw.signup_enabled !== undefined ? raw.signup_enabled === 'true' : DEFAULT_SETTINGS.signup_enabled,
      access_token_ttl: numberOr(raw.access_token_ttl, DEFAULT_SETTINGS.access_token_ttl),
      refresh_token_ttl: numberOr(raw.refresh_token_ttl, DEFAULT_SETTINGS.refresh_token_ttl),
      default_group_id: numberOr(raw.default_group_id, DEFAULT_SETTINGS.default_group_id),
      site_name: raw.site_name ?? DEFAULT_SETTINGS.site_name,
    };
    this.cached = { at: now, value };
    return value;
  }

  async update(patch: Partial<SiteSettings>): Promise<SiteSettings> {
    for (const [name, value] of Object.entries(patch)) {
      if (value === undefined || name === SECRET_KEY_SETTING) continue;
      await this.repo.set(name, String(value));
    }
    this.cached = undefined;
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
