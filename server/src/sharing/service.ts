// Grants to people and groups (api-contract §13): who may be given access
// (the site's `share_with` setting), granting, listing, revoking, and what a
// person finds under "Shared with me". Paths are resolved by the files
// service, so an owner shares by their own path and a recipient allowed to
// reshare by their "/Shared with me/…" path.
import { DomainError, ErrorCode, badRequest, forbidden, notFound } from '../core/errors.js';
import { shortId } from '../crypto/random.js';
import type { FilesService } from '../files/service.js';
import { FOLDER } from '../files/service.js';
import { parsePath } from '../files/names.js';
import type { AccessRepository, GrantRow } from './repository.js';
import { labelOf, mountPath, mountRowsFor } from './audience-repository.js';
import { SHARED_WITH_ME, type Mount, type SharedPaths } from './resolver.js';
import type { Clock } from '../core/clock.js';

export type Permission = 'read' | 'write';
export type ShareWith = 'anyone' | 'groups' | 'nobody';

export interface Person {
  id: string;
  email: string;
  nickname: string;
  group_id: number;
  status: string;
  locale: string | null;
}

/** What sharing needs from accounts, settings and mail. */
export interface SharingPorts {
  findUser(login: string): Promise<Person | undefined>;
  findUserById(id: string): Promise<Person | undefined>;
  shareWith(): Promise<ShareWith>;
  /** Queues the "shared with you" mail when mail is configured (never throws). */
  notify(to: Person, vars: { owner: string; name: string; permission: Permission }): Promise<void>;
  /** Counts one grant by `actorId`; throws the 429 once they made too many lately (GRANT_POLICY). */
  countGrant(actorId: string): Promise<void>;
  /** Counts one exact recipient lookup by `actorId` (suggest.ts); throws the 429 past LOOKUP_POLICY. */
  countLookup(actorId: string): Promise<void>;
}

/** One mail per recipient and item (and per recipient and group-granting person) in this period. */
export const NOTICE_PERIOD_MS = 24 * 3600_000;

export interface GrantInput {
  path: string;
  user?: string;
  group?: number;
  permission: Permission;
  reshare?: boolean;
}

export interface GrantView {
  id: string;
  user?: { id: string; email: string; nickname: string };
  group?: { id: number; name: string };
  permission: Permission;
  reshare: boolean;
  created_at: string;
}

/** A grant with its item, for "Shared by me" (path null while the item is in the trash). */
export interface GivenGrant extends GrantView {
  item: { id: string; name: string; type: 'file' | 'folder'; path: string | null };
}

/** "Shared by me" lists at most this many grants, the newest. */
export const MAX_GIVEN = 1000;

export interface SharedItem {
  id: string;
  name: string;
  type: 'file' | 'folder';
  path: string;
  permission: Permission;
  reshare: boolean;
  owner: { id: string; nickname: string; email: string };
  created_at: string;
  /** Granted since the person last opened "Shared with me". */
  new: boolean;
}

export class AccessService {
  constructor(
    private readonly repo: AccessRepository,
    private readonly files: FilesService,
    private readonly paths: SharedPaths,
    private readonly ports: SharingPorts,
    private readonly clock: Clock,
  ) {}

  /**
   * Who may manage grants on the item at `path`: its owner, or a recipient
   * whose own grant allows resharing (and who can then give at most what they hold).
   */
  private async manager(actorId: string, path: string): Promise<{ fileId: string; ownerId: string; name: string; ceiling: Permission | null }> {
    const entry = await this.files.resolve(actorId, path);
    if (entry.row.id === 'shared-with-me' || entry.row.parent_id === null) throw badRequest('path: the root folder cannot be shared');
    if (entry.row.owner_id === actorId) return { fileId: entry.row.id, ownerId: actorId, name: entry.row.name, ceiling: null };
    const names = parsePath(path);
    const mount = names[0] === SHARED_WITH_ME ? (await this.paths.mounts(actorId)).find((m) => m.label === names[1]) : undefined;
    if (!mount || mount.reshare !== 1) throw forbidden('Only the owner can share this item');
    return { fileId: entry.row.id, ownerId: entry.row.owner_id, name: entry.row.name, ceiling: mount.permission };
  }

