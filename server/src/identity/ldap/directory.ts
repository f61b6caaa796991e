// Talking to an LDAP directory (api-contract §15) with ldapts: one short
// connection per use (StartTLS when set), the service bind, the user search
// with the login escaped (RFC 4515 §3), the bind as the person (never with an
// empty password: RFC 4513 §5.1.2 makes that an unauthenticated bind, which
// servers accept without checking anything), the groups search, and the
// check of a linked person. Every operation has a short timeout, so that an
// unreachable directory answers an error, never a stalled request.
import { Client, InvalidCredentialsError, NoSuchObjectError, type Entry } from 'ldapts';
import type { LdapProvider } from '../providers.js';
import type { TestStep } from '../oidc/client.js';

const CONNECT_TIMEOUT_MS = 3000;
const OPERATION_TIMEOUT_MS = 5000;

/**
 * A value put inside a search filter (RFC 4515 §3): `*`, `(`, `)`, `\` and NUL
 * become \2a, \28, \29, \5c and \00, so a login such as `*)(uid=*` is a
 * value to match, never filter syntax.
 */
export function escapeFilterValue(value: string): string {
  const special = new Set(['*', '(', ')', '\\', String.fromCharCode(0)]);
  return [...value].map((c) => (special.has(c) ? `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}` : c)).join('');
}

/** The filter with `{login}` and `{dn}` replaced by their escaped values. */
export function fillFilter(template: string, values: { login?: string; dn?: string }): string {
  return template.replace(/\{(login|dn)\}/g, (_m, key: 'login' | 'dn') => escapeFilterValue(values[key] ?? ''));
}

/** The directory could not be asked (down, refused, timed out, TLS failed): the person's password says nothing. */
export class DirectoryUnavailable extends Error {
  constructor(
    readonly providerName: string,
    cause: unknown,
  ) {
    super(`${providerName}: ${describe(cause)}`);
    this.name = 'DirectoryUnavailable';
  }
}

export interface DirectoryPerson {
  dn: string;
  email: string | undefined;
  name: string | undefined;
  /** Each group's DN and cn (null when no group search is set up). */
  groups: string[] | null;
}

/** An error's own words (the server's diagnostic), never an object that could carry the bind password. */
export function describe(err: unknown): string {
  // An LDAP result (ldapts' ResultCodeError): its name says what (InvalidCredentialsError), its message the server's diagnostic and the code.
  const resultCode = (err as { code?: unknown } | null)?.code;
  if (err instanceof Error && typeof resultCode === 'number') {
    const what = err.name.replace(/Error$/, '').replace(/([a-z])([A-Z])/g, '$1 $2');
    const diagnostic = err.message.replace(/\s*Code: 0x[0-9a-f]+ \(\d+\)\s*$/i, '').trim();
    return `${what[0]}${what.slice(1).toLowerCase()}${diagnostic ? `: ${diagnostic}` : ''} (LDAP result ${resultCode})`;
  }
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return `${err.message || err.name}${typeof code === 'string' || typeof code === 'number' ? ` (${code})` : ''}`;
  }
  return String(err);
}

function first(entry: Entry, attribute: string): string | undefined {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attribute.toLowerCase());
  if (!key) return undefined;
  const v = entry[key];
  const one = Array.isArray(v) ? v[0] : v;
  if (one === undefined) return undefined;
  return Buffer.isBuffer(one) ? one.toString('utf8') : String(one);
}

function all(entry: Entry, attribute: string): string[] {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attribute.toLowerCase());
  if (!key) return [];
  const v = entry[key];
  return (Array.isArray(v) ? v : [v]).map((x) => (Buffer.isBuffer(x) ? x.toString('utf8') : String(x)));
}

export class Directory {
  constructor(private readonly p: LdapProvider) {}

  private async open(): Promise<Client> {
    const client = new Client({ url: this.p.settings.url, connectTimeout: CONNECT_TIMEOUT_MS, timeout: OPERATION_TIMEOUT_MS, strictDN: false });
    if (this.p.settings.start_tls) await client.startTLS({ servername: new URL(this.p.settings.url).hostname });
    return client;
  }

  /** The service bind (anonymous when no bind_dn is set). */
  private async serviceBind(client: Client): Promise<void> {
    if (this.p.settings.bind_dn !== '') await client.bind(this.p.settings.bind_dn, this.p.secret);
  }

