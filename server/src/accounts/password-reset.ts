// Forgotten passwords (api-contract §11). POST /user/reset answers the same
// for every well-formed address, at the same speed: the throttle is the only
// work done in the request, the same for registered and unknown addresses;
// looking the address up, making the link and queueing the mail happen after
// the answer (Jobs.detach), and only for a registered address.
import { DomainError, ErrorCode } from '../core/errors.js';
import type { Jobs } from '../core/jobs.js';
import type { Throttle, ThrottlePolicy } from '../throttle/service.js';
import type { Mailer } from '../mail/mailer.js';
import { mailLanguage } from '../mail/messages.js';
import { normalizeEmail, type AccountService } from './service.js';
import { invalidLink, type AccountLinks } from './links.js';
import type { CredentialSweep } from './credential-sweep.js';

/** At least 5 requests an hour per address are answered, then 429 with a growing lock (throttle/store.ts). */
export const RESET_ADDRESS_POLICY: ThrottlePolicy = { freeFailures: 5, windowMs: 3600_000, maxLockMs: 3600_000 };
/** At least 20 an hour per client address. */
export const RESET_CLIENT_POLICY: ThrottlePolicy = { freeFailures: 20, windowMs: 3600_000, maxLockMs: 3600_000 };

export const mailDisabled = () => new DomainError(ErrorCode.FeatureDisabled, 'This site cannot send e-mail; ask an administrator');

export class PasswordReset {
  constructor(
    private readonly accounts: AccountService,
    private readonly links: AccountLinks,
    private readonly mailer: Mailer,
    private readonly throttle: Throttle,
    private readonly jobs: Jobs,
    private readonly sweep: CredentialSweep,
    /** Told after a reset took effect (notifications: a security change). */
    private readonly afterReset?: (userId: string) => Promise<void>,
  ) {}

  /**
   * Counts the request against the address and the client (429 past the
   * allowance), then answers; the mail is made afterwards, for a registered
   * address only. `language` is the requester's Accept-Language, used when
   * the account has no language of its own.
   */
  async request(emailInput: string, client: string, acceptLanguage: string | undefined): Promise<void> {
    if (!(await this.mailer.configured())) throw mailDisabled();
    const email = normalizeEmail(emailInput);
    // Every request counts (a falsy answer keeps the reservation): this throttles mail, not guesses.
    await this.throttle.attempt(
      [
        { key: `reset:${email}`, policy: RESET_ADDRESS_POLICY },
        { key: `reset-client:${client}`, policy: RESET_CLIENT_POLICY },
      ],
      () => false,
    );
    this.jobs.detach('password_reset_mail', async () => {
      const user = await this.accounts.repo.findByEmail(email);
      if (!user || user.status === 'banned') return;
      const link = await this.links.issue(user.id, 'reset', user.email);
      await this.mailer.queue({ kind: 'reset', to: user.email, language: mailLanguage(user.locale, acceptLanguage), link });
    });
  }

  /** Whether a reset link still works (the page says so before asking for a password). */
  async check(token: string): Promise<boolean> {
    const row = await this.links.peek(token, 'reset');
    if (!row) return false;
    const user = await this.accounts.findById(row.user_id);
    return user !== undefined && user.status !== 'banned' && normalizeEmail(row.email) === user.email;
  }

  /**
   * Sets the password, ends every session and token of the user, voids the
   * link (and every other link of the user) and sends a notice listing the
   * ways into the account that remain. When the address had not been
   * verified, the link is its first proof: every credential made before it
   * (possibly by someone who registered an address that is not theirs) is
   * ended too (credential-sweep.ts). 40020 for a bad, used or expired link.
   */
  async complete(token: string, password: string): Promise<void> {
    await this.accounts.checkNewPassword(password);
    const row = await this.links.take(token, 'reset');
    const user = await this.accounts.findById(row.user_id);
    // A link mailed to an address the account no longer has proves nothing
    // about its owner now: whoever holds the old mailbox must not take the account.
    if (!user || user.status === 'banned' || normalizeEmail(row.email) !== user.email) throw invalidLink();
    // Ends every session and voids every other link of the user (AccountService.onCredentialsChanged).
    await this.accounts.setPasswordByLink(user.id, password);
    const unproven = user.email_verified !== 1;
    if (unproven) await this.sweep.endAll(user.id);
    await this.afterReset?.(user.id);
    if (await this.mailer.configured()) {
      const left = await this.sweep.remaining(user.id);
      const vars: Record<string, string> = { ended: unproven ? '1' : '0' };
      for (const [kind, names] of Object.entries(left)) vars[kind] = names.join(', ');
      await this.mailer.queue({ kind: 'password_reset_done', to: user.email, language: mailLanguage(user.locale), vars });
    }
  }
}
