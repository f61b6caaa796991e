// Accounts: sign-up, profile, password, and the rules around them.
import { hashPassword, verifyPassword, burnPasswordCheck } from '../crypto/passwords.js';
import { shortId } from '../crypto/random.js';
import { matchTotp } from '../crypto/totp.js';
import { DomainError, ErrorCode, notFound } from '../core/errors.js';
import { isForeignKeyViolation } from '../db/errors.js';
import type { SettingsService } from '../site/settings.js';
import type { AccountRepository, UserListQuery, UserWithGroup } from './repository.js';
import type { UserCache } from './user-cache.js';
import type { Clock } from '../core/clock.js';
import { RECOVERY_CODE_INPUT, type RecoveryCodes } from './recovery-codes.js';
import { ACCOUNT_POLICY, type Throttle } from '../throttle/service.js';

export const ADMIN_GROUP_ID = 1;
export const USER_GROUP_ID = 2;

export interface NewUser {
  email: string;
  /** null: no Cirrus password (an account an upstream provider made, api-contract §15); the stored hash is '', which never verifies. */
  password: string | null;
  nickname?: string;
  groupId?: number;
  /** 'inactive' until the address is confirmed (sign-up with activation). */
  status?: 'active' | 'inactive';
  /** The address is known to reach the person (an upstream provider said so). */
  emailVerified?: boolean;
  /** The language of the account's mails ('en', 'zh-CN'). */
  locale?: string | null;
  /**
   * The first administrator's password comes from the operator's
   * configuration (CIRRUS_ADMIN_PASSWORD) or is generated: it is not judged.
   */
  skipStrengthCheck?: boolean;
}

/**
 * What accounts need from sessions when a user changes (sessions' RevocationService
 * satisfies it). Declared here so accounts does not depend on sessions, which
 * depends on accounts for sign-in.
 */
export interface UserRevocation {
  revokeUserSessions(userId: string, reason: string, exceptSid?: string): Promise<void>;
  revokeUser(userId: string, reason: string): Promise<void>;
}

export const DEFAULT_USER_QUOTA = 10 * 1024 ** 3;
export const DEFAULT_ADMIN_QUOTA = 1024 ** 4;

