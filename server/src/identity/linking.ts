// Which Cirrus account an upstream person is (api-contract §15): an identity
// linked before; else, in a linking round trip, the signed-in person; else an
// existing account only when the provider vouches for the address and the
// administrator allows linking by it (never a takeover through an address
// nobody proved); else a new account when the administrator allows it, in
// the allowed domains. At every sign-in the person's group follows the
// provider's claim or the directory's groups.
import { DomainError, ErrorCode, notFound } from '../core/errors.js';
import { shortId } from '../crypto/random.js';
import type { Clock } from '../core/clock.js';
import type { UserWithGroup } from '../db/schema.js';
import type { AccountService } from '../accounts/service.js';
import { ADMIN_GROUP_ID } from '../accounts/service.js';
import type { IdentityRepository, IdentityRow } from './identities-repository.js';
import type { Mapping, Provider } from './providers.js';

export interface UpstreamPerson {
  /** OpenID Connect `sub`, or the directory entry's DN. */
  subject: string;
  /** The address or directory login shown in the person's list of identities. */
  login: string;
  email: string | undefined;
  emailVerified: boolean;
  name: string | undefined;
  /** The claim's or the directory's group values; null when the provider is not set up to say. */
  groups: string[] | null;
}

export interface IdentityView {
  id: string;
  provider_id: string;
  provider_name: string;
  provider_type: 'oidc' | 'ldap';
  login: string;
  created_at: string;
  last_used_at: string | null;
}

/** The group a person belongs in: admin_values first, then the first group_map entry they hold, else the default group. */
export function mappedGroup(m: Mapping, values: string[], defaultGroupId: number): number {
  const held = new Set(values);
  if (m.admin_values.some((v) => held.has(v))) return ADMIN_GROUP_ID;
  for (const [value, groupId] of Object.entries(m.group_map)) if (held.has(value)) return groupId;
  return defaultGroupId;
}

/** Other ways into an account than its identities (its password, its passkeys). */
export type OtherWaysIn = (userId: string) => Promise<number>;

export class IdentityLinking {
  constructor(
    private readonly repo: IdentityRepository,
    private readonly accounts: AccountService,
    private readonly defaultGroupId: () => Promise<number>,
    private readonly otherWaysIn: OtherWaysIn,
    private readonly clock: Clock,
  ) {}

  /** The account the person signs in to, created or linked by the rules above; its group and name brought up to date. */
  async resolve(p: Provider, person: UpstreamPerson, linkUserId: string | null = null): Promise<UserWithGroup> {
    const mapping = p.settings;
    const linked = await this.repo.findBySubject(p.id, person.subject);
    if (linkUserId !== null) {
      if (linked && linked.user_id !== linkUserId) throw new DomainError(ErrorCode.Conflict, `This ${p.name} identity is already linked to another account`);
      if (!linked) await this.link(p.id, person, linkUserId);
      return this.accounts.get(linkUserId);
    }
    if (linked) {
      await this.repo.touch(linked.id, person.login, this.clock.now());
      return this.refresh(linked.user_id, mapping, person);
    }
    const email = person.email?.trim().toLowerCase();
    if (!email || !/^[^@\s]+@[^@\s]+$/.test(email)) throw new DomainError(ErrorCode.Forbidden, `${p.name} gave no e-mail address for this person, so no account can be found or made`);
    const existing = await this.accounts.findByEmail(email);
    if (existing) {
      // Only the provider's word that the address is verified, and the administrator's consent, may join an existing account.
      if (p.type !== 'oidc' || !p.settings.link_by_verified_email || !person.emailVerified) {
        throw new DomainError(
          ErrorCode.EmailTaken,
          `An account with the address ${email} already exists: sign in to it and link ${p.name} under Settings → Sign-in methods`,
        );
      }
      await this.link(p.id, person, existing.id);
      return this.refresh(existing.id, mapping, person);
    }
    if (!mapping.create_accounts) throw new DomainError(ErrorCode.FeatureDisabled, `${p.name} is not allowed to create accounts on this site: ask an administrator`);
    if (p.type === 'oidc' && p.settings.allowed_domains.length > 0) {
      const domain = email.slice(email.lastIndexOf('@') + 1);
      if (!p.settings.allowed_domains.some((d) => d.toLowerCase() === domain)) {
        throw new DomainError(ErrorCode.FeatureDisabled, `Addresses at ${domain} may not create accounts through ${p.name}`);
      }
    }
    const groupId = person.groups === null ? undefined : mappedGroup(mapping, person.groups, await this.defaultGroupId());
    let user: UserWithGroup;
    try {
      user = await this.accounts.create({
        email,
        password: null,
        nickname: (person.name ?? '').trim().slice(0, 64) || undefined,
        groupId,
        emailVerified: person.emailVerified,
      });
    } catch (err) {
      // A concurrent first sign-in of the same person made it: use that one.
      const again = await this.repo.findBySubject(p.id, person.subject);
      if (again) return this.accounts.get(again.user_id);
      throw err;
    }
    await this.link(p.id, person, user.id);
    return user;
  }

