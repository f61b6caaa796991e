// Links mailed to people (api-contract §11): a random token in the URL, its
// SHA-256 in the database, single use, voiding the older ones of the same
// kind. The flows built on them (reset, activation, address verification and
// change) live in their own files and use this one helper.
import { secretToken } from '../crypto/random.js';
import { sha256Hex } from '../crypto/compare.js';
import { DomainError, ErrorCode } from '../core/errors.js';
import type { Clock } from '../core/clock.js';
import type { AccountTokenKind, AccountTokenRepository, AccountTokenRow } from './token-repository.js';

export const LINK_TTL_MS: Record<AccountTokenKind, number> = {
  reset: 3600_000,
  activate: 24 * 3600_000,
  verify: 24 * 3600_000,
  email_change: 24 * 3600_000,
};

/** Where each kind of link leads in the web app. */
const LINK_PATH: Record<AccountTokenKind, string> = {
  reset: '/reset',
  activate: '/activate',
  verify: '/verify-email',
  email_change: '/verify-email',
};

export const invalidLink = () => new DomainError(ErrorCode.CredentialInvalid, 'This link is invalid, has been used or has expired; ask for a new one');

export class AccountLinks {
  constructor(
    readonly repo: AccountTokenRepository,
    private readonly baseUrl: string,
    private readonly clock: Clock,
  ) {}

  /** A new link of this kind for the user (older unused ones stop working). */
  async issue(userId: string, kind: AccountTokenKind, email: string): Promise<string> {
    const token = secretToken(32);
    const now = this.clock.now();
    await this.repo.replace({ token_hash: sha256Hex(token), user_id: userId, kind, email, created_at: now, expires_at: now + LINK_TTL_MS[kind], used_at: null });
    return `${this.baseUrl}${LINK_PATH[kind]}?token=${encodeURIComponent(token)}`;
  }

  /** Uses a token once; 40020 when it is unknown, of another kind, used or expired. */
  async take(token: string, kind: AccountTokenKind): Promise<AccountTokenRow> {
    const row = await this.repo.take(sha256Hex(token), kind, this.clock.now());
    if (!row) throw invalidLink();
    return row;
  }

  /** The link when it would be accepted now, without using it (the reset page checks before asking for a password). */
  async peek(token: string, kind: AccountTokenKind): Promise<AccountTokenRow | undefined> {
    const row = await this.repo.find(sha256Hex(token));
    return row !== undefined && row.kind === kind && row.used_at === null && row.expires_at > this.clock.now() ? row : undefined;
  }

  voidAll(userId: string): Promise<void> {
    return this.repo.voidAll(userId, this.clock.now());
  }

  prune(): Promise<void> {
    return this.repo.prune(this.clock.now() - 24 * 3600_000);
  }
}
