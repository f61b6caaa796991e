// Site initialization (the schema is migrated before): master key, default groups, first administrator.
// Idempotent: running it again changes nothing.
import { randomBytes } from 'node:crypto';
import { secretToken } from '../crypto/random.js';
import type { SettingsRepository } from './settings-repository.js';
import { SECRET_KEY_SETTING } from './settings.js';

/** What initialization needs from accounts (AccountService satisfies it; site does not import accounts). */
export interface AccountsSetup {
  ensureDefaultGroups(): Promise<void>;
  countUsers(): Promise<number>;
}

export interface InitResult {
  createdKey: boolean;
  /** Set when this run created the first administrator. */
  admin?: { email: string; generatedPassword?: string };
}

export async function initializeSite(
  settings: SettingsRepository,
  accounts: AccountsSetup,
  opts: { adminEmail?: string; adminPassword?: string; createAdmin?: (email: string, password: string) => Promise<void> },
): Promise<InitResult> {
  // 384 random bits as a printable string; the HMAC key is its UTF-8 bytes.
  const createdKey = await settings.insertIfAbsent(SECRET_KEY_SETTING, secretToken(48));
  await accounts.ensureDefaultGroups();

  const result: InitResult = { createdKey };
  if (opts.createAdmin && (await accounts.countUsers()) === 0) {
    const email = opts.adminEmail || 'admin@cirrus.local';
    const generated = opts.adminPassword ? undefined : randomBytes(18).toString('base64url');
    try {
      await opts.createAdmin(email, opts.adminPassword || generated!);
      result.admin = { email, generatedPassword: generated };
    } catch (err) {
      // Another instance initializing at the same moment created it.
      if ((await accounts.countUsers()) === 0) throw err;
    }
  }
  return result;
}