  private async link(providerId: string, person: UpstreamPerson, userId: string): Promise<void> {
    const now = this.clock.now();
    const inserted = await this.repo.insert({ id: shortId(12), user_id: userId, provider_id: providerId, subject: person.subject, login: person.login, created_at: now, last_used_at: now });
    if (!inserted) {
      const other = await this.repo.findBySubject(providerId, person.subject);
      if (other && other.user_id !== userId) throw new DomainError(ErrorCode.Conflict, 'This identity is already linked to another account');
    }
  }

  /** The group (when the provider speaks of groups) and the name follow the provider at every sign-in. */
  private async refresh(userId: string, mapping: Mapping, person: UpstreamPerson): Promise<UserWithGroup> {
    let user = await this.accounts.get(userId);
    if (person.groups !== null) {
      const groupId = mappedGroup(mapping, person.groups, await this.defaultGroupId());
      if (groupId !== user.group_id) {
        try {
          user = await this.accounts.adminUpdate('', userId, { group_id: groupId });
        } catch (err) {
          // The last administrator keeps the rights: a directory change must not lock a site out.
          if (!(err instanceof DomainError && err.code === ErrorCode.Forbidden)) throw err;
        }
      }
    }
    const name = person.name?.trim().slice(0, 64);
    if (name && name !== user.nickname) user = await this.accounts.updateProfile(userId, { nickname: name });
    return user;
  }

  /** The identities linked to this person, with their providers' names. */
  async list(userId: string, providers: Provider[]): Promise<IdentityView[]> {
    const byId = new Map(providers.map((p) => [p.id, p]));
    return (await this.repo.listOfUser(userId)).flatMap((row) => {
      const p = byId.get(row.provider_id);
      return p ? [toIdentityView(row, p)] : [];
    });
  }

  /** Removes a linked identity; refused when it is the person's last way in. */
  async unlink(userId: string, identityId: string): Promise<void> {
    const row = await this.repo.find(identityId);
    if (!row || row.user_id !== userId) throw notFound('No such sign-in method');
    const others = (await this.repo.listOfUser(userId)).length - 1 + (await this.otherWaysIn(userId));
    if (others <= 0) {
      throw new DomainError(ErrorCode.Forbidden, 'This is your last way to sign in: set a password or add a passkey or another provider first');
    }
    await this.repo.delete(identityId);
  }

  /** The people a provider knows (LDAP's periodic check walks them). */
  ofProvider(providerId: string): Promise<IdentityRow[]> {
    return this.repo.listOfProvider(providerId);
  }
}

function toIdentityView(row: IdentityRow, p: Provider): IdentityView {
  return {
    id: row.id,
    provider_id: p.id,
    provider_name: p.name,
    provider_type: p.type,
    login: row.login,
    created_at: new Date(Number(row.created_at)).toISOString(),
    last_used_at: row.last_used_at === null ? null : new Date(Number(row.last_used_at)).toISOString(),
  };
}
