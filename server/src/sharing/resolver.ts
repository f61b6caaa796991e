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
import type { FileRow } from '../files/rows.js';
import { parsePath } from '../files/names.js';
import type { AccessRepository, MountRow } from './repository.js';
import type { Clock } from '../core/clock.js';

/** The virtual folder's name at the top of every tree. */
export const SHARED_WITH_ME = 'Shared with me';
/** Stored paths into a shared item start with this and the item's id (PathScopes.anchor). */
const ANCHOR = 'shared:';
/** Where a stored path into a grant that is gone leads: no label (each has " – "). */
const GONE = '(no longer shared)';
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

/**
 * Since when a mount has had its label's words: its first grant, the item's
 * name and the owner's nickname, whichever was set last. Renaming into a
 * label makes this "now", so a newcomer never outranks the label's holder.
 */
function heldSince(r: MountRow, firstGrant: number): number {
  return Math.max(firstGrant, r.named_at, r.nickname_at);
}

/**
 * "<nickname> – <name>". On a clash (case-insensitive) the mount that has held
 * those words longest keeps them; each other one gets a part of its item's id
 * (" (k3F9a2)", before a file's extension): something neither the owner nor
 * anyone else chooses. So a label never passes from one grant to another by a
 * rename, and a later mount never pushes an earlier one aside (issue 32,
 * finding 2). Answered in `rows`' order (oldest grant first).
 */
export function labelMounts(rows: readonly MountRow[]): Mount[] {
  // A grant to the person and one to their group on the same item is one mount, with the better permission.
  const byFile = new Map<string, MountRow & { first: number }>();
  for (const r of rows) {
    const seen = byFile.get(r.file_id);
    if (!seen) byFile.set(r.file_id, { ...r, first: r.created_at });
    else {
      const first = Math.min(seen.first, r.created_at);
      byFile.set(r.file_id, r.permission === 'write' ? { ...seen, first, permission: 'write', reshare: Math.max(seen.reshare, r.reshare) } : { ...seen, first });
    }
  }
  const mounts = [...byFile.values()];
  // In the same millisecond, a grant made then outranks a rename made then.
  const renamed = (r: MountRow & { first: number }) => (heldSince(r, r.first) > r.first ? 1 : 0);
  const order = [...mounts].sort(
    (a, b) => heldSince(a, a.first) - heldSince(b, b.first) || renamed(a) - renamed(b) || a.first - b.first || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const taken = new Set<string>();
  const labels = new Map<string, string>();
  for (const r of order) {
    const base = `${segment(r.owner_nickname)} – ${segment(r.name)}`;
    const dot = r.kind === FILE_KIND ? base.lastIndexOf('.') : -1;
    const [stem, ext] = dot > base.indexOf(' – ') + 3 ? [base.slice(0, dot), base.slice(dot)] : [base, ''];
    let label = base;
    for (let n = 6; taken.has(label.toLowerCase()); n += 2) label = `${stem} (${r.file_id.slice(0, n)}${n > r.file_id.length ? `-${n}` : ''})${ext}`;
    taken.add(label.toLowerCase());
    labels.set(r.file_id, label);
  }
  return mounts.map(({ first: _first, ...r }) => ({ ...r, label: labels.get(r.file_id)! }));
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

  /** "shared:<item id>[/rest]": the grant's item, whatever its label becomes. */
  async anchor(actorId: string, names: string[]): Promise<string | null> {
    if (names[0] !== SHARED_WITH_ME || names.length < 2) return null;
    const mount = (await this.mounts(actorId)).find((m) => m.label === names[1]);
    return mount ? [`${ANCHOR}${mount.file_id}`, ...names.slice(2)].join('/') : null;
  }

  async unanchor(actorId: string, anchor: string): Promise<string | null> {
    if (!anchor.startsWith(ANCHOR)) return null;
    const [fileId, ...rest] = anchor.slice(ANCHOR.length).split('/');
    const mount = (await this.mounts(actorId)).find((m) => m.file_id === fileId);
    // Every label has " – " in it, so a gone grant's anchor names nothing at all, not someone else's item.
    return [prefixOf(mount ? mount.label : GONE), ...rest].join('/');
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