  async grant(actorId: string, input: GrantInput): Promise<GrantView> {
    if ((input.user === undefined) === (input.group === undefined)) throw badRequest('user or group: give exactly one');
    const target = await this.manager(actorId, input.path);
    if (target.ceiling === 'read' && input.permission === 'write') throw forbidden('You can only give the access you have');
    // Every grant counts, so a grant, revoke, grant loop slows down like anything else.
    await this.ports.countGrant(actorId);
    const policy = await this.ports.shareWith();
    if (policy === 'nobody') throw new DomainError(ErrorCode.FeatureDisabled, 'Sharing with people is turned off on this site');
    const actor = await this.ports.findUserById(actorId);
    if (!actor) throw notFound('User not found');
    let recipients: Person[] = [];
    let row: GrantRow;
    const base = {
      id: shortId(16), file_id: target.fileId, owner_id: target.ownerId, permission: input.permission,
      reshare: input.reshare && target.ceiling === null ? 1 : 0, created_by: actorId, created_at: this.clock.now(),
    };
    if (input.user !== undefined) {
      const user = await this.ports.findUser(input.user.trim());
      // The same answer for "no such person" and "not someone you may share with": no address book to probe.
      if (!user || user.status !== 'active' || (policy === 'groups' && user.group_id !== actor.group_id)) {
        throw notFound(policy === 'groups' ? 'No one in your group has this e-mail or UID' : 'No one has this e-mail or UID');
      }
      if (user.id === target.ownerId) throw badRequest('user: the owner already has access');
      row = await this.changeGrants(actorId, target.ownerId, [user.id], async (repo) => {
        await this.mayReplace(repo, actorId, target, { user_id: user.id });
        return repo.upsert({ ...base, user_id: user.id, group_id: null });
      }, (r) => (r.id === base.id ? { fileId: target.fileId, type: 'shared' } : null));
      recipients = [user];
    } else {
      const group = input.group!;
      if (policy === 'groups' && group !== actor.group_id) throw notFound('You can share only with your own group');
      if (!(await this.repo.groupExists(group))) throw notFound('Group not found');
      const members = await this.repo.membersOf(group);
      row = await this.changeGrants(actorId, target.ownerId, members.map((m) => m.id), async (repo) => {
        await this.mayReplace(repo, actorId, target, { group_id: group });
        return repo.upsert({ ...base, user_id: null, group_id: group });
      }, (r) => (r.id === base.id ? { fileId: target.fileId, type: 'shared' } : null));
      recipients = (await Promise.all(members.filter((m) => m.id !== target.ownerId && m.id !== actorId).map((m) => this.ports.findUserById(m.id)))).filter(
        (p): p is Person => p !== undefined,
      );
    }
    // A new grant (not a change of permission) is announced, at most once per
    // period for the same item (a grant, revoke, grant loop sends nothing new),
    // and a group's members get one mail per period for all the group grants
    // of one person: they see the rest under "Shared with me".
    if (row.id === base.id) {
      const now = this.clock.now();
      const subject = input.user !== undefined ? target.fileId : `group:${actorId}`;
      for (const person of recipients) {
        if (await this.repo.claimNotice(person.id, subject, now, now - NOTICE_PERIOD_MS)) {
          await this.ports.notify(person, { owner: actor.nickname, name: target.name, permission: input.permission });
        }
      }
    }
    return this.view(row);
  }

  /**
   * A resharer changes only the grants they made: taking over the owner's (or
   * another resharer's) grant to the same person would let them lower it, or
   * raise it beyond what its maker gave. The owner may change any grant, and
   * it becomes theirs (no longer bounded by a resharer).
   */
  private async mayReplace(repo: AccessRepository, actorId: string, target: { fileId: string; ceiling: Permission | null }, to: { user_id: string } | { group_id: number }): Promise<void> {
    if (target.ceiling === null) return;
    const existing = await repo.existing(target.fileId, to);
    if (existing && existing.created_by !== actorId) throw forbidden('Someone else already gave this access; only they or the owner can change it');
  }

  async list(actorId: string, path: string): Promise<GrantView[]> {
    const target = await this.manager(actorId, path);
    const rows = await this.repo.ofFile(target.fileId);
    // A resharer sees the grants they made; the owner sees all.
    const mine = target.ceiling === null ? rows : rows.filter((r) => r.created_by === actorId);
    return Promise.all(mine.map((r) => this.view(r)));
  }

  /**
   * "Shared by me": the grants on the person's items and those they made as a
   * resharer, newest first, each with the item at the path the person
   * addresses it by (null while it is in the trash).
   */
  async given(actorId: string): Promise<GivenGrant[]> {
    const rows = await this.repo.givenBy(actorId, MAX_GIVEN);
    const paths = new Map<string, string | null>();
    const out: GivenGrant[] = [];
    for (const r of rows) {
      if (!paths.has(r.file_id)) {
        try {
          paths.set(r.file_id, (await this.files.getById(actorId, r.file_id)).path);
        } catch (err) {
          if (!(err instanceof DomainError) || err.code !== ErrorCode.NotFound) throw err;
          paths.set(r.file_id, null);
        }
      }
      const item = { id: r.file_id, name: r.name, type: r.kind === FOLDER ? ('folder' as const) : ('file' as const), path: paths.get(r.file_id) ?? null };
      out.push({ ...(await this.view(r)), item });
    }
    return out;
  }

