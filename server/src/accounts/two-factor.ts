// TOTP enrolment: begin (a pending secret), confirm with a code, disable with a code.
import { matchTotp, newTotpSecret, otpauthUri } from '../crypto/totp.js';
import { DomainError, ErrorCode } from '../core/errors.js';
import type { AccountRepository } from './repository.js';
import type { Clock } from '../core/clock.js';
import type { RecoveryCodes } from './recovery-codes.js';
import { ACCOUNT_POLICY, type Throttle } from '../throttle/service.js';

/** Told when two-step verification changes (the notice mail): on, off, or new recovery codes. */
export type TwoFactorNotice = (userId: string, state: 'on' | 'off' | 'codes') => Promise<void>;

export class TwoFactorService {
  constructor(
    private readonly repo: AccountRepository,
    private readonly issuer: () => Promise<string>,
    private readonly clock: Clock,
    readonly recovery: RecoveryCodes,
    private readonly throttle: Throttle,
    private readonly notify: TwoFactorNotice = async () => undefined,
  ) {}

  async begin(userId: string): Promise<{ secret: string; otpauth_url: string }> {
    const user = await this.repo.findById(userId);
    if (!user) throw new DomainError(ErrorCode.NotFound, 'User not found');
    if (user.totp_secret) throw new DomainError(ErrorCode.Conflict, 'Two-factor authentication is already on');
    const secret = newTotpSecret();
    await this.repo.update(userId, { totp_pending_secret: secret, updated_at: this.clock.now() });
    return { secret, otpauth_url: otpauthUri(secret, user.email, await this.issuer()) };
  }

  /** Turns TOTP on; answers the recovery codes (shown once). */
  async confirm(userId: string, otp: string): Promise<string[]> {
    const user = await this.repo.findById(userId);
    if (!user?.totp_pending_secret) throw new DomainError(ErrorCode.ParamError, 'Start two-factor enrolment first');
    const step = matchTotp(user.totp_pending_secret, otp, this.clock.now());
    if (step === null) throw new DomainError(ErrorCode.WrongOtp, 'Wrong verification code');
    await this.repo.update(userId, { totp_secret: user.totp_pending_secret, totp_pending_secret: null, totp_last_step: step, updated_at: this.clock.now() });
    const codes = await this.recovery.renew(userId);
    await this.notify(userId, 'on');
    return codes;
  }

  /** A new set of recovery codes (the old set stops working); the password is checked by the caller. */
  async renewRecoveryCodes(userId: string): Promise<string[]> {
    const user = await this.repo.findById(userId);
    if (!user?.totp_secret) throw new DomainError(ErrorCode.ParamError, 'Two-factor authentication is not on');
    const codes = await this.recovery.renew(userId);
    await this.notify(userId, 'codes');
    return codes;
  }

  /**
   * 401/40022 unless `otp` is the user's current TOTP code (each code once).
   * Counted under the same per-account key as the sign-in's second step
   * (`otp:<uid>`, reserved before the code is checked): a million codes are
   * guessed at most 5 at a time, then behind the doubling lock, by whatever
   * route the guesses come.
   */
  async checkCode(userId: string, otp: string): Promise<void> {
    const user = await this.repo.findById(userId);
    if (!user?.totp_secret) throw new DomainError(ErrorCode.ParamError, 'Two-factor authentication is not on');
    const secret = user.totp_secret;
    const right = await this.throttle.attempt([{ key: `otp:${userId}`, policy: ACCOUNT_POLICY, clearOnSuccess: true }], async () => {
      const step = matchTotp(secret, otp, this.clock.now());
      return step !== null && (await this.repo.claimTotpStep(userId, step));
    });
    if (!right) throw new DomainError(ErrorCode.WrongOtp, 'Wrong verification code');
  }

  /** Turns two-step off (and a pending enrolment) without a code: the account's address was just proven (credential-sweep.ts). */
  async endFor(userId: string): Promise<void> {
    await this.repo.update(userId, { totp_secret: null, totp_pending_secret: null, totp_last_step: null, updated_at: this.clock.now() });
    await this.recovery.clear(userId);
  }

  async disable(userId: string, otp: string): Promise<void> {
    await this.checkCode(userId, otp);
    await this.repo.update(userId, { totp_secret: null, totp_last_step: null, updated_at: this.clock.now() });
    await this.recovery.clear(userId);
    await this.notify(userId, 'off');
  }
}
