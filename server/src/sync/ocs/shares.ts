// The OCS Share API as the Nextcloud clients' share dialogs use it
// (api-contract §14), over Cirrus's own links (shares/) and grants
// (sharing/), so a share made in a client is the web app's and the other way round:
//   GET    /ocs/v{1,2}.php/apps/files_sharing/api/v1/shares[?path=&reshares=&subfiles=&shared_with_me=]
//   GET    …/shares/<id>
//   POST   …/shares       (path, shareType 0 person | 1 group | 3 link, shareWith, permissions, password, expireDate)
//   DELETE …/shares/<id>
// Every rule of /api/v4/share and /api/v4/file/access holds (they do the
// work). Ids are the link's or the grant's own (strings). A link's password
// hash is never sent: a protected link says so with a mask.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, DomainError, ErrorCode } from '../../core/errors.js';
import { toDomainError } from '../../http/error-handler.js';
import { missingScopes } from '../../oauth/scopes.js';
import { DavError, fromAppError } from '../../webdav/errors.js';
import type { DavAuthenticator, DavPrincipal } from '../../webdav/auth.js';
import { FOLDER } from '../../files/rows.js';
import type { Entry } from '../../files/tree.js';
import type { FilesService } from '../../files/service.js';
import type { ShareService } from '../../shares/service.js';
import type { ShareView } from '../../shares/views.js';
import type { AccessService, GrantView } from '../../sharing/service.js';
import type { SyncService } from '../service.js';
import { OCS_UNAUTHORIZED, sendOcs, type OcsValue } from './envelope.js';

export const SHARES_PATH = '/apps/files_sharing/api/v1/shares';
const PREFIXES = ['/ocs/v1.php', '/ocs/v2.php'];
/** Nextcloud's share types that Cirrus has. */
const USER = 0;
const GROUP = 1;
const LINK = 3;
/** Nextcloud's permission bits. */
const READ = 1;
const UPDATE = 2;
const CREATE = 4;
const DELETE = 8;
const SHARE = 16;
/** Listings show at most this many links (the newest) and grants. */
const LIST_MAX = 1000;
const PASSWORD_MASK = '********';

/** The link and grant services the API maps onto (set once at start-up: they are made after sync/). */
export interface SharePorts {
  links: Pick<ShareService, 'create' | 'list' | 'get' | 'update' | 'delete'>;
  access: Pick<AccessService, 'grant' | 'list' | 'given' | 'revoke' | 'sharedWith'>;
}

type Params = Record<string, unknown>;

function text(params: Params, name: string): string | undefined {
  const v = params[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw badRequest(`${name}: must be a string`);
}

function integer(params: Params, name: string): number | undefined {
  const raw = text(params, name);
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,4}$/.test(raw)) throw badRequest(`${name}: must be a whole number`);
  return Number(raw);
}

function flag(params: Params, name: string): boolean {
  const raw = text(params, name);
  return raw === 'true' || raw === '1';
}

/** Nextcloud's expireDate: "YYYY-MM-DD" (the link works through that day, UTC) or a full RFC 3339 time. */
function expiryOf(raw: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(raw)) return `${raw}T23:59:59Z`;
  if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(raw)) return `${raw.replace(' ', 'T')}Z`;
  return raw;
}

/** A link password as the apps send it: 4 to 128 characters ('' means none, handled by the caller). */
function checkLinkPassword(password: string | undefined): void {
  if (password !== undefined && password !== '' && (password.length < 4 || password.length > 128 || password.includes('\0'))) throw badRequest('password: 4 to 128 characters');
}

/** A grant's rights from Nextcloud's permission bits: read is required; 2/4/8 write; 16 reshare. */
function grantRights(permissions: number | undefined): { permission: 'read' | 'write'; reshare: boolean } {
  if (permissions !== undefined && (permissions & READ) === 0) throw badRequest('permissions: must include read (1)');
  return {
    permission: permissions !== undefined && (permissions & (UPDATE | CREATE | DELETE)) !== 0 ? 'write' : 'read',
    reshare: permissions !== undefined && (permissions & SHARE) !== 0,
  };
}

function ncDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

