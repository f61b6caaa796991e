// Team folders mounted at the top of each member's own tree. "/<team folder>/rest"
// names `rest` in the team principal's tree, with the group's permission or
// the admin's override for this member; anything else goes on to the next
// source (sharing's "/Shared with me", then the asker's own tree). As with
// grants, nothing is cached: membership and overrides are read on every
// request (one indexed query), so a removal from the group holds at once on
// every instance.
import { conflict, forbidden, notFound } from '../core/errors.js';
import type { FilesService } from '../files/service.js';
import type { Entry } from '../files/tree.js';
import type { Need, PathScopes, Scope } from '../files/scopes.js';
import type { FileRow } from '../files/rows.js';
import type { TrashMount, TrashMounts } from '../files/trash.js';
import type { TeamMountRow, TeamRepository } from './repository.js';

/** Added to a team folder's name for a member whose own top-level item already has that name. */
export const TEAM_SUFFIX = ' (team folder)';

/** The labels a team folder may take for a member, in order: the first that clashes with nothing wins (the last if all do). */
export function labelCandidates(name: string): string[] {
  return [name, `${name}${TEAM_SUFFIX}`, ...Array.from({ length: 98 }, (_, i) => `${name} (team folder ${i + 2})`)];
}

/** One team folder as a member addresses it. */
export interface TeamMount extends TeamMountRow {
  /** Its name at the top of the member's files. */
  label: string;
}

function fold(name: string): string {
  return name.toLowerCase();
}

export class TeamPaths implements PathScopes, TrashMounts {
  constructor(
    private readonly repo: TeamRepository,
    private readonly files: FilesService,
    private readonly next: PathScopes,
    /** Names the next source keeps at the top of every tree ("Shared with me"). */
    private readonly reserved: readonly string[],
  ) {}

  /**
   * Labels: the folder's name, unless the member's own top-level item (or a
   * reserved name) has it, case-insensitively; then "<name> (team folder)",
   * numbered if that is taken too. Computed per request, so two requests agree.
   */
  async labelled(actorId: string, rows: readonly TeamMountRow[]): Promise<TeamMount[]> {
    if (rows.length === 0) return [];
    const root = await this.files.tree.root(actorId);
    const taken = new Set(this.reserved.map(fold));
    const out: TeamMount[] = [];
    for (const r of rows) {
      const clashes = async (l: string) => taken.has(fold(l)) || (await this.files.tree.store.tree.findChildFolded(root.id, l)) !== undefined;
      let label = r.name;
      for (const candidate of labelCandidates(r.name)) {
        label = candidate;
        if (!(await clashes(candidate))) break;
      }
      taken.add(fold(label));
      out.push({ ...r, label });
    }
    return out;
  }

  async mounts(actorId: string): Promise<TeamMount[]> {
    return this.labelled(actorId, await this.repo.mountsOf(actorId));
  }

  private teamView(mount: TeamMount): (e: Entry) => Entry {
    const prefix = `/${mount.label}`;
    return (e) => {
      if (e.path === '/') return { row: { ...e.row, name: mount.label }, path: prefix, team: { id: mount.id, permission: mount.permission } };
      if (!e.path.startsWith('/')) throw notFound('File not found');
      return { row: e.row, path: prefix + e.path };
    };
  }

  async scope(actorId: string, names: string[], need: Need): Promise<Scope> {
    const first = names[0];
    if (first === undefined) return this.next.scope(actorId, names, need);
    const rows = await this.repo.mountsOf(actorId);
    // Cheap test first: a path that cannot be a team folder's label costs no more queries.
    const f = fold(first);
    if (!rows.some((r) => f === fold(r.name) || f.startsWith(fold(r.name) + ' (team folder'))) return this.next.scope(actorId, names, need);
    const mounts = await this.labelled(actorId, rows);
    const mount = mounts.find((m) => m.label === first);
    if (!mount) {
      // "/projects" when the team folder is "/Projects": a new own item there would take the team folder's name.
      if (need !== 'read' && names.length === 1 && mounts.some((m) => fold(m.label) === f)) throw conflict(`"${first}" is the name of a team folder`);
      return this.next.scope(actorId, names, need);
    }
    if (need !== 'read' && mount.permission !== 'write') throw forbidden('You can only view this team folder');
    if (need === 'structure' && names.length === 1) throw forbidden('A team folder can only be renamed, moved or deleted by an administrator');
    return { ownerId: mount.owner_id, names: names.slice(1), virtual: null, view: this.teamView(mount) };
  }

  async pathOfRow(actorId: string, row: FileRow): Promise<string | null> {
    const rows = await this.repo.mountsOf(actorId);
    if (!rows.some((r) => r.owner_id === row.owner_id)) return this.next.pathOfRow(actorId, row);
    const mount = (await this.labelled(actorId, rows)).find((m) => m.owner_id === row.owner_id)!;
    const entry = await this.files.getLiveById(row.id).catch(() => null);
    return entry ? this.teamView(mount)(entry).path : null;
  }

  listVirtual(actorId: string): Promise<Entry[]> {
    return this.next.listVirtual(actorId);
  }

  /** Team folders (at their labels) and what the next source reaches: search looks under these. */
  async roots(actorId: string): Promise<Entry[]> {
    return [...(await this.listTop(actorId)), ...(await this.next.roots(actorId))];
  }

  /** The next source's ("Shared with me"): a team folder's label is the admin's name, not another member's to choose. */
  async anchor(actorId: string, names: string[]): Promise<string | null> {
    return (await this.next.anchor?.(actorId, names)) ?? null;
  }

  async unanchor(actorId: string, anchor: string): Promise<string | null> {
    return (await this.next.unanchor?.(actorId, anchor)) ?? null;
  }

  /** Only the next source's ("Shared with me"): team folders are already rows of the root's listing (listTop). */
  atRoot(actorId: string): Promise<Entry[]> {
    return this.next.atRoot(actorId);
  }

  /** The team trashes a member reaches: those of the team folders they may write to (trash.ts). */
  async trashesOf(actorId: string): Promise<TrashMount[]> {
    return (await this.mounts(actorId))
      .filter((m) => m.permission === 'write')
      .map((m) => ({ ownerId: m.owner_id, view: (p: string) => `/${m.label}${p === '/' ? '' : p}` }));
  }

  async listTop(actorId: string): Promise<Entry[]> {
    const out: Entry[] = [];
    for (const mount of await this.mounts(actorId)) {
      const root = await this.files.tree.root(mount.owner_id);
      out.push(this.teamView(mount)({ row: root, path: '/' }));
    }
    return out;
  }
}