  private async withClient<T>(work: (client: Client) => Promise<T>): Promise<T> {
    let client: Client;
    try {
      client = await this.open();
    } catch (err) {
      throw new DirectoryUnavailable(this.p.name, err);
    }
    try {
      return await work(client);
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }

  /**
   * The person when the directory knows `login` and `password` is theirs;
   * undefined when it does not (no such entry, several, or a wrong password).
   * Throws DirectoryUnavailable when the directory cannot be asked.
   */
  async authenticate(login: string, password: string): Promise<DirectoryPerson | undefined> {
    // RFC 4513 §5.1.2: a simple bind with a DN and an empty password is an unauthenticated bind, which succeeds without a password.
    if (password === '' || login.trim() === '') return undefined;
    const s = this.p.settings;
    return this.withClient(async (client) => {
      let entries: Entry[];
      try {
        await this.serviceBind(client);
        const res = await client.search(s.user_base, {
          scope: 'sub',
          filter: fillFilter(s.user_filter, { login }),
          attributes: [s.email_attribute, s.name_attribute],
          sizeLimit: 2,
        });
        entries = res.searchEntries;
      } catch (err) {
        if (err instanceof NoSuchObjectError) return undefined;
        // More than one entry is a filter that does not single people out: nobody signs in by it.
        if ((err as Error).name === 'SizeLimitExceededError') return undefined;
        throw new DirectoryUnavailable(this.p.name, err);
      }
      if (entries.length !== 1) return undefined;
      const entry = entries[0]!;
      try {
        await client.bind(entry.dn, password);
      } catch (err) {
        if (err instanceof InvalidCredentialsError) return undefined;
        throw new DirectoryUnavailable(this.p.name, err);
      }
      // The groups are read with the service's rights again (the person may not read groups).
      let groups: string[] | null = null;
      try {
        await this.serviceBind(client);
        groups = await this.groupsOf(client, entry.dn, login);
      } catch (err) {
        throw new DirectoryUnavailable(this.p.name, err);
      }
      return { dn: entry.dn, email: first(entry, s.email_attribute), name: first(entry, s.name_attribute), groups };
    });
  }

  private async groupsOf(client: Client, dn: string, login: string): Promise<string[] | null> {
    const s = this.p.settings;
    if (!s.group_base || !s.group_filter) return null;
    let entries: Entry[];
    try {
      entries = (await client.search(s.group_base, { scope: 'sub', filter: fillFilter(s.group_filter, { dn, login }), attributes: ['cn'], sizeLimit: 500 })).searchEntries;
    } catch (err) {
      if (err instanceof NoSuchObjectError) return [];
      throw err;
    }
    const values = entries.flatMap((e) => [e.dn, ...all(e, 'cn')]);
    // group_map keys and admin_values match a DN or cn whatever its case (DNs and cn compare case-insensitively).
    const lower = new Set(values.map((v) => v.toLowerCase()));
    for (const key of [...Object.keys(s.group_map), ...s.admin_values]) if (lower.has(key.toLowerCase())) values.push(key);
    return values;
  }

  /**
   * Whether the entry `dn` still exists and still matches user_filter (with
   * `{login}` as a presence test): false for a person removed or filtered out
   * (disabled). Throws DirectoryUnavailable when the directory cannot say.
   */
  async stillThere(dn: string): Promise<boolean> {
    const s = this.p.settings;
    // {login} → * turns (uid={login}) into a presence test: the rest of the filter (objectClass, a disabled flag) still applies.
    const filter = s.user_filter.replace(/\{login\}/g, '*');
    return this.withClient(async (client) => {
      try {
        await this.serviceBind(client);
        const res = await client.search(dn, { scope: 'base', filter, attributes: ['1.1'] });
        return res.searchEntries.length === 1;
      } catch (err) {
        if (err instanceof NoSuchObjectError) return false;
        throw new DirectoryUnavailable(this.p.name, err);
      }
    });
  }

  /** The admin's test: connect (+StartTLS), the service bind, a search of user_base. Each step answers what worked or the server's own words. */
  async test(): Promise<TestStep[]> {
    const s = this.p.settings;
    const steps: TestStep[] = [];
    let client: Client;
    try {
      client = await this.open();
      // ldapts connects lazily: the service bind below is the first exchange, so connect is reported with it.
    } catch (err) {
      steps.push({ step: 'connect', ok: false, detail: describe(err) });
      return steps;
    }
    try {
      try {
        // An explicit anonymous bind (RFC 4513 §5.1.1) when there is no service account, so the connection is tried here.
        if (s.bind_dn === '') await client.bind('', '');
        else await this.serviceBind(client);
        steps.push({ step: 'connect', ok: true, detail: `${s.url}${s.start_tls ? ' (StartTLS)' : ''}` });
        steps.push({ step: 'bind', ok: true, detail: s.bind_dn === '' ? 'anonymous' : `bound as ${s.bind_dn}` });
      } catch (err) {
        const connectFailed = !(err as { code?: unknown }).code || typeof (err as { code?: unknown }).code === 'string';
        if (connectFailed && !(err instanceof InvalidCredentialsError)) {
          steps.push({ step: 'connect', ok: false, detail: describe(err) });
        } else {
          steps.push({ step: 'connect', ok: true, detail: s.url });
          steps.push({ step: 'bind', ok: false, detail: describe(err) });
        }
        return steps;
      }
      try {
        const res = await client.search(s.user_base, { scope: 'sub', filter: s.user_filter.replace(/\{login\}/g, '*'), attributes: ['1.1'], sizeLimit: 1000 });
        steps.push({ step: 'search', ok: true, detail: `${res.searchEntries.length} ${res.searchEntries.length === 1 ? 'entry' : 'entries'} under ${s.user_base} match user_filter` });
      } catch (err) {
        if ((err as Error).name === 'SizeLimitExceededError') steps.push({ step: 'search', ok: true, detail: `more than 1000 entries under ${s.user_base} match user_filter` });
        else steps.push({ step: 'search', ok: false, detail: describe(err) });
      }
      return steps;
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }
}
