// One WebDAV request as the protocol layer sees it: who asks, which path of
// their tree the URI names (below the account's folder), the locks of that
// person (read once, lazily), and the checks every write makes: the If header
// (RFC 4918 §10.4) and the locks that protect what the method changes (§7).
import type { FastifyRequest } from 'fastify';
import { DomainError, ErrorCode } from '../core/errors.js';
import { FILE, FOLDER } from '../files/rows.js';
import type { FilesService } from '../files/service.js';
import type { Entry } from '../files/tree.js';
import type { DavPrincipal } from './auth.js';
import { DavError } from './errors.js';
import { evaluateIf, parseIf, submittedTokens, type IfList, type ResourceState } from './if-header.js';
import { covering, type LockService } from './locks.js';
import { MOUNT, hrefOf, namesFromUriPath, treePath, uriPathOf } from './paths.js';
import type { LockRow } from './repository.js';

/** A strong validator: the blob id for files (immutable content), id and change time for folders. */
export function etagOf(entry: Entry): string {
  return entry.row.kind === FILE ? `"${entry.row.blob_id ?? 'empty'}"` : `"d-${entry.row.id}-${entry.row.updated_at}"`;
}

/**
 * What differs between the places this layer is mounted: /dav/ here, and the
 * sync clients' /remote.php/ roots (server/src/sync), which add live
 * properties and folder ETags that follow everything beneath.
 */
export interface DavMount {
  /** The URI path of the account's folder, without the trailing slash. */
  prefix: string;
  /** Reads what `etag` and `extras` need for these entries: once per page of a listing, not per entry. */
  prepare?(entries: readonly Entry[]): Promise<void>;
  /** The ETag of a prepared entry, when the mount has its own. */
  etag?(entry: Entry): string | undefined;
  /** Extra live properties by Clark name: the value's inner XML, or undefined when the entry has none. */
  extras?: { names: ReadonlySet<string>; value(name: string, entry: Entry): string | undefined; namespaces: string };
}

export const DAV_MOUNT: DavMount = { prefix: MOUNT };

export class DavContext {
  readonly names: string[];
  readonly path: string;
  private locksLoaded: LockRow[] | null = null;
  private ifLists: IfList[] | null | undefined;

  constructor(
    readonly request: FastifyRequest,
    readonly principal: DavPrincipal,
    readonly files: FilesService,
    readonly lockService: LockService,
    readonly mount: DavMount = DAV_MOUNT,
    /** The URI path the request acts on: its own URL, or (the sync clients' chunked uploads) the Destination a transfer becomes. */
    uriPath: string = uriPathOf(request.url, undefined),
  ) {
    this.names = namesFromUriPath(uriPath, mount.prefix);
    this.path = treePath(principal.root, this.names);
  }

  /** A request header as one string (repeated fields joined), or undefined. */
  header(name: string): string | undefined {
    const v = this.request.headers[name];
    return Array.isArray(v) ? v.join(', ') : v;
  }

  get userId(): string {
    return this.principal.userId;
  }

  get host(): string | undefined {
    return this.request.headers.host;
  }

  /** The tree path of a URI (Destination, tagged If lists) under this account's folder. */
  pathOfUri(uri: string): { names: string[]; path: string } {
    const names = namesFromUriPath(uriPathOf(uri, this.host), this.mount.prefix);
    return { names, path: treePath(this.principal.root, names) };
  }

  /** The href of a tree path as this account sees it, or null when it lies outside the account's folder. */
  hrefOfTreePath(path: string, folder: boolean): string | null {
    const root = this.principal.root;
    if (root !== '/' && path !== root && !path.startsWith(`${root}/`)) return null;
    const rel = root === '/' ? path : path.slice(root.length) || '/';
    return hrefOf(rel === '/' ? [] : rel.slice(1).split('/'), folder, this.mount.prefix);
  }

  /** The mount's root href (for an entry outside the account's folder, which is never listed). */
  get rootHref(): string {
    return `${this.mount.prefix}/`;
  }

  /** The entry's ETag on this mount (call `prepare` first for the mount's own). */
  etag(entry: Entry): string {
    return this.mount.etag?.(entry) ?? etagOf(entry);
  }

  async prepare(entries: readonly Entry[]): Promise<void> {
    if (this.mount.prepare) await this.mount.prepare(entries);
  }

  async resolve(path = this.path): Promise<Entry> {
    return this.files.resolve(this.userId, path);
  }

  async tryResolve(path = this.path): Promise<Entry | null> {
    try {
      return await this.files.resolve(this.userId, path);
    } catch (err) {
      if (err instanceof DomainError && err.code === ErrorCode.NotFound) return null;
      throw err;
    }
  }

  /**
   * The entry at `path` or null, and whether its parent is a folder (one walk
   * where the tree allows; else the parent is resolved on its own).
   */
  async probe(path = this.path): Promise<{ entry: Entry | null; parentFolder: boolean }> {
    const { entry, parentFolder } = await this.files.probe(this.userId, path);
    if (entry || parentFolder !== null) return { entry, parentFolder: parentFolder ?? true };
    const parent = await this.tryResolve(parentPath(path));
    return { entry: null, parentFolder: parent !== null && parent.row.kind === FOLDER };
  }

  /** The account's folder itself must exist (it may have been moved away since the account was made). */
  async rootExists(): Promise<boolean> {
    return (await this.tryResolve(this.principal.root)) !== null;
  }

  async locks(): Promise<LockRow[]> {
    this.locksLoaded ??= await this.lockService.live(this.userId);
    return this.locksLoaded;
  }

  private ifHeader(): IfList[] | null {
    if (this.ifLists === undefined) {
      const raw = this.request.headers.if;
      this.ifLists = typeof raw === 'string' && raw.trim() !== '' ? parseIf(raw) : null;
    }
    return this.ifLists;
  }

  submitted(): Set<string> {
    const lists = this.ifHeader();
    return lists ? submittedTokens(lists) : new Set();
  }

  /** §10.4: a false If header is 412 before anything changes. */
  async checkIf(): Promise<void> {
    const lists = this.ifHeader();
    if (!lists) return;
    const locks = await this.locks();
    const stateOf = async (resource: string | undefined): Promise<ResourceState | null> => {
      let path = this.path;
      if (resource !== undefined) {
        try {
          path = this.pathOfUri(resource).path;
        } catch {
          return null;
        }
      }
      const entry = await this.tryResolve(path);
      if (entry) await this.prepare([entry]);
      return { etag: entry ? this.etag(entry) : null, tokens: new Set(covering(locks, path).map((l) => l.token)) };
    };
    if (!(await evaluateIf(lists, stateOf))) throw new DavError(412, 'The If header does not hold');
  }

  /** 423 unless the request submits the tokens of every lock in `applicable`. */
  requireTokens(applicable: readonly LockRow[]): void {
    this.lockService.requireTokens(applicable, this.submitted(), (p) => this.hrefOfTreePath(p, false));
  }
}

export function parentPath(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}
