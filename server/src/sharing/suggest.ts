// Suggestions for the share dialog's recipient field: the people and groups
// the asker may share with as they type, within the site's `share_with`
// setting, and never an address book of the site (docs/security.md, "No
// address-book probing").
//
// - A prefix (of an e-mail or nickname) lists only people of the asker's own
//   group: those they work with. With `share_with: anyone`, everyone else is
//   a valid recipient but is found only by their exact e-mail or UID, which
//   is what a grant already accepts; so typing "a" never lists the site.
// - An exact address or UID is resolved only to someone the asker may share
//   with (the grant's rule); anyone else gets the same empty answer as an
//   unknown address. Exact lookups are counted per person (LOOKUP_POLICY), as
//   grants are, so the field is no faster oracle than the grant call.
// - Groups by name prefix: any group with `share_with: anyone` (a grant may
//   name any), only one's own with `groups`.
// - At most SUGGEST_LIMIT of each.
import { DomainError, ErrorCode, notFound } from '../core/errors.js';
import type { AccessRepository } from './repository.js';
import type { Person, SharingPorts } from './service.js';

export const SUGGEST_LIMIT = 8;

/** A complete-looking e-mail address, or a UID (accounts are given shortId(10)). */
const EXACT = /^(?:[^\s@]+@[^\s@]+\.[^\s@]+|[A-Za-z0-9_-]{10})$/;

export interface Suggestions {
  people: { id: string; email: string; nickname: string }[];
  groups: { id: number; name: string }[];
}

export class RecipientSuggestions {
  constructor(
    private readonly repo: AccessRepository,
    private readonly ports: SharingPorts,
  ) {}

  async suggest(actorId: string, query: string): Promise<Suggestions> {
    const policy = await this.ports.shareWith();
    if (policy === 'nobody') throw new DomainError(ErrorCode.FeatureDisabled, 'Sharing with people is turned off on this site');
    const actor = await this.ports.findUserById(actorId);
    if (!actor) throw notFound('User not found');
    const text = query.trim();
    if (!text) return { people: [], groups: [] };
    const [people, groups] = await Promise.all([
      this.repo.peopleOfGroupByPrefix(actor.group_id, text, actor.id, SUGGEST_LIMIT),
      this.repo.groupsByPrefix(text, SUGGEST_LIMIT, policy === 'groups' ? actor.group_id : undefined),
    ]);
    if (EXACT.test(text) && !people.some((p) => p.id === text || p.email.toLowerCase() === text.toLowerCase())) {
      await this.ports.countLookup(actorId);
      const exact = await this.ports.findUser(text);
      if (exact && this.mayShareWith(actor, exact, policy)) people.unshift({ id: exact.id, email: exact.email, nickname: exact.nickname });
    }
    return { people: people.slice(0, SUGGEST_LIMIT), groups };
  }

  /** The grant's rule (AccessService.grant): an active person, of one's group under `groups`, not oneself. */
  private mayShareWith(actor: Person, person: Person, policy: 'anyone' | 'groups'): boolean {
    return person.status === 'active' && person.id !== actor.id && (policy === 'anyone' || person.group_id === actor.group_id);
  }
}