  async revoke(actorId: string, id: string): Promise<void> {
    const row = await this.repo.find(id);
    if (!row || (row.owner_id !== actorId && row.created_by !== actorId)) throw notFound('Grant not found');
    const people = row.user_id !== null ? [row.user_id] : (await this.repo.membersOf(Number(row.group_id))).map((m) => m.id);
    await this.changeGrants(actorId, row.owner_id, people, (repo) => repo.delete(id), () => ({ fileId: row.file_id, type: 'unshared' }));
  }

  /**
   * Changes the owner's grants in a transaction holding the owner's tree lock
   * (so no change of the tree interleaves), keeps the tree's feed audience flag
   * (files/events/audience.ts) in step, and tells each of `people` whose
   * "Shared with me" gained or lost an item: a `created` of the mount on a
   * grant, a `deleted` on a revocation, in their own feeds.
   */
  private async changeGrants<T>(
    /** Who makes the change (its history names them). */
    actorId: string,
    ownerId: string,
    people: readonly string[],
    change: (repo: AccessRepository) => Promise<T>,
    /** The entry of the item's history (activity/) this change makes, if any. */
    history?: (result: T) => { fileId: string; type: 'shared' | 'unshared' } | null,
  ): Promise<T> {
    return this.files.mutate(ownerId, async (s) => {
      const repo = this.repo.on(s.db);
      // Grants these people made in turn are bounded by their access (backing-repository.ts): their recipients' views may change too.
      const others = [...new Set([...people, ...(await repo.reachedThrough(ownerId, people))])].filter((p) => p !== ownerId);
      const before = await mountRowsFor(s.db, others);
      const result = await change(repo);
      await s.usage.setAudience(ownerId, await repo.ownerHasGrants(ownerId));
      const after = await mountRowsFor(s.db, others);
      const items = new Map<string, { id: string; kind: number; size: number }>();
      const itemOf = async (fileId: string) => {
        let it = items.get(fileId);
        if (!it) {
          const f = await s.tree.findAnyById(fileId);
          it = { id: fileId, kind: f ? Number(f.kind) : 0, size: f ? Number(f.size) : 0 };
          items.set(fileId, it);
        }
        return it;
      };
      for (const userId of [...others].sort()) {
        const was = before.get(userId) ?? [];
        const is = after.get(userId) ?? [];
        for (const fileId of new Set([...was, ...is].map((r) => r.file_id))) {
          const old = labelOf(was, fileId);
          const now = labelOf(is, fileId);
          if (old === now) continue;
          const row = await itemOf(fileId);
          if (old === null) await s.events.deliver({ userId, type: 'created', row, path: mountPath(now!), oldPath: null });
          else if (now === null) await s.events.deliver({ userId, type: 'deleted', row, path: mountPath(old), oldPath: null });
          else await s.events.deliver({ userId, type: 'moved', row, path: mountPath(now), oldPath: mountPath(old) });
        }
      }
      const entry = history?.(result);
      if (entry) await this.files.noteActivity(s, ownerId, entry.fileId, entry.type);
      return result;
    }, { id: actorId });
  }

  async sharedWith(actorId: string): Promise<SharedItem[]> {
    const seenAt = await this.repo.seenAt(actorId);
    const out: SharedItem[] = [];
    for (const mount of await this.paths.mounts(actorId)) {
      const item = await this.paths.itemOf(mount);
      if (item) out.push(this.itemView(mount, seenAt));
    }
    return out;
  }

  /** Forgets notices older than the period (the hourly prune job). */
  pruneNotices(): Promise<void> {
    return this.repo.pruneNotices(this.clock.now() - NOTICE_PERIOD_MS);
  }

  async markSeen(actorId: string): Promise<void> {
    await this.repo.markSeen(actorId, this.clock.now());
  }

  private itemView(m: Mount, seenAt: number): SharedItem {
    return {
      id: m.id,
      name: m.name,
      type: m.kind === FOLDER ? 'folder' : 'file',
      path: `/${SHARED_WITH_ME}/${m.label}`,
      permission: m.permission,
      reshare: m.reshare === 1,
      owner: { id: m.owner_id, nickname: m.owner_nickname, email: m.owner_email },
      created_at: new Date(m.created_at).toISOString(),
      new: m.created_at > seenAt,
    };
  }

  private async view(r: GrantRow): Promise<GrantView> {
    const out: GrantView = { id: r.id, permission: r.permission, reshare: r.reshare === 1, created_at: new Date(Number(r.created_at)).toISOString() };
    if (r.user_id !== null) {
      const u = await this.ports.findUserById(r.user_id);
      out.user = { id: r.user_id, email: u?.email ?? '', nickname: u?.nickname ?? '' };
    }
    if (r.group_id !== null) out.group = { id: Number(r.group_id), name: (await this.repo.groupName(Number(r.group_id))) ?? '' };
    return out;
  }
}
