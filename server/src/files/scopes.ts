// Whose tree a path names. A path of the person asking is usually in their own
// tree; sharing (server/src/sharing) maps "/Shared with me/…" to another
// owner's tree with the grant's permission; team folders (server/src/teams)
// map "/<team folder>/…" to the team's tree. Every public method of the files
// service (and uploads, tus) asks this port first, so no route can skip it.
import type { Entry } from './tree.js';
import { FOLDER, newFileRow, type FileRow } from './repository.js';

/** What an operation needs: to read, to change content, or to change the tree (rename, move, delete). */
export type Need = 'read' | 'write' | 'structure';

export interface Scope {
  /** The owner of the tree the path lies in. */
  ownerId: string;
  /** The names of the path in the owner's tree. */
  names: string[];
  /** Set when the path is the virtual folder that holds what others shared (no tree of its own). */
  virtual: Entry | null;
  /** An entry of the owner's tree as the person asking addresses it. */
  view(entry: Entry): Entry;
}

export interface PathScopes {
  /** The scope of `names` for `actorId`; throws 404 / 403 when it is not theirs to reach with `need`. */
  scope(actorId: string, names: string[], need: Need): Promise<Scope>;
  /** The path by which `actorId` reaches a row of someone else's tree, or null. */
  pathOfRow(actorId: string, row: FileRow): Promise<string | null>;
  /** The entries of the virtual folder (for listings). */
  listVirtual(actorId: string): Promise<Entry[]>;
  /**
   * The live items of other trees `actorId` reaches, each the top of what
   * they see of it (a shared item; a team folder), with `path` the path they
   * address it by. Search looks under these.
   */
  roots(actorId: string): Promise<Entry[]>;
  /**
   * Entries shown at the top of the person's own tree besides its rows (the
   * "Shared with me" folder when anything is shared; team folders). WebDAV
   * lists them in a PROPFIND of the root.
   */
  atRoot(actorId: string): Promise<Entry[]>;
  /** Entries shown first in the asker's own root folder (team folders), on a listing's first page. */
  listTop?(actorId: string): Promise<Entry[]>;
  /**
   * What to store for a path into someone else's tree that is kept for later
   * (a WebDAV account's folder): a form naming the grant, never a label
   * another person's renames could make name something else. null: the path
   * is not this source's (stored as it is).
   */
  anchor?(actorId: string, names: string[]): Promise<string | null>;
  /** The path an anchor names now; a gone grant's anchor answers a path that resolves to nothing. null: not this source's anchor. */
  unanchor?(actorId: string, anchor: string): Promise<string | null>;
}

/** Without sharing, every path is in the asker's own tree. */
export const OWN_TREE: PathScopes = {
  async scope(actorId, names) {
    return { ownerId: actorId, names, virtual: null, view: (e) => e };
  },
  async pathOfRow() {
    return null;
  },
  async listVirtual() {
    return [];
  },
  async roots() {
    return [];
  },
  async atRoot() {
    return [];
  },
};

/** The id of the virtual "Shared with me" folder (not a row of any tree). */
export const VIRTUAL_FOLDER_ID = 'shared-with-me';

/** The virtual folder of `actorId` at `/<name>`, as an entry listings and WebDAV can show. */
export function virtualFolder(actorId: string, name: string, at: number): Entry {
  const row = newFileRow({ owner_id: actorId, parent_id: null, name, kind: FOLDER, created_at: at });
  return { row: { ...row, id: VIRTUAL_FOLDER_ID }, path: `/${name}` };
}
