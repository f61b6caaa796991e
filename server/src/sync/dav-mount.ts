// The WebDAV layer as the sync clients see it (api-contract §14): their URL
// prefix, folder ETags that follow everything beneath (folder-tags.ts), and
// the ownCloud / Nextcloud live properties they ask for. Everything a page of
// a listing needs is read in `prepare`, once per page.
import { FILE, FOLDER } from '../files/rows.js';
import type { FilesService } from '../files/service.js';
import type { Entry } from '../files/tree.js';
import { VIRTUAL_FOLDER_ID } from '../files/scopes.js';
import type { DavMount } from '../webdav/context.js';
import type { DavPrincipal } from '../webdav/auth.js';
import { escapeXml } from '../webdav/xml.js';
import type { FolderTags } from './folder-tags.js';
import type { SyncRepository } from './repository.js';
import type { FileNumbers } from './file-numbers.js';

export const OC_NS = 'http://owncloud.org/ns';
export const NC_NS = 'http://nextcloud.org/ns';
const oc = (local: string) => `{${OC_NS}}${local}`;
const nc = (local: string) => `{${NC_NS}}${local}`;
const NAMES = new Set([
  oc('fileid'), oc('id'), oc('permissions'), oc('size'), oc('share-types'), oc('owner-id'), oc('owner-display-name'), oc('checksums'),
  oc('downloadURL'), oc('dDC'), oc('data-fingerprint'), oc('favorite'), oc('comments-unread'), nc('has-preview'), nc('is-encrypted'),
  nc('mount-type'), nc('lock'), nc('rich-workspace'), nc('contained-file-count'), nc('contained-folder-count'),
]);
const EMPTY_SHA1 = 'SHA1:da39a3ee5e6b4b0d3255bfef95601890afd80709';
/** Previews come from files/thumbnails; these types have them. */
const PREVIEW_TYPES = /^image\/(jpeg|png|gif|webp|bmp|heic|heif|tiff)$/;

export interface SyncPeople {
  /** Display names of users (the owner of a shared item). */
  displayNames(ids: readonly string[]): Promise<Map<string, string>>;
}

function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

function depth(path: string): number {
  return path === '/' ? 0 : path.split('/').length - 1;
}

/** The ETag of a folder on the sync mounts: its id and its tag. */
export function folderEtag(entry: Entry, tag: number): string {
  return `"${entry.row.id}-${tag}"`;
}

export class SyncMount implements DavMount {
  private readonly tags = new Map<string, number>();
  private readonly sums = new Map<string, string>();
  private readonly writable = new Map<string, boolean>();
  private readonly names = new Map<string, string>();
  private readonly numbers = new Map<string, number>();
  readonly extras: NonNullable<DavMount['extras']>;

  constructor(
    readonly prefix: string,
    private readonly principal: DavPrincipal,
    private readonly files: FilesService,
    private readonly folderTags: FolderTags,
    private readonly repo: SyncRepository,
    private readonly people: SyncPeople,
    private readonly fileNumbers: FileNumbers,
  ) {
    this.extras = { names: NAMES, namespaces: ` xmlns:oc="${OC_NS}" xmlns:nc="${NC_NS}"`, value: (name, entry) => this.value(name, entry) };
  }

  async prepare(entries: readonly Entry[]): Promise<void> {
    const userId = this.principal.userId;
    const folders = entries.filter((e) => e.row.kind === FOLDER && !this.tags.has(e.path)).map((e) => e.path);
    if (folders.length) for (const [p, t] of await this.folderTags.of(userId, folders)) this.tags.set(p, t);
    const blobs = entries.map((e) => e.row.blob_id).filter((b): b is string => b !== null && !this.sums.has(b));
    if (blobs.length) {
      const found = await this.repo.checksums(blobs);
      for (const b of blobs) this.sums.set(b, found.get(b) ?? '');
    }
    // What another person's items allow: one check per folder they sit in, each grant's top on its own.
    for (const e of entries) {
      if (e.row.owner_id === userId) continue;
      const key = depth(parentOf(e.path)) <= 1 ? e.path : parentOf(e.path);
      if (!this.writable.has(key)) this.writable.set(key, await this.canWrite(e.path));
    }
    const unnumbered = entries.map((e) => e.row.id).filter((id) => !this.numbers.has(id));
    if (unnumbered.length) for (const [id, n] of await this.fileNumbers.of(unnumbered)) this.numbers.set(id, n);
    const owners = [...new Set(entries.map((e) => e.row.owner_id))].filter((o) => !this.names.has(o));
    if (owners.length) for (const [id, name] of await this.people.displayNames(owners)) this.names.set(id, name);
  }

