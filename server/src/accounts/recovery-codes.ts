// Two-step recovery codes (api-contract §11): ten codes made when two-step
// verification is turned on (and on request, voiding the old set), shown
// once, stored as SHA-256 (they are random: a fast hash is enough), each
// usable once in place of a TOTP code.
import { readableCode } from '../crypto/random.js';
import { sha256Hex } from '../crypto/compare.js';
import type { Clock } from '../core/clock.js';
import type { RecoveryCodeRepository } from './recovery-repository.js';

export const RECOVERY_CODE_COUNT = 10;
/** What a typed recovery code looks like (dash and spaces optional, any case). */
export const RECOVERY_CODE_INPUT = /^[A-Za-z0-9]{5}[- ]?[A-Za-z0-9]{5}$/;

function normalize(code: string): string {
  return code.replace(/[- ]/g, '').toLowerCase();
}

export class RecoveryCodes {
  constructor(
    private readonly repo: RecoveryCodeRepository,
    private readonly clock: Clock,
  ) {}

  /** A new set for the user; the old one stops working. Returns the codes (shown once). */
  async renew(userId: string): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => readableCode());
    await this.repo.replace(userId, codes.map((c) => sha256Hex(normalize(c))), this.clock.now());
    return codes;
  }

  /** True once per code. */
  take(userId: string, code: string): Promise<boolean> {
    if (!RECOVERY_CODE_INPUT.test(code.trim())) return Promise.resolve(false);
    return this.repo.take(userId, sha256Hex(normalize(code.trim())), this.clock.now());
  }

  remaining(userId: string): Promise<number> {
    return this.repo.remaining(userId);
  }

  clear(userId: string): Promise<void> {
    return this.repo.clear(userId);
  }
}
