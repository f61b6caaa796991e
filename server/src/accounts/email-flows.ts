// The flows that prove an address (api-contract §11): sign-up with
// activation, address verification, and changing the address (confirmed at
// the new one, a notice to the old one). Each uses a link from links.ts.
import { DomainError, ErrorCode } from '../core/errors.js';
import type { Jobs } from '../core/jobs.js';
import type { Throttle } from '../throttle/service.js';
import type { Mailer } from '../mail/mailer.js';
import { mailLanguage } from '../mail/messages.js';
import type { SettingsService } from '../site/settings.js';
import { normalizeEmail, type AccountService, type NewUser } from './service.js';
import { invalidLink, type AccountLinks } from './links.js';
import { mailDisabled, RESET_ADDRESS_POLICY, RESET_CLIENT_POLICY } from './password-reset.js';
import type { UserWithGroup } from './repository.js';

const emailTaken = () => new DomainError(ErrorCode.EmailTaken, 'This e-mail is already registered');

export class EmailFlows {
  constructor(
    private readonly accounts: AccountService,
    private readonly settings: SettingsService,
    private readonly links: AccountLinks,
    private readonly mailer: Mailer,
    private readonly throttle: Throttle,
    private readonly jobs: Jobs,
  ) {}

  /** Sign-up: with `signup_email_verification` on, the account starts inactive and an activation link is mailed (24 h). */
  async signUp(input: NewUser, acceptLanguage: string | undefined): Promise<UserWithGroup> {
    const language = mailLanguage(null, acceptLanguage);
    if (!(await this.settings.current()).signup_email_verification) return this.accounts.signUp({ ...input, locale: language });
    if (!(await this.mailer.configured())) throw mailDisabled();
    const user = await this.accounts.signUp({ ...input, status: 'inactive', locale: language });
    await this.sendActivation(user);
    return user;
  }

  /** Like a reset request: the same answer for every address, throttled, the mail made after the answer for an inactive account only. */
  async resendActivation(emailInput: string, client: string): Promise<void> {
    if (!(await this.mailer.configured())) throw mailDisabled();
    const email = normalizeEmail(emailInput);
    await this.throttle.attempt(
      [
        { key: `activate:${email}`, policy: RESET_ADDRESS_POLICY },
        { key: `reset-client:${client}`, policy: RESET_CLIENT_POLICY },
      ],
      () => false,
    );
    this.jobs.detach('activation_mail', async () => {
      const user = await this.accounts.repo.findByEmail(email);
      if (user?.status === 'inactive') await this.sendActivation(user);
    });
  }

  /** Activates the account the link was sent to (and verifies its address); the caller signs the person in. */
  async activate(token: string): Promise<UserWithGroup> {
    const row = await this.links.take(token, 'activate');
    const user = await this.accounts.findById(row.user_id);
    if (!user || user.status === 'banned' || normalizeEmail(row.email) !== user.email) throw invalidLink();
    await this.accounts.markAddressProven(user.id, { activate: true });
    return this.accounts.get(user.id);
  }

  /** Mails a verification link to the user's current address. */
  async requestVerification(userId: string): Promise<void> {
    if (!(await this.mailer.configured())) throw mailDisabled();
    const user = await this.accounts.get(userId);
    if (user.email_verified === 1) return;
    const link = await this.links.issue(user.id, 'verify', user.email);
    await this.mailer.queue({ kind: 'verify', to: user.email, language: mailLanguage(user.locale), link });
  }

  /**
   * Starts an address change: the password is checked (40069, throttled as
   * a guess), the new address must be free (40032); a confirmation link goes
   * to the new address and a notice to the old one. Nothing changes until
   * confirmed. Each request that would mail counts against the account and
   * against the new address (the reset policy: 5 an hour, then a doubling
   * lock, 429), so an account cannot be used to mail any outside address
   * without limit, and one address cannot be flooded from many accounts.
   */
  async requestChange(userId: string, newEmailInput: string, password: string): Promise<void> {
    if (!(await this.mailer.configured())) throw mailDisabled();
    await this.accounts.checkPassword(userId, password);
    const user = await this.accounts.get(userId);
    const email = normalizeEmail(newEmailInput);
    if (email === user.email) throw new DomainError(ErrorCode.ParamError, 'email: this is already your address');
    // Counted before the "taken" check too, so the route is no unlimited probe of registered addresses.
    await this.throttle.attempt(
      [
        { key: `email-change:${userId}`, policy: RESET_ADDRESS_POLICY },
        { key: `email-to:${email}`, policy: RESET_ADDRESS_POLICY },
      ],
      () => false,
    );
    if (await this.accounts.repo.findByEmail(email)) throw emailTaken();
    const link = await this.links.issue(user.id, 'email_change', email);
    const language = mailLanguage(user.locale);
    await this.mailer.queue({ kind: 'email_change', to: email, language, link });
    await this.mailer.queue({ kind: 'email_change_notice', to: user.email, email, language });
  }

  /** The confirm route: a verification link or an address-change link (40020 when bad, used or expired; 40032 when the new address was taken meanwhile). */
  async confirm(token: string): Promise<UserWithGroup> {
    const verify = await this.links.take(token, 'verify').catch(() => undefined);
    if (verify) {
      const user = await this.accounts.findById(verify.user_id);
      if (!user || normalizeEmail(verify.email) !== user.email) throw invalidLink();
      await this.accounts.markAddressProven(user.id, { activate: false });
      return this.accounts.get(user.id);
    }
    const change = await this.links.take(token, 'email_change');
    const user = await this.accounts.findById(change.user_id);
    if (!user) throw invalidLink();
    await this.accounts.changeEmail(user.id, change.email);
    return this.accounts.get(user.id);
  }

  private async sendActivation(user: UserWithGroup): Promise<void> {
    const link = await this.links.issue(user.id, 'activate', user.email);
    await this.mailer.queue({ kind: 'activate', to: user.email, language: mailLanguage(user.locale), link });
  }
}
