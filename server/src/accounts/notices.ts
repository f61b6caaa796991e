// Notices mailed to the account's address on security changes (api-contract
// §11): a password change, a reset (password-reset.ts), a change of two-step
// verification, a new passkey. Queued in the outbox; nothing is sent when the
// site has no mail transport.
import type { Mailer } from '../mail/mailer.js';
import { mailLanguage, type MailKind } from '../mail/messages.js';
import type { AccountService } from './service.js';

export class AccountNotices {
  constructor(
    private readonly accounts: AccountService,
    private readonly mailer: Mailer,
  ) {}

  passwordChanged(userId: string): Promise<void> {
    return this.send(userId, 'password_changed');
  }

  twoFactor(userId: string, state: 'on' | 'off' | 'codes'): Promise<void> {
    return this.send(userId, 'two_factor_changed', { state });
  }

  passkeyAdded(userId: string, name: string): Promise<void> {
    return this.send(userId, 'passkey_added', { name });
  }

  private async send(userId: string, kind: MailKind, vars: Record<string, string> = {}): Promise<void> {
    if (!(await this.mailer.configured())) return;
    const user = await this.accounts.findById(userId);
    if (!user) return;
    await this.mailer.queue({ kind, to: user.email, language: mailLanguage(user.locale), vars });
  }
}