export type UserDeletedHook = (userId: string) => Promise<void>;
/** Told when the password or the address changes: every link mailed before must stop working (links.ts). */
export type CredentialsChangedHook = (userId: string) => Promise<void>;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export class AccountService {
  private deletedHooks: UserDeletedHook[] = [];
  private changedHooks: CredentialsChangedHook[] = [];

  constructor(
    readonly repo: AccountRepository,
    private readonly settings: SettingsService,
    private readonly revocation: UserRevocation,
    readonly cache: UserCache,
    private readonly clock: Clock,
    private readonly throttle: Throttle,
    private readonly recovery?: RecoveryCodes,
  ) {}

  /** Features that own per-user data (files, OAuth grants) clean up through this. */
  onUserDeleted(hook: UserDeletedHook): void {
    this.deletedHooks.push(hook);
  }

  /** The mailed links void themselves through this (a link must not outlive the password or address it was sent under). */
  onCredentialsChanged(hook: CredentialsChangedHook): void {
    this.changedHooks.push(hook);
  }

  private async credentialsChanged(userId: string): Promise<void> {
    for (const hook of this.changedHooks) await hook(userId);
  }

  /** The two groups every site starts with (idempotent; site initialization). */
  async ensureDefaultGroups(now = this.clock.now()): Promise<void> {
    await this.repo.insertGroupIfAbsent({ id: ADMIN_GROUP_ID, name: 'Administrators', is_admin: 1, storage_quota: DEFAULT_ADMIN_QUOTA, max_versions: 10, version_days: 30, created_at: now });
    await this.repo.insertGroupIfAbsent({ id: USER_GROUP_ID, name: 'Users', is_admin: 0, storage_quota: DEFAULT_USER_QUOTA, max_versions: 10, version_days: 30, created_at: now });
  }

  countUsers(): Promise<number> {
    return this.repo.count();
  }

  findById(id: string): Promise<UserWithGroup | undefined> {
    return this.repo.findById(id);
  }

  /** The quota of a tree owner: a person, or a team folder's principal (which findById never answers). */
  findQuotaOwner(id: string): Promise<{ storage_quota: number | null; group_quota: number } | undefined> {
    return this.repo.findQuotaOwner(id);
  }

  /** Whether a tree owner's files may be served: an active person, or a team folder (always, while it exists). */
  async ownerActive(id: string): Promise<boolean> {
    if ((await this.cache.get(id))?.active === true) return true;
    return (await this.repo.statusOf(id)) === 'team';
  }

  async get(id: string): Promise<UserWithGroup> {
    const user = await this.repo.findById(id);
    if (!user) throw notFound('User not found');
    return user;
  }

  /** Whether the account has a Cirrus password (upstream accounts may have none). */
  async hasPassword(id: string): Promise<boolean> {
    return (await this.get(id)).password_hash !== '';
  }

  findByEmail(email: string): Promise<UserWithGroup | undefined> {
    return this.repo.findByEmail(normalizeEmail(email));
  }

  async findByLogin(login: string): Promise<UserWithGroup | undefined> {
    return (await this.repo.findById(login)) ?? (await this.repo.findByEmail(normalizeEmail(login)));
  }

  async create(input: NewUser): Promise<UserWithGroup> {
    const email = normalizeEmail(input.email);
    if (!input.skipStrengthCheck && input.password !== null) await this.checkNewPassword(input.password, [email, input.nickname ?? '']);
    if (await this.repo.findByEmail(email)) throw new DomainError(ErrorCode.EmailTaken, 'This e-mail is already registered');
    const groupId = input.groupId ?? (await this.settings.current()).default_group_id;
    if (!(await this.repo.findGroup(groupId))) throw new DomainError(ErrorCode.ParamError, 'group_id: no such group');
    const now = this.clock.now();
    const id = shortId(10);
    try {
      await this.repo.insert({
        id,
        email,
        nickname: input.nickname?.trim() || email.split('@')[0]!.slice(0, 64),
        password_hash: input.password === null ? '' : await hashPassword(input.password),
        group_id: groupId,
        status: input.status ?? 'active',
        storage_quota: null,
        totp_secret: null,
        totp_pending_secret: null,
        totp_last_step: null,
        tokens_valid_after: 0,
        avatar_at: null,
        email_verified: input.emailVerified ? 1 : 0,
        locale: input.locale ?? null,
        created_at: now,
        updated_at: now,
      });
    } catch (err) {
      // A concurrent sign-up with the same e-mail loses on the unique index.
      if (await this.repo.findByEmail(email)) throw new DomainError(ErrorCode.EmailTaken, 'This e-mail is already registered');
      throw err;
    }
    return this.get(id);
  }

  /** 400/40001 with the reason when a new password is too easy to guess (password-strength.ts). */
  async checkNewPassword(password: string, userInputs: string[] = []): Promise<void> {
    // zxcvbn's dictionaries are about 11 MB of heap: loaded with the first new password, not at start-up.
    const { checkPasswordStrength } = await import('./password-strength.js');
    checkPasswordStrength(password, userInputs);
  }

  /**
   * A password set through a link mailed to the account (reset): ends every
   * session and token of the user; the link went to the current address
   * (password-reset.ts checks), so it is verified (and an account waiting
   * for activation is activated).
   */
  async setPasswordByLink(userId: string, password: string): Promise<void> {
    const user = await this.get(userId);
    const now = this.clock.now();
    await this.repo.update(userId, {
      password_hash: await hashPassword(password),
      tokens_valid_after: now,
      updated_at: now,
      email_verified: 1,
      ...(user.status === 'inactive' ? { status: 'active' as const } : {}),
    });
    await this.revocation.revokeUserSessions(userId, 'password_reset');
    await this.credentialsChanged(userId);
    this.cache.invalidate(userId);
  }

  /** Sign-up puts new accounts in this group, so it must exist and must not grant administrator rights. */
  async checkDefaultGroup(groupId: number): Promise<void> {
    const group = await this.repo.findGroup(groupId);
    if (!group) throw new DomainError(ErrorCode.ParamError, 'default_group_id: no such group');
    if (group.is_admin === 1) throw new DomainError(ErrorCode.ParamError, 'default_group_id: new accounts cannot join an administrators group');
  }

  async signUp(input: NewUser): Promise<UserWithGroup> {
    if (!(await this.settings.current()).signup_enabled) throw new DomainError(ErrorCode.FeatureDisabled, 'Sign-up is closed on this site');
    return this.create({ email: input.email, password: input.password, nickname: input.nickname, status: input.status, locale: input.locale });
  }

  /** A link mailed to the address was used: the address is verified (and, for activation, the account active). */
  async markAddressProven(userId: string, opts: { activate: boolean }): Promise<void> {
    const user = await this.get(userId);
    await this.repo.update(userId, {
      email_verified: 1,
      ...(opts.activate && user.status === 'inactive' ? { status: 'active' as const } : {}),
      updated_at: this.clock.now(),
    });
    this.cache.invalidate(userId);
  }

  /** The address changes to one a confirmation link reached (so it is verified); 40032 when someone took it meanwhile. */
  async changeEmail(userId: string, emailInput: string): Promise<void> {
    const email = normalizeEmail(emailInput);
    const owner = await this.repo.findByEmail(email);
    if (owner && owner.id !== userId) throw new DomainError(ErrorCode.EmailTaken, 'This e-mail is already registered');
    try {
      await this.repo.update(userId, { email, email_verified: 1, updated_at: this.clock.now() });
    } catch (err) {
      // Taken between the check and the write: the unique index decides.
      if (await this.repo.findByEmail(email)) throw new DomainError(ErrorCode.EmailTaken, 'This e-mail is already registered');
      throw err;
    }
    await this.credentialsChanged(userId);
    this.cache.invalidate(userId);
  }

  /** The user when the password is right, else undefined; takes the same time for unknown e-mails. */
  async checkCredentials(email: string, password: string): Promise<UserWithGroup | undefined> {
    const user = await this.repo.findByEmail(normalizeEmail(email));
    // An account without a Cirrus password ('' hash) takes the same time as an unknown one.
    if (!user || user.password_hash === '') {
      await burnPasswordCheck(password);
      return undefined;
    }
    return (await verifyPassword(user.password_hash, password)) ? user : undefined;
  }

  async verifySecondFactor(userId: string, otp: string): Promise<UserWithGroup | undefined> {
    const user = await this.repo.findById(userId);
    if (!user?.totp_secret) return undefined;
    // A recovery code in place of the TOTP code: each works once.
    if (RECOVERY_CODE_INPUT.test(otp.trim())) return this.recovery && (await this.recovery.take(userId, otp)) ? user : undefined;
    const step = matchTotp(user.totp_secret, otp, this.clock.now());
    // Each code works once, even inside its 30 s step.
    if (step === null || !(await this.repo.claimTotpStep(userId, step))) return undefined;
    return user;
  }

  async updateProfile(userId: string, patch: { nickname?: string }): Promise<UserWithGroup> {
    if (patch.nickname !== undefined) {
      const nickname = patch.nickname.trim();
      if (!nickname) throw new DomainError(ErrorCode.ParamError, 'nickname: must not be empty');
      const now = this.clock.now();
      // nickname_at: how long "Shared with me" labels with this nickname have been held (sharing/resolver.ts).
      await this.repo.update(userId, { nickname, updated_at: now, ...(nickname !== (await this.get(userId)).nickname ? { nickname_at: now } : {}) });
      this.cache.invalidate(userId);
    }
    return this.get(userId);
  }

  /**
   * 400/40069 unless `password` is the user's current password. A re-check
   * is a guess like a sign-in (whoever stole an access token does not know
   * the password): it is reserved in the throttle before argon2 runs, under
   * a per-account key of its own (429 past 5 wrong ones, then the doubling
   * lock), so a thief cannot lock the owner's sign-in either.
   */
  async checkPassword(userId: string, password: string): Promise<void> {
    const user = await this.get(userId);
    const right = await this.throttle.attempt([{ key: `recheck:${userId}`, policy: ACCOUNT_POLICY, clearOnSuccess: true }], () => verifyPassword(user.password_hash, password));
    if (!right) throw new DomainError(ErrorCode.WrongCurrentPassword, 'Current password is wrong');
  }

  /** Changes the password and ends every other session of the user. */
  async changePassword(userId: string, current: string, next: string, keepSid: string | null): Promise<void> {
    const user = await this.get(userId);
    await this.checkPassword(userId, current);
    await this.checkNewPassword(next, [user.email, user.nickname]);
    const now = this.clock.now();
    // tokens_valid_after ends the tokens that no family revocation reaches (method C);
    // the kept session's tokens belong to a live family and are spared (access-tokens.ts).
    await this.repo.update(userId, { password_hash: await hashPassword(next), tokens_valid_after: now, updated_at: now });
    await this.revocation.revokeUserSessions(userId, 'password_changed', keepSid ?? undefined);
    await this.credentialsChanged(userId);
    this.cache.invalidate(userId);
  }

  /** Admin changes: group, status, password, quota, nickname. */
  async adminUpdate(
    actorId: string,
    userId: string,
    patch: { nickname?: string; group_id?: number; status?: 'active' | 'banned'; password?: string; storage_quota?: number | null },
  ): Promise<UserWithGroup> {
    const user = await this.get(userId);
    if (patch.password !== undefined) await this.checkNewPassword(patch.password, [user.email, user.nickname]);
    if (patch.group_id !== undefined && !(await this.repo.findGroup(patch.group_id))) throw new DomainError(ErrorCode.ParamError, 'group_id: no such group');
    const losesAdmin = user.group_is_admin === 1 && ((patch.group_id !== undefined && patch.group_id !== user.group_id) || patch.status === 'banned');
    if (losesAdmin && userId === actorId) throw new DomainError(ErrorCode.Forbidden, 'You cannot demote or ban yourself');
    if (losesAdmin && (await this.repo.countActiveAdmins()) <= 1) throw new DomainError(ErrorCode.Forbidden, 'The last administrator cannot be demoted or banned');
    const now = this.clock.now();
    const endsTokens = patch.password !== undefined || (patch.status === 'banned' && user.status !== 'banned');
    await this.repo.update(userId, {
      ...(patch.nickname !== undefined ? { nickname: patch.nickname.trim() || user.nickname } : {}),
      ...(patch.nickname !== undefined && (patch.nickname.trim() || user.nickname) !== user.nickname ? { nickname_at: now } : {}),
      ...(patch.group_id !== undefined ? { group_id: patch.group_id } : {}),
      ...(patch.status !== undefined ? { status: patch.status } : {}),
      ...(patch.password !== undefined ? { password_hash: await hashPassword(patch.password) } : {}),
      ...(patch.storage_quota !== undefined ? { storage_quota: patch.storage_quota } : {}),
      ...(endsTokens ? { tokens_valid_after: now } : {}),
      updated_at: now,
    });
    if (patch.status === 'banned' && user.status !== 'banned') await this.revocation.revokeUser(userId, 'banned');
    else if (patch.password !== undefined) await this.revocation.revokeUserSessions(userId, 'password_reset');
    if (patch.password !== undefined) await this.credentialsChanged(userId);
    this.cache.invalidate(userId);
    return this.get(userId);
  }

  /** A page of users, newest last, with the total count. */
  async list(page: number, pageSize: number, query: UserListQuery = {}): Promise<{ users: UserWithGroup[]; total: number }> {
    const [users, total] = await Promise.all([this.repo.list((page - 1) * pageSize, pageSize, query), this.repo.count(query)]);
    return { users, total };
  }

  /** Sets a generated password (returned, to be shown once) and ends every session of the user, as an admin reset does. */
  async resetPassword(userId: string): Promise<string> {
    // 16 characters without look-alikes: about 93 bits, easy to read out.
    const password = shortId(16);
    await this.adminUpdate('', userId, { password });
    return password;
  }

  /** Ends every session of the user (first-party and OAuth): refresh tokens at once, access tokens within the revocation bound. */
  async signOutEverywhere(userId: string): Promise<void> {
    await this.get(userId);
    await this.repo.update(userId, { tokens_valid_after: this.clock.now() });
    await this.revocation.revokeUserSessions(userId, 'admin_sign_out');
    this.cache.invalidate(userId);
  }

  async delete(actorId: string, userId: string): Promise<void> {
    const user = await this.get(userId);
    if (userId === actorId) throw new DomainError(ErrorCode.Forbidden, 'You cannot delete yourself');
    if (user.group_is_admin === 1 && user.status === 'active' && (await this.repo.countActiveAdmins()) <= 1) {
      throw new DomainError(ErrorCode.Forbidden, 'The last administrator cannot be deleted');
    }
    await this.revocation.revokeUser(userId, 'deleted');
    // The hooks remove what other modules keep of the person (files, uploads, …). A background
    // job touching the person meanwhile (the search indexer, media, quota notices resolve their
    // tree) makes their root folder and storage counters again, whose foreign keys then refuse
    // the delete: the hooks run again and the delete is retried, rather than answering 500
    // (seen in CI: DELETE /admin/user answered 500 once in a few hundred runs).
    for (let attempt = 1; ; attempt++) {
      for (const hook of this.deletedHooks) await hook(userId);
      try {
        await this.repo.delete(userId);
        break;
      } catch (err) {
        if (!isForeignKeyViolation(err) || attempt === 3) throw err;
      }
    }
    this.cache.invalidate(userId);
  }
}
