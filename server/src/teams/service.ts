// Team folders for administrators: create (a principal and its tree), rename,
// change the quota and the group's permission, per-member overrides, delete
// (the files first, then the principal). Members reach the folder through the
// resolver (resolver.ts); nothing here runs on a member's request.
import { shortId } from '../crypto/random.js';
import { DomainError, ErrorCode, badRequest, conflict, notFound } from '../core/errors.js';
import { parseName } from '../files/names.js';
import { requirePortableName } from '../files/name-rules.js';
import type { Clock } from '../core/clock.js';
import type { MemberPermission, TeamFolderWithQuota, TeamRepository } from './repository.js';

export interface TeamFolderView {
  id: string;
  group_id: number;
  name: string;
  permission: 'read' | 'write';
  storage_quota: number;
  storage_used: number;
  created_at: string;
  updated_at: string;
}

export interface OverrideView {
  user_id: string;
  email: string;
  nickname: string;
  permission: MemberPermission;
}

/** What team folders need of the file feature: deleting a principal's files (UploadService.deleteOwner). */
export interface TeamFilesPort {
  deleteOwner(ownerId: string): Promise<void>;
}

function toView(t: TeamFolderWithQuota): TeamFolderView {
  return {
    id: t.id,
    group_id: t.group_id,
    name: t.name,
    permission: t.permission,
    storage_quota: t.storage_quota,
    storage_used: t.used,
    created_at: new Date(t.created_at).toISOString(),
    updated_at: new Date(t.updated_at).toISOString(),
  };
}

export class TeamService {
  constructor(
    private readonly repo: TeamRepository,
    private readonly files: TeamFilesPort,
    private readonly reserved: readonly string[],
    private readonly clock: Clock,
  ) {}

  async list(groupId?: number): Promise<TeamFolderView[]> {
    return (await this.repo.list(groupId)).map(toView);
  }

  private async team(id: string): Promise<TeamFolderWithQuota> {
    const t = await this.repo.find(id);
    if (!t) throw notFound('Team folder not found');
    return t;
  }

  async get(id: string): Promise<TeamFolderView> {
    return toView(await this.team(id));
  }

  /** A team folder's name is one path segment under the files' own rules, and not a name the top of every tree keeps. */
  private checkName(raw: string): string {
    const name = parseName(raw, 'name');
    requirePortableName(name, 'name');
    if (this.reserved.some((r) => r.toLowerCase() === name.toLowerCase())) throw badRequest(`name: "${name}" is reserved`);
    return name;
  }

  async create(input: { group_id: number; name: string; storage_quota: number; permission?: 'read' | 'write' }): Promise<TeamFolderView> {
    const name = this.checkName(input.name);
    if (!(await this.repo.groupExists(input.group_id))) throw badRequest('group_id: no such group');
    if (await this.repo.nameTaken(input.group_id, name)) throw conflict('This group already has a team folder of this name (names that differ only in case are the same name)');
    const now = this.clock.now();
    const id = shortId(12);
    await this.repo.insert(
      { id, owner_id: `team-${id}`, group_id: input.group_id, name, permission: input.permission ?? 'write', created_at: now, updated_at: now },
      input.storage_quota,
    );
    return this.get(id);
  }

  async update(id: string, patch: { name?: string; storage_quota?: number; permission?: 'read' | 'write' }): Promise<TeamFolderView> {
    const team = await this.team(id);
    const name = patch.name === undefined ? undefined : this.checkName(patch.name);
    if (name !== undefined && (await this.repo.nameTaken(team.group_id, name, id))) {
      throw conflict('This group already has a team folder of this name (names that differ only in case are the same name)');
    }
    await this.repo.update(team, { name, permission: patch.permission, quota: patch.storage_quota }, this.clock.now());
    return this.get(id);
  }

  /** Deletes the folder and every file in it (trash and versions included) for good. */
  async delete(id: string): Promise<void> {
    const team = await this.team(id);
    await this.files.deleteOwner(team.owner_id);
    await this.repo.deletePrincipal(team.owner_id);
  }

  async overrides(id: string): Promise<OverrideView[]> {
    await this.team(id);
    return this.repo.overrides(id);
  }

  /** Sets (or with null, removes) one member's override; only people of the folder's group can have one. */
  async setOverride(id: string, userId: string, permission: MemberPermission | null): Promise<OverrideView[]> {
    const team = await this.team(id);
    if (permission !== null) {
      const person = await this.repo.person(userId);
      if (!person) throw notFound('User not found');
      if (person.group_id !== team.group_id) throw new DomainError(ErrorCode.ParamError, "user: is not in the team folder's group");
    }
    await this.repo.setOverride(id, userId, permission);
    return this.repo.overrides(id);
  }
}
