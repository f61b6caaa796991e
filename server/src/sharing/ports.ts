// Sharing's view of accounts, the site settings and mail, wired at start-up.
import type { AccountService } from '../accounts/service.js';
import type { SettingsService } from '../site/settings.js';
import { DomainError, ErrorCode } from '../core/errors.js';
import type { Throttle, ThrottlePolicy } from '../throttle/service.js';
import type { Person, SharingPorts } from './service.js';

/**
 * New grants per person: 100 an hour pass, then each waits longer (1 s,
 * 2 s, … up to 15 minutes) until the hour is over. Enough for anyone sharing
 * by hand; a script mailing a group over and over is stopped.
 */
export const GRANT_POLICY: ThrottlePolicy = { freeFailures: 99, windowMs: 3600_000, maxLockMs: 15 * 60_000 };

/**
 * Exact recipient lookups per person (the share dialog resolving a typed
 * address or UID): 200 an hour pass, then each waits longer, like grants. A
 * person types a handful of addresses a day; a script probing which addresses
 * have accounts is slowed to the grant call's pace.
 */
export const LOOKUP_POLICY: ThrottlePolicy = { freeFailures: 199, windowMs: 3600_000, maxLockMs: 15 * 60_000 };

/** Where a new grant's notice goes (notifications/: `shared_with_me`, in the app and by the person's mail preference). */
export type GrantNotice = (userId: string, data: { owner: string; name: string; permission: string; link: string }) => Promise<void>;

export function sharingPorts(accounts: AccountService, settings: SettingsService, tell: GrantNotice, throttle: Throttle): SharingPorts {
  return {
    async countGrant(actorId) {
      try {
        // The throttle counts "failures": every grant is one, and the 100th starts the first lock.
        await throttle.attemptKnown([{ key: `grants:${actorId}`, policy: GRANT_POLICY }], false);
      } catch (err) {
        if (err instanceof DomainError && err.code === ErrorCode.TooManyRequests) {
          throw new DomainError(ErrorCode.TooManyRequests, 'You have shared too much in the last hour; try again later', { retryAfterSeconds: err.retryAfterSeconds });
        }
        throw err;
      }
    },
    async countLookup(actorId) {
      try {
        await throttle.attemptKnown([{ key: `share-lookup:${actorId}`, policy: LOOKUP_POLICY }], false);
      } catch (err) {
        if (err instanceof DomainError && err.code === ErrorCode.TooManyRequests) {
          throw new DomainError(ErrorCode.TooManyRequests, 'You have looked up too many people in the last hour; try again later', { retryAfterSeconds: err.retryAfterSeconds });
        }
        throw err;
      }
    },
    findUser: (login) => accounts.findByLogin(login) as Promise<Person | undefined>,
    findUserById: (id) => accounts.findById(id) as Promise<Person | undefined>,
    shareWith: async () => (await settings.current()).share_with,
    async notify(to, vars) {
      // A grant stands whether or not its notice could be written (tell never throws).
      await tell(to.id, { ...vars, link: '/shared' });
    },
  };
}
