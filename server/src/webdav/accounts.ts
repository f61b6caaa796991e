// WebDAV accounts (api-contract §8): one per device, a generated password
// shown once, an optional folder and read-only flag. The password is
// `<key id><secret>`: the 8-character key id is public and finds the row, so a
// Basic attempt costs one argon2id verification, not one per device; the
// whole password is stored as an argon2id hash (crypto/passwords.ts).
import { DomainError, ErrorCode, badRequest, notFound } from '../core/errors.js';
import { hashPassword } from '../crypto/passwords.js';
import { secretToken, shortId } from '../crypto/random.js';
import { FOLDER } from '../files/rows.js';
import type { FilesService } from '../files/service.js';
import { joinPath, parsePath } from '../files/names.js';
import type { DavAccountRow, DavRepository } from './repository.js';
import type { Clock } from '../core/clock.js';

export const KEY_ID_LENGTH = 8;
/** Devices per person: enough for every phone and laptop, small enough to list on one page. */
export const MAX_ACCOUNTS = 100;

export interface DavAccountView {
  id: string;
  name: string;
  path: string;
  readonly: boolean;
  created_at: string;
  updated_at: string;
  /** When a client last used the account (recorded at most once a minute), null if never. */
  last_seen_at: string | null;
  /** The User-Agent of that client (e.g. "Mozilla/5.0 (Linux) mirall/3.7.3"), null if never used. */
  client: string | null;
}

/** The devices behind accounts (the sync feature keeps them, server/src/sync): who last used each and when. */
export interface DeviceLog {
  /** Notes a use; cheap (at most one write a minute per account). */
  seen(accountId: string, userAgent: string | undefined): void;
  devices(accountIds: readonly string[]): Promise<Map<string, { user_agent: string; last_seen_at: number }>>;
}

export function toAccountView(row: DavAccountRow): DavAccountView {
  return {
    id: row.id,
    name: row.name,
    path: row.root_path,
    readonly: row.readonly === 1,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    last_seen_at: null,
    client: null,
  };
}

export interface AccountChange {
  name?: string;
  path?: string;
  readonly?: boolean;
  regenerate_password?: boolean;
}

/** Told when an account changes or goes, so cached credentials die with it on this instance. */
export type AccountListener = (accountId: string) => void;

export class DavAccountService {
  private readonly listeners: AccountListener[] = [];
  private deviceLog: DeviceLog | null = null;

  constructor(
    private readonly repo: DavRepository,
    private readonly files: FilesService,
    private readonly clock: Clock,
  ) {}

  onChange(listener: AccountListener): void {
    this.listeners.push(listener);
  }

  useDevices(log: DeviceLog): void {
    this.deviceLog = log;
  }

  /** A client used the account (a request it made authenticated with it). */
  seen(accountId: string | null | undefined, userAgent: string | undefined): void {
    if (accountId) this.deviceLog?.seen(accountId, userAgent);
  }

  list(userId: string): Promise<DavAccountRow[]> {
    return this.repo.listAccounts(userId);
  }

  /**
   * The account as its owner sees it. A folder inside something shared with
   * them is stored by the grant (files' anchorPath), so another person's
   * renames never point the device at their folder; shown at its path now.
   */
  async view(row: DavAccountRow): Promise<DavAccountView> {
    return (await this.views([row]))[0]!;
  }

  /** `view` for a list, with one read of the devices behind them. */
  async views(rows: readonly DavAccountRow[]): Promise<DavAccountView[]> {
    const devices = this.deviceLog && rows.length ? await this.deviceLog.devices(rows.map((r) => r.id)) : new Map<string, { user_agent: string; last_seen_at: number }>();
    return Promise.all(
      rows.map(async (row) => {
        const device = devices.get(row.id);
        return {
          ...toAccountView(row),
          path: await this.files.anchoredPath(row.user_id, row.root_path),
          last_seen_at: device ? new Date(device.last_seen_at).toISOString() : null,
          client: device && device.user_agent !== '' ? device.user_agent : null,
        };
      }),
    );
  }

  async create(userId: string, input: { name: string; path?: string; readonly?: boolean }): Promise<{ row: DavAccountRow; password: string }> {
    const name = checkName(input.name);
    const rootPath = await this.files.anchorPath(userId, await this.checkFolder(userId, input.path ?? '/'));
    if ((await this.repo.listAccounts(userId)).length >= MAX_ACCOUNTS) {
      throw new DomainError(ErrorCode.Conflict, `At most ${MAX_ACCOUNTS} WebDAV accounts per person; delete one first`);
    }
    const { keyId, password, hash } = await newPassword();
    const now = this.clock.now();
    const row: DavAccountRow = {
      id: shortId(10), user_id: userId, name, key_id: keyId, password_hash: hash, root_path: rootPath,
      readonly: input.readonly ? 1 : 0, created_at: now, updated_at: now,
    };
    await this.repo.insertAccount(row);
    return { row, password };
  }

  async update(userId: string, id: string, change: AccountChange): Promise<{ row: DavAccountRow; password: string | null }> {
    const current = await this.repo.findAccount(userId, id);
    if (!current) throw notFound('WebDAV account not found');
    const patch: Partial<DavAccountRow> = { updated_at: this.clock.now() };
    if (change.name !== undefined) patch.name = checkName(change.name);
    if (change.path !== undefined) patch.root_path = await this.files.anchorPath(userId, await this.checkFolder(userId, change.path));
    if (change.readonly !== undefined) patch.readonly = change.readonly ? 1 : 0;
    let password: string | null = null;
    if (change.regenerate_password) {
      const fresh = await newPassword();
      password = fresh.password;
      patch.key_id = fresh.keyId;
      patch.password_hash = fresh.hash;
    }
    if (!(await this.repo.updateAccount(userId, id, patch))) throw notFound('WebDAV account not found');
    this.changed(id);
    return { row: { ...current, ...patch }, password };
  }

  /** Every WebDAV password of the user stops working at once (the verified-credential memory is dropped too). */
  async deleteAll(userId: string): Promise<void> {
    for (const id of await this.repo.deleteAccountsOf(userId)) this.changed(id);
  }

  async delete(userId: string, id: string): Promise<void> {
    if (!(await this.repo.deleteAccount(userId, id))) throw notFound('WebDAV account not found');
    this.changed(id);
  }

  private changed(id: string): void {
    for (const l of this.listeners) l(id);
  }

  /** The folder must exist when the account is made (later it may move away: the account then sees 404). */
  private async checkFolder(userId: string, raw: string): Promise<string> {
    const path = joinPath(parsePath(raw, 'path'));
    let kind: number;
    try {
      kind = (await this.files.resolve(userId, path)).row.kind;
    } catch (err) {
      if (err instanceof DomainError && err.code === ErrorCode.NotFound) throw badRequest('path: no such folder');
      throw err;
    }
    if (kind !== FOLDER) throw badRequest('path: is a file, not a folder');
    return path;
  }
}

function checkName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0) throw badRequest('name: must not be empty');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) throw badRequest('name: must not contain control characters');
  return name;
}

async function newPassword(): Promise<{ keyId: string; password: string; hash: string }> {
  const keyId = shortId(KEY_ID_LENGTH);
  // 24 random bytes = 192 bits after the public key id.
  const password = keyId + secretToken(24);
  return { keyId, password, hash: await hashPassword(password) };
}
