// The one place that maps a recipient's path to the owner's tree.
// "/Shared with me/<owner nickname> – <name>/rest" names `rest` under the
// shared item, wherever the owner has put it since (grants hold the item's
// id, not its path). Nothing is cached: every request reads the grants, so a
// revocation holds on every instance at once. Paths outside "/Shared with me"
// cost nothing (no query).
import { forbidden, notFound } from '../core/errors.js';
import type { FilesService } from '../files/service.js';
import type { Entry } from '../files/tree.js';
import { virtualFolder, type Need, type PathScopes, type Scope } from '../files/scopes.js';
import type { FileRow } from '../files/repository.js';
import { parsePath } from '../files/names.js';
import type { AccessRepository, MountRow } from './repository.js';
import type { Clock } from '../core/clock.js';

/** The virtual folder's name at the top of every tree. */
export const SHARED_WITH_ME = 'Shared with me';
const FILE_KIND = 1;

/** One shared item as the recipient addresses it. */
export interface Mount extends MountRow {
  /** The item's name under "/Shared with me". */
  label: string;
}

/** A name usable as one path segment: no "/" or "\", no control characters; at most 200 characters. */
function segment(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  return text.normalize('NFC').replace(/[\u0000-\u001f\u007f/\\]/g, '_').slice(0, 200);
}

/** "<nickname> – <name>"; clashes (case-insensitive) get " (2)", " (3)", … by grant age, before a file's extension. */
export function labelMounts(rows: readonly MountRow[]): Mount[] {
  // A grant to the person and one to their group on the same item is one mount, with the better permission.
  const byFile = new Map<string, MountRow>();
  for (const r of rows) {
    const seen = byFile.get(r.file_id);
    if (!seen) byFile.set(r.file_id, { ...r });
    else if (r.permission === 'write') byFile.set(r.file_id, { ...seen, permission: 'write', reshare: Math.max(seen.reshare, r.reshare) });
  }
  const taken = new Set<string>();
  const out: Mount[] = [];
  for (const r of byFile.values()) {
    const base = `${segment(r.owner_nickname)} – ${segment(r.name)}`;
    const dot = r.kind === FILE_KIND ? base.lastIndexOf('.') : -1;
    const [stem, ext] = dot > base.indexOf(' – ') + 3 ? [base.slice(0, dot), base.slice(dot)] : [base, ''];
    let label = base;
    for (let n = 2; taken.has(label.toLowerCase()); n++) label = `${stem} (${n})${ext}`;
    taken.add(label.toLowerCase());
    out.push({ ...r, label });
  }
  return out;
}

function prefixOf(label: string): string {
  return `/${SHARED_WITH_ME}/${label}`;
}

export class SharedPaths implements PathScopes {
  constructor(
    private readonly repo: AccessRepository,
    private readonly files: FilesService,
    private readonly clock: Clock,
  ) {}

  async mounts(actorId: string): Promise<Mount[]> {
    return labelMounts(await this.repo.mountsOf(actorId));
  }

  /** The shared item's entry in its owner's tree, or null when it is gone (deleted, or inside a deleted folder). */
  async itemOf(mount: Mount): Promise<Entry | null> {
    try {
      const item = await this.files.getLiveById(mount.file_id);
      return item.row.owner_id === mount.owner_id ? item : null;
    } catch {
      return null;
    }
  }

  async scope(actorId: string, names: string[], need: Need): Promise<Scope> {
    if (names[0] !== SHARED_WITH_ME) return { ownerId: actorId, names, virtual: null, view: (e) => e };
    if (names.length === 1) {
      if (need !== 'read') throw forbidden(`"${SHARED_WITH_ME}" holds what others share with you; it cannot be changed`);
      return { ownerId: actorId, names: [], virtual: virtualFolder(actorId, SHARED_WITH_ME, this.clock.now()), view: (e) => e };
    }
    const mount = (await this.mounts(actorId)).find((m) => m.label === names[1]);
    const item = mount ? await this.itemOf(mount) : null;
    // Nothing can be made in the virtual folder itself (a PUT or MKCOL of a new name there).
    if ((!mount || !item) && names.length === 2 && need !== 'read') throw forbidden(`"${SHARED_WITH_ME}" holds what others share with you; it cannot be changed`);
    if (!mount || !item) throw notFound('File not found');
    if (need !== 'read' && mount.permission !== 'write') throw forbidden('This item is shared with you to view only');
    if (need === 'structure' && names.length === 2) throw forbidden('Only the owner can rename, move or delete the shared item itself');
    const base = item.path === '/' ? [] : parsePath(item.path);
    const prefix = prefixOf(mount.label);
    return {
      ownerId: mount.owner_id,
      names: [...base, ...names.slice(2)],
      virtual: null,
      view: (e) => ({ row: e.row, path: this.toActor(e.path, item.path, prefix) }),
    };
  }

  /** An owner path under the shared item, as the recipient sees it; anything else is not theirs to see. */
  private toActor(ownerPath: string, itemPath: string, prefix: string): string {
    if (ownerPath === itemPath) return prefix;
    if (ownerPath.startsWith(`${itemPath}/`)) return prefix + ownerPath.slice(itemPath.length);
    throw notFound('File not found');
  }

  async pathOfRow(actorId: string, row: FileRow): Promise<string | null> {
    let rowPath: string | null = null;
    for (const mount of await this.mounts(actorId)) {
      if (mount.owner_id !== row.owner_id) continue;
      const item = await this.itemOf(mount);
      if (!item) continue;
      rowPath ??= (await this.files.getLiveById(row.id).catch(() => null))?.path ?? null;
      if (rowPath === null) return null;
      if (rowPath === item.path || rowPath.startsWith(`${item.path}/`)) return this.toActor(rowPath, item.path, prefixOf(mount.label));
    }
    return null;
  }

  /** "Shared with me" at the top of the person's tree, when anything is shared with them. */
  async atRoot(actorId: string): Promise<Entry[]> {
    return (await this.repo.mountsOf(actorId)).length ? [virtualFolder(actorId, SHARED_WITH_ME, this.clock.now())] : [];
  }

  /** The shared items, at their "/Shared with me/<label>" paths (the virtual folder's listing is exactly these). */
  roots(actorId: string): Promise<Entry[]> {
    return this.listVirtual(actorId);
  }

  async listVirtual(actorId: string): Promise<Entry[]> {
    const out: Entry[] = [];
    for (const mount of await this.mounts(actorId)) {
      const item = await this.itemOf(mount);
      if (item) out.push({ row: item.row, path: prefixOf(mount.label) });
    }
    return out;
  }
}