export function ocsShareRoutes(app: FastifyInstance, auth: DavAuthenticator, sync: SyncService, files: FilesService, ports: () => SharePorts | null): void {
  const who = async (request: FastifyRequest, write: boolean): Promise<DavPrincipal> => {
    const principal = await auth.authenticate(request.headers.authorization, request.ip, write, { method: request.method, url: request.url, proof: request.headers.dpop });
    // An OAuth token needs the share scopes as well; a read-only WebDAV account shares nothing.
    const missing = missingScopes(principal.scopes, [write ? 'Shares.Write' : 'Shares.Read']);
    if (missing.length) throw new DavError(403, `This token lacks the scope ${missing.join(' ')}`);
    if (write && principal.readonly) throw new DavError(403, 'This WebDAV account is read-only');
    return { ...principal, root: await files.anchoredPath(principal.userId, principal.root) };
  };
  const services = (): SharePorts => {
    const p = ports();
    if (!p) throw new DavError(404, 'Sharing is not available');
    return p;
  };

  /** A path as the caller sent it (relative to their account's folder) → the tree path. */
  const treeOf = (principal: DavPrincipal, raw: string): string => {
    const names = raw.split('/').filter((n) => n !== '');
    if (names.some((n) => n === '.' || n === '..')) throw badRequest('path: no "." or ".." segments');
    const base = principal.root === '/' ? [] : principal.root.slice(1).split('/');
    return `/${[...base, ...names].join('/')}`;
  };
  /** The tree path as the caller sees it; null when it is outside their account's folder. */
  const shownPath = (principal: DavPrincipal, path: string): string | null => {
    if (principal.root === '/') return path;
    if (path === principal.root) return '/';
    return path.startsWith(`${principal.root}/`) ? path.slice(principal.root.length) : null;
  };

  /** The fields every share has, from the item as the caller reaches it. */
  const itemFields = async (principal: DavPrincipal, entry: Entry, shown: string): Promise<Record<string, OcsValue>> => {
    const ids = [entry.row.id, ...(entry.row.parent_id ? [entry.row.parent_id] : [])];
    const numbers = await sync.fileNumbers.of(ids);
    const owner = entry.row.owner_id;
    const names = await sync.displayNames([principal.userId, owner]);
    const folder = entry.row.kind === FOLDER;
    return {
      uid_owner: principal.userId,
      displayname_owner: names.get(principal.userId) ?? '',
      uid_file_owner: owner,
      displayname_file_owner: names.get(owner) ?? '',
      path: shown,
      item_type: folder ? 'folder' : 'file',
      mimetype: folder ? 'httpd/unix-directory' : (entry.row.mime_type ?? 'application/octet-stream'),
      has_preview: false,
      storage_id: `home::${owner}`,
      storage: 0,
      item_source: numbers.get(entry.row.id) ?? 0,
      file_source: numbers.get(entry.row.id) ?? 0,
      file_parent: (entry.row.parent_id && numbers.get(entry.row.parent_id)) || 0,
      file_target: `/${entry.row.name}`,
      item_size: Number(entry.row.size),
      item_mtime: Math.floor(Number(entry.row.updated_at) / 1000),
      note: '',
      label: '',
      parent: null,
      mail_send: 0,
      hide_download: 0,
      attributes: null,
      can_edit: true,
      can_delete: true,
    };
  };

  const linkOcs = async (principal: DavPrincipal, link: ShareView): Promise<Record<string, OcsValue> | null> => {
    if (link.path === null) return null;
    const shown = shownPath(principal, link.path);
    if (shown === null) return null;
    const entry = await files.resolve(principal.userId, link.path).catch(() => null);
    if (!entry) return null;
    return {
      id: link.id,
      share_type: LINK,
      ...(await itemFields(principal, entry, shown)),
      permissions: link.upload_only ? CREATE : READ,
      stime: Math.floor(Date.parse(link.created_at) / 1000),
      expiration: link.expires_at ? ncDate(Date.parse(link.expires_at)) : null,
      token: link.id,
      share_with: link.has_password ? PASSWORD_MASK : null,
      share_with_displayname: link.has_password ? '(Shared link)' : null,
      password: link.has_password ? PASSWORD_MASK : '',
      url: link.url,
    };
  };

  const grantOcs = async (principal: DavPrincipal, grant: GrantView, path: string): Promise<Record<string, OcsValue> | null> => {
    const shown = shownPath(principal, path);
    if (shown === null) return null;
    const entry = await files.resolve(principal.userId, path).catch(() => null);
    if (!entry) return null;
    const folder = entry.row.kind === FOLDER;
    const write = grant.permission === 'write' ? (folder ? UPDATE | CREATE | DELETE : UPDATE) : 0;
    return {
      id: grant.id,
      share_type: grant.user ? USER : GROUP,
      ...(await itemFields(principal, entry, shown)),
      permissions: READ | write | (grant.reshare ? SHARE : 0),
      stime: Math.floor(Date.parse(grant.created_at) / 1000),
      expiration: null,
      token: null,
      share_with: grant.user ? grant.user.id : String(grant.group!.id),
      share_with_displayname: grant.user ? grant.user.nickname || grant.user.email : grant.group!.name,
    };
  };

  const compact = (items: (Record<string, OcsValue> | null)[]): Record<string, OcsValue>[] => items.filter((i): i is Record<string, OcsValue> => i !== null);

  /** The caller's shares: of one item (`path`), of the items in a folder (`subfiles`), or all. */
  const list = async (principal: DavPrincipal, query: Params): Promise<Record<string, OcsValue>[]> => {
    const { links, access } = services();
    if (flag(query, 'shared_with_me')) {
      const items = await access.sharedWith(principal.userId);
      return compact(await Promise.all(items.map(async (s) => {
        const grant: GrantView = { id: s.id, permission: s.permission, reshare: s.reshare, created_at: s.created_at, user: { id: principal.userId, email: '', nickname: '' } };
        const out = await grantOcs(principal, grant, s.path);
        return out && { ...out, uid_owner: s.owner.id, displayname_owner: s.owner.nickname || s.owner.email, share_with_displayname: '' };
      })));
    }
    const rawPath = text(query, 'path');
    const path = rawPath === undefined || rawPath === '' ? undefined : treeOf(principal, rawPath);
    if (path !== undefined && flag(query, 'subfiles')) {
      const folder = await files.resolve(principal.userId, path);
      if (folder.row.kind !== FOLDER) throw badRequest('path: subfiles needs a folder');
      const inside = (p: string | null) => p !== null && p.startsWith(`${path === '/' ? '' : path}/`) && !p.slice(path === '/' ? 1 : path.length + 1).includes('/');
      return everything(principal, inside);
    }
    if (path === undefined) return everything(principal, () => true);
    // 404 for an item the caller does not reach.
    await files.resolve(principal.userId, path);
    const own = (await links.list(principal.userId, LIST_MAX, undefined, path)).shares;
    // Grants of an item someone else owns are the owner's (or a resharer's) to list: none to show otherwise.
    const grants = await access.list(principal.userId, path).catch((err: unknown) => {
      if (err instanceof DomainError && (err.code === ErrorCode.Forbidden || err.code === ErrorCode.ParamError)) return [];
      throw err;
    });
    return compact([...(await Promise.all(own.map((l) => linkOcs(principal, l)))), ...(await Promise.all(grants.map((g) => grantOcs(principal, g, path))))]);
  };

  const everything = async (principal: DavPrincipal, keep: (path: string | null) => boolean): Promise<Record<string, OcsValue>[]> => {
    const { links, access } = services();
    const own = (await links.list(principal.userId, LIST_MAX)).shares.filter((l) => keep(l.path));
    const given = (await access.given(principal.userId)).filter((g) => keep(g.item.path));
    return compact([...(await Promise.all(own.map((l) => linkOcs(principal, l)))), ...(await Promise.all(given.map((g) => grantOcs(principal, g, g.item.path!))))]);
  };

  const one = async (principal: DavPrincipal, id: string): Promise<Record<string, OcsValue>> => {
    const found = (await everything(principal, () => true)).find((s) => s.id === id);
    if (!found) throw new DomainError(ErrorCode.NotFound, 'Wrong share ID, share does not exist');
    return found;
  };

  const create = async (principal: DavPrincipal, params: Params): Promise<Record<string, OcsValue>> => {
    const { links, access } = services();
    const rawPath = text(params, 'path');
    if (!rawPath) throw badRequest('path: required');
    const path = treeOf(principal, rawPath);
    const shareType = integer(params, 'shareType');
    const permissions = integer(params, 'permissions');
    if (shareType === LINK) {
      if (flag(params, 'publicUpload')) throw badRequest('publicUpload: links here are read-only, or upload-only with permissions 4');
      if (permissions !== undefined && permissions !== READ && permissions !== CREATE && permissions !== (READ | SHARE)) {
        throw badRequest('permissions: a link is read-only (1) or upload-only (4) here');
      }
      const password = text(params, 'password');
      checkLinkPassword(password);
      const expireDate = text(params, 'expireDate');
      const made = await links.create(principal.userId, {
        path,
        ...(password ? { password } : {}),
        ...(expireDate ? { expires_at: expiryOf(expireDate) } : {}),
        ...(permissions === CREATE ? { upload_only: true } : {}),
      });
      const out = await linkOcs(principal, made);
      if (!out) throw new DomainError(ErrorCode.NotFound, 'Wrong path, file/folder does not exist');
      return out;
    }
    if (shareType === USER || shareType === GROUP) {
      const shareWith = text(params, 'shareWith');
      if (!shareWith) throw badRequest('shareWith: required');
      const rights = grantRights(permissions);
      let group: number | undefined;
      if (shareType === GROUP) {
        if (!/^\d{1,9}$/.test(shareWith)) throw badRequest('shareWith: a group id');
        group = Number(shareWith);
      }
      const made = await access.grant(principal.userId, { path, ...(group === undefined ? { user: shareWith } : { group }), ...rights });
      const out = await grantOcs(principal, made, path);
      if (!out) throw new DomainError(ErrorCode.NotFound, 'Wrong path, file/folder does not exist');
      return out;
    }
    throw badRequest('shareType: 0 (person), 1 (group) or 3 (public link)');
  };

  /**
   * PUT …/shares/<id>, as the apps send it when a share is edited (one field
   * at a time, form-encoded): a link's password ('' removes it) and
   * expireDate ('' removes it); a grant's permissions (read, write, reshare),
   * given again through the same rules as the web app's "Shared by me". What
   * a Cirrus share cannot hold is refused with 400, never dropped in silence:
   * a link's kind (read-only or upload-only) is fixed when it is made, and
   * links take no note or label.
   */
  const update = async (principal: DavPrincipal, id: string, params: Params): Promise<Record<string, OcsValue>> => {
    const { links, access } = services();
    for (const name of ['note', 'label']) {
      if ((text(params, name) ?? '') !== '') throw badRequest(`${name}: shares here take none`);
    }
    if (flag(params, 'publicUpload')) throw badRequest('publicUpload: a link is read-only or upload-only from the start; make a new one');
    const permissions = integer(params, 'permissions');
    const link = await links.get(principal.userId, id).catch((err: unknown) => {
      if (err instanceof DomainError && err.code === ErrorCode.NotFound) return null;
      throw err;
    });
    if (link) {
      if (permissions !== undefined) {
        const current = link.upload_only ? CREATE : READ;
        if (permissions !== current && !(current === READ && permissions === (READ | SHARE))) throw badRequest('permissions: a link is read-only (1) or upload-only (4) from the start; make a new one');
      }
      const password = text(params, 'password');
      checkLinkPassword(password);
      const expireDate = text(params, 'expireDate');
      const changed = await links.update(principal.userId, id, {
        ...(password !== undefined ? { password: password === '' ? null : password } : {}),
        ...(expireDate !== undefined ? { expires_at: expireDate === '' ? null : expiryOf(expireDate) } : {}),
      });
      const out = await linkOcs(principal, changed);
      if (!out) throw new DomainError(ErrorCode.NotFound, 'Wrong share ID, share does not exist');
      return out;
    }
    const given = (await access.given(principal.userId)).find((g) => g.id === id);
    if (!given || !given.item.path) throw new DomainError(ErrorCode.NotFound, 'Wrong share ID, share does not exist');
    for (const name of ['password', 'expireDate']) {
      if ((text(params, name) ?? '') !== '') throw badRequest(`${name}: only links have one`);
    }
    if (permissions === undefined) return one(principal, id);
    const made = await access.grant(principal.userId, {
      path: given.item.path,
      ...(given.group ? { group: given.group.id } : { user: given.user!.id }),
      ...grantRights(permissions),
    });
    const out = await grantOcs(principal, made, given.item.path);
    if (!out) throw new DomainError(ErrorCode.NotFound, 'Wrong share ID, share does not exist');
    return out;
  };

  const remove = async (principal: DavPrincipal, id: string): Promise<void> => {
    const { links, access } = services();
    if (!/^[A-Za-z0-9]{1,64}$/.test(id)) throw new DomainError(ErrorCode.NotFound, 'Wrong share ID, share does not exist');
    try {
      await links.delete(principal.userId, id);
      return;
    } catch (err) {
      if (!(err instanceof DomainError) || err.code !== ErrorCode.NotFound) throw err;
    }
    await access.revoke(principal.userId, id);
  };

  const fail = (request: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply => {
    const dav = err instanceof DavError ? err : fromAppError(toDomainError(err));
    for (const [name, value] of Object.entries(dav.headers)) reply.header(name, value);
    if (dav.status === 401) return sendOcs(request, reply, [], OCS_UNAUTHORIZED);
    if (dav.status >= 500 && dav.status !== 507) {
      request.log.error({ err }, 'OCS share request failed');
      return sendOcs(request, reply, [], { statuscode: 996, http: 500, message: 'Internal server error' });
    }
    // Nextcloud's share API says 404 for what is not there or not the caller's, 400 for bad input, 403 for what they may not do.
    return sendOcs(request, reply, [], { statuscode: dav.status, http: dav.status, message: dav.message });
  };
  /** Every share answered shows its number as its id (sync/service.ts shareNumbers), never the link's or grant's own id. */
  const numbered = async (value: OcsValue): Promise<OcsValue> => {
    const items = (Array.isArray(value) ? value : [value]).filter(
      (v): v is Record<string, OcsValue> => v !== null && typeof v === 'object' && !Array.isArray(v) && typeof v.id === 'string',
    );
    if (items.length === 0) return value;
    const numbers = await sync.shareNumbers(items.map((i) => i.id as string));
    for (const item of items) item.id = String(numbers.get(item.id as string));
    return value;
  };
  /** The link's or grant's id of the share id in the URL; an unknown one is 404 like another's. */
  const shareIdOf = async (request: FastifyRequest): Promise<string> => {
    const id = await sync.shareOf((request.params as { id: string }).id);
    if (id === undefined) throw new DomainError(ErrorCode.NotFound, 'Wrong share ID, share does not exist');
    return id;
  };
  const run = (write: boolean, work: (principal: DavPrincipal, request: FastifyRequest) => Promise<OcsValue>) => async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    try {
      const principal = await who(request, write);
      sync.seen(principal, request.headers['user-agent']);
      return sendOcs(request, reply, await numbered(await work(principal, request)));
    } catch (err) {
      return fail(request, reply, err);
    }
  };

  void app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    const paramsOf = (request: FastifyRequest): Params => ({ ...(request.query as Params), ...(request.body && typeof request.body === 'object' ? (request.body as Params) : {}) });
    const options = { config: { auth: 'none' as const }, schema: { hide: true } };
    for (const prefix of PREFIXES) {
      const url = `${prefix}${SHARES_PATH}`;
      scope.get(url, options, run(false, (p, request) => list(p, request.query as Params)));
      scope.get<{ Params: { id: string } }>(`${url}/:id`, options, run(false, async (p, request) => [await one(p, await shareIdOf(request))]));
      scope.post(url, options, run(true, (p, request) => create(p, paramsOf(request))));
      scope.put<{ Params: { id: string } }>(`${url}/:id`, options, run(true, async (p, request) => update(p, await shareIdOf(request), paramsOf(request))));
      scope.delete<{ Params: { id: string } }>(`${url}/:id`, options, run(true, async (p, request) => {
        await remove(p, await shareIdOf(request));
        return [];
      }));
    }
  });
}
