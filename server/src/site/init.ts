// Site initialization: schema, master key, default groups, first administrator.
// Idempotent: running it again changes nothing.
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { secretToken } from '../crypto/random.js';
import { AccountRepository } from '../accounts/repository.js';
import { ADMIN_GROUP_ID, USER_GROUP_ID } from '../accounts/service.js';
import { SettingsRepository } from './settings-repository.js';
import { SECRET_KEY_SETTING } from './settings.js';

export const DEFAULT_USER_QUOTA = 10 * 1024 ** 3;
export const DEFAULT_ADMIN_QUOTA = 1024 ** 4;

export interface InitResult {
  createdKey: boolean;
  /** Set when this run created the first administrator. */
  admin?: { email: string; generatedPassword?: string };
}

export async function initializeSite(
  db: Db,
  opts: { adminEmail?: string; adminPassword?: string; createAdmin?: (email: string, password: string) => Promise<void> },
): Promise<InitResult> {
  await migrateToLatest(db);
  const settings = new SettingsRepository(db);
  // 384 random bits as a printable string; the HMAC key is its UTF-8 bytes.
  const createdKey = await settings.insertIfAbsent(SECRET_KEY_SETTING, secretToken(48));
  const accounts = new AccountRepository(db);
  const now = Date.now();
  await accounts.insertGroupIfAbsent({ id: ADMIN_GROUP_ID, name: 'Administrators', is_admin: 1, storage_quota: DEFAULT_ADMIN_QUOTA, created_at: now });
  await accounts.insertGroupIfAbsent({ id: USER_GROUP_ID, name: 'Users', is_admin: 0, storage_quota: DEFAULT_USER_QUOTA, created_at: now });

  const result: InitResult = { createdKey };
  if (opts.createAdmin && (await accounts.count()) === 0) {
    const email = opts.adminEmail || 'admin@cirrus.local';
    const generated = opts.adminPassword ? undefined : randomBytes(18).toString('base64url');
    try {
      await opts.createAdmin(email, opts.adminPassword || generated!);
      result.admin = { email, generatedPassword: generated };
    } catch (err) {
      // Another instance initializing at the same moment created it.
      if ((await accounts.count()) === 0) throw err;
    }
  }
  return result;
}
