// Notices mailed to the account's address on security changes (api-contract
// §11): a password change, a reset (password-reset.ts), a change of two-step
// verification, a new passkey. Queued in the outbox; nothing is sent when the
// site has no mail transport.
import type { Mailer } from '../mail/mailer.js';
import { mailLanguage, type MailKind } from '../mail/messages.js';
import type { AccountService } from './service.js';

/** What changed, as notifications name it (`security_change`'s `change`). */
export type SecurityChange = 'password_changed' | 'password_reset' | 'two_factor_on' | 'two_factor_off' | 'recovery_codes' | 'passkey_added';

export class AccountNotices {
  private readonly listeners: ((userId: string, change: SecurityChange, detail: Record<string, string>) => Promise<void>)[] = [];

  constructor(
    private readonly accounts: AccountService,
    private readonly mailer: Mailer,
  ) {}

  /** Told of every security change, mail or no mail (notifications: `security_change`). */
  onChange(listener: (userId: string, change: SecurityChange, detail: Record<string, string>) => Promise<void>): void {
    this.listeners.push(listener);
  }

  async changed(userId: string, change: SecurityChange, detail: Record<string, string> = {}): Promise<void> {
    for (const l of this.listeners) await l(userId, change, detail);
  }

  async passwordChanged(userId: string): Promise<void> {
    await this.changed(userId, 'password_changed');
    return this.send(userId, 'password_changed');
  }

  async twoFactor(userId: string, state: 'on' | 'off' | 'codes'): Promise<void> {
    await this.changed(userId, state === 'on' ? 'two_factor_on' : state === 'off' ? 'two_factor_off' : 'recovery_codes');
    return this.send(userId, 'two_factor_changed', { state });
  }

  async passkeyAdded(userId: string, name: string): Promise<void> {
    await this.changed(userId, 'passkey_added', { name });
    return this.send(userId, 'passkey_added', { name });
  }

  private async send(userId: string, kind: MailKind, vars: Record<string, string> = {}): Promise<void> {
    if (!(await this.mailer.configured())) return;
    const user = await this.accounts.findById(userId);
    if (!user) return;
    await this.mailer.queue({ kind, to: user.email, language: mailLanguage(user.locale), vars });
  }
}
