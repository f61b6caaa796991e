// Password sign-in through LDAP directories (api-contract §15): the enabled
// directories are asked in order; the first that finds the login and accepts
// the password names the person, whose account is then found, made or
// brought up to date by the linking rules (group following the directory).
// The periodic check bans the linked people a directory no longer has, and
// so ends their sessions.
import { DomainError, ErrorCode } from '../../core/errors.js';
import type { UserWithGroup } from '../../db/schema.js';
import type { AccountService } from '../../accounts/service.js';
import type { JobLogger } from '../../core/jobs.js';
import type { IdentityLinking } from '../linking.js';
import type { LdapProvider, ProviderService } from '../providers.js';
import { Directory, DirectoryUnavailable } from './directory.js';

export class LdapSignIn {
  constructor(
    private readonly providers: ProviderService,
    private readonly linking: IdentityLinking,
    private readonly accounts: AccountService,
    private readonly log: () => JobLogger,
  ) {}

  /** Whether any directory is enabled (password sign-in then also accepts a directory login). */
  async active(): Promise<boolean> {
    return (await this.providers.enabledLdap()).length > 0;
  }

  /**
   * The account of the person whose directory password this is, or undefined
   * when no enabled directory accepts it. A directory that cannot be asked is
   * skipped; when none answered and one was down, the 503 says so (the
   * password was not judged, so it is not counted as a wrong guess).
   */
  async signIn(login: string, password: string): Promise<{ user: UserWithGroup; providerId: string } | undefined> {
    if (password === '') return undefined;
    let down: DirectoryUnavailable | undefined;
    for (const p of await this.providers.enabledLdap()) {
      let person;
      try {
        person = await new Directory(p).authenticate(login, password);
      } catch (err) {
        if (!(err instanceof DirectoryUnavailable)) throw err;
        this.log().warn({ provider: p.id, err_message: err.message }, 'LDAP directory unavailable at sign-in');
        down ??= err;
        continue;
      }
      if (!person) continue;
      const user = await this.linking.resolve(p, { subject: person.dn, login: login.trim(), email: person.email, emailVerified: true, name: person.name, groups: person.groups });
      return { user, providerId: p.id };
    }
    if (down) {
      throw new DomainError(ErrorCode.Internal, `The directory ${down.providerName} cannot be reached right now; try again later`, { kind: 'unavailable', detail: down.message });
    }
    return undefined;
  }

  /**
   * The periodic check: each person linked through an enabled directory that
   * the directory no longer has (or no longer matches user_filter) is
   * banned, which ends their sessions. A directory that cannot be asked bans
   * nobody (an outage is not an off-boarding). Returns how many were banned.
   */
  async check(): Promise<number> {
    let banned = 0;
    const failures: string[] = [];
    for (const p of await this.providers.enabledLdap()) {
      try {
        banned += await this.checkProvider(p);
      } catch (err) {
        if (!(err instanceof DirectoryUnavailable)) throw err;
        failures.push(err.message);
      }
    }
    if (failures.length > 0) throw new Error(`LDAP check could not ask: ${failures.join('; ')}`);
    return banned;
  }

  private async checkProvider(p: LdapProvider): Promise<number> {
    const directory = new Directory(p);
    let banned = 0;
    for (const identity of await this.linking.ofProvider(p.id)) {
      if (await directory.stillThere(identity.subject)) continue;
      const user = await this.accounts.findById(identity.user_id);
      if (!user || user.status !== 'active') continue;
      try {
        await this.accounts.adminUpdate('', user.id, { status: 'banned' });
        banned++;
        this.log().warn({ provider: p.id, user: user.id }, 'LDAP: person no longer in the directory, banned');
      } catch (err) {
        // The last administrator is kept: a directory change must not lock the site out.
        if (!(err instanceof DomainError && err.code === ErrorCode.Forbidden)) throw err;
        this.log().error({ provider: p.id, user: user.id }, 'LDAP: person no longer in the directory, but is the last administrator: not banned');
      }
    }
    return banned;
  }
}