  private async canWrite(path: string): Promise<boolean> {
    try {
      await this.files.scope(this.principal.userId, path, 'write');
      return true;
    } catch {
      return false;
    }
  }

  etag(entry: Entry): string | undefined {
    if (entry.row.kind !== FOLDER) return undefined;
    const tag = this.tags.get(entry.path);
    return tag === undefined ? undefined : folderEtag(entry, tag);
  }

  /** `oc:permissions` (api-contract §14): S shared with me, M mounted, G read, D delete, N rename, V move, W write, C/K create. */
  permissions(entry: Entry): string {
    const folder = entry.row.kind === FOLDER;
    if (entry.row.id === VIRTUAL_FOLDER_ID) return 'G';
    const own = entry.row.owner_id === this.principal.userId;
    let write = !this.principal.readonly;
    let top = false;
    if (!own) {
      const key = depth(parentOf(entry.path)) <= 1 ? entry.path : parentOf(entry.path);
      write &&= this.writable.get(key) ?? false;
      top = key === entry.path;
    }
    let out = own ? '' : entry.team ? 'M' : 'S';
    out += 'G';
    if (!write) return out;
    // The top of a grant or a team folder is placed by its owner: it cannot be moved or deleted from here.
    if (!top && entry.path !== '/') out += 'DNV';
    out += folder ? 'CK' : 'W';
    return out;
  }

  private value(name: string, entry: Entry): string | undefined {
    const row = entry.row;
    const el = (qname: string, inner: string) => (inner === '' ? `<${qname}/>` : `<${qname}>${inner}</${qname}>`);
    switch (name) {
      case oc('fileid'): {
        const n = this.numbers.get(row.id);
        return n === undefined ? undefined : el('oc:fileid', String(n));
      }
      case oc('id'): {
        const n = this.numbers.get(row.id);
        return n === undefined ? undefined : el('oc:id', this.fileNumbers.format(n));
      }
      case oc('permissions'):
        return el('oc:permissions', this.permissions(entry));
      case oc('size'):
        // A folder's is the bytes beneath it; the tree does not keep that sum, and the clients use it only for display.
        return row.kind === FILE ? el('oc:size', String(row.size)) : undefined;
      case oc('share-types'):
        return el('oc:share-types', '');
      case oc('owner-id'):
        return el('oc:owner-id', escapeXml(row.owner_id));
      case oc('owner-display-name'):
        return el('oc:owner-display-name', escapeXml(this.names.get(row.owner_id) ?? row.owner_id));
      case oc('checksums'): {
        // An empty file has no content stored, and a sum every client can know (RFC 3174's SHA-1 of nothing).
        const sum = row.blob_id ? this.sums.get(row.blob_id) : row.kind === FILE && Number(row.size) === 0 ? EMPTY_SHA1 : undefined;
        return sum ? el('oc:checksums', el('oc:checksum', escapeXml(sum))) : undefined;
      }
      case oc('data-fingerprint'):
        return el('oc:data-fingerprint', '');
      case oc('favorite'):
        return el('oc:favorite', '0');
      case oc('comments-unread'):
        return el('oc:comments-unread', '0');
      case nc('has-preview'):
        return el('nc:has-preview', row.kind === FILE && PREVIEW_TYPES.test(row.mime_type ?? '') ? 'true' : 'false');
      case nc('is-encrypted'):
        return el('nc:is-encrypted', '0');
      case nc('mount-type'):
        return el('nc:mount-type', entry.team ? 'group' : row.owner_id === this.principal.userId ? '' : 'shared');
      case nc('lock'):
        return el('nc:lock', '');
      default:
        return undefined;
    }
  }
}
