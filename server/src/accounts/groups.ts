// User groups: administrator rights and storage quota for their members, and
// the rules that keep a site administrable (api-contract §10, docs/api.md).
import { DomainError, ErrorCode, conflict, notFound } from '../core/errors.js';
import type { SettingsService } from '../site/settings.js';
import type { GroupRepository, GroupWithCount } from './groups-repository.js';
import type { GroupRow } from './repository.js';
import type { UserCache } from './user-cache.js';
import type { Clock } from '../core/clock.js';

export interface GroupView {
  id: number;
  name: string;
  is_admin: boolean;
  /** Bytes; 0 means no storage. */
  storage_quota: number;
  /** File versions kept per file; 0 = none (issue 21). */
  max_versions: number;
  /** Days a version is kept after it was replaced. */
  version_days: number;
  user_count: number;
  created_at: string;
}

export interface GroupFields {
  name: string;
  is_admin?: boolean;
  storage_quota?: number;
  max_versions?: number;
  version_days?: number;
}

export function toGroupView(g: GroupRow, userCount: number): GroupView {
  return {
    id: g.id,
    name: g.name,
    is_admin: g.is_admin === 1,
    storage_quota: Number(g.storage_quota),
    max_versions: Number(g.max_versions),
    version_days: Number(g.version_days),
    user_count: userCount,
    created_at: new Date(Number(g.created_at)).toISOString(),
  };
}

const paramError = (message: string) => new DomainError(ErrorCode.ParamError, message);

export class GroupService {
  constructor(
    private readonly repo: GroupRepository,
    private readonly settings: SettingsService,
    private readonly users: UserCache,
    private readonly clock: Clock,
  ) {}

  async list(): Promise<GroupView[]> {
    return (await this.repo.list()).map((g: GroupWithCount) => toGroupView(g, g.user_count));
  }

  private async view(id: number): Promise<GroupView> {
    const group = await this.repo.find(id);
    if (!group) throw notFound('Group not found');
    return toGroupView(group, await this.repo.countUsers(id));
  }

  private async checkName(name: string, exceptId?: number): Promise<string> {
    const trimmed = name.trim();
    if (!trimmed) throw paramError('name: must not be empty');
    const existing = await this.repo.findByName(trimmed);
    if (existing && existing.id !== exceptId) throw conflict(`name: a group named ${JSON.stringify(existing.name)} already exists`);
    return trimmed;
  }

  async create(input: GroupFields): Promise<GroupView> {
    const name = await this.checkName(input.name);
    let id: number;
    try {
      id = await this.repo.insert({ name, is_admin: input.is_admin ? 1 : 0, storage_quota: input.storage_quota ?? 0, max_versions: input.max_versions ?? 10, version_days: input.version_days ?? 30, created_at: this.clock.now() });
    } catch (err) {
      // Two creations at once: the name's unique index or the id decides.
      if (await this.repo.findByName(name)) throw conflict(`name: a group named ${JSON.stringify(name)} already exists`);
      throw err;
    }
    return this.view(id);
  }

  async update(id: number, patch: Partial<GroupFields>): Promise<GroupView> {
    const group = await this.repo.find(id);
    if (!group) throw notFound('Group not found');
    const name = patch.name !== undefined ? await this.checkName(patch.name, id) : undefined;
    const wasAdmin = group.is_admin === 1;
    const isAdmin = patch.is_admin ?? wasAdmin;
    if (isAdmin && !wasAdmin && (await this.settings.current()).default_group_id === id) {
      throw paramError('is_admin: this is the default group for sign-up, which cannot be an administrator group; choose another default group in Settings first');
    }
    if (wasAdmin && !isAdmin && (await this.repo.countActiveAdmins(id)) > 0 && (await this.repo.countActiveAdminsOutside(id)) === 0) {
      throw new DomainError(ErrorCode.Forbidden, 'is_admin: the last active administrators are in this group; it cannot lose administrator rights');
    }
    await this.repo.update(id, {
      ...(name !== undefined ? { name } : {}),
      ...(patch.is_admin !== undefined ? { is_admin: patch.is_admin ? 1 : 0 } : {}),
      ...(patch.storage_quota !== undefined ? { storage_quota: patch.storage_quota } : {}),
      ...(patch.max_versions !== undefined ? { max_versions: patch.max_versions } : {}),
      ...(patch.version_days !== undefined ? { version_days: patch.version_days } : {}),
    });
    // Members' rights changed: this instance forgets them at once, others through Redis (or within the cache's few seconds).
    if (isAdmin !== wasAdmin) this.users.clear();
    return this.view(id);
  }

  async delete(id: number): Promise<void> {
    const group = await this.repo.find(id);
    if (!group) throw notFound('Group not found');
    if ((await this.settings.current()).default_group_id === id) {
      throw conflict('This is the default group for sign-up; choose another default group in Settings before deleting it');
    }
    if (await this.repo.deleteIfEmpty(id)) return;
    const teams = await this.repo.countTeamFolders(id);
    if (teams > 0) throw new DomainError(ErrorCode.Conflict, `This group has ${teams} team folder${teams === 1 ? '' : 's'}; delete ${teams === 1 ? 'it' : 'them'} first`, { data: { team_folder_count: teams } });
    const users = await this.repo.countUsers(id);
    throw new DomainError(ErrorCode.Conflict, `This group still has ${users} user${users === 1 ? '' : 's'}; move ${users === 1 ? 'it' : 'them'} to another group first`, { data: { user_count: users } });
  }
}
