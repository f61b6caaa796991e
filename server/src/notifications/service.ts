// Notifications (api-contract §17): features call `notify` where the event
// happens; the person's preferences decide whether it is shown in the app,
// mailed at once (through the outbox, in their language) or kept for the
// daily digest. A new one wakes the person's streams on this instance and,
// through the hub, on the others.
import type { Clock } from '../core/clock.js';
import { notFound } from '../core/errors.js';
import { timeOrderedId } from '../crypto/random.js';
import { mailLanguage } from '../mail/messages.js';
import type { Mailer } from '../mail/mailer.js';
import { KINDS, resolve, type Kind, type Preferences, type PreferencesPatch } from './kinds.js';
import type { NotificationRepository, NotificationRow } from './repository.js';
import { digestLine, instantMail, type Data } from './words.js';

/** The recipient, as accounts knows them. */
export interface Recipient {
  email: string;
  locale: string | null;
  status: string;
}

export interface NotificationPorts {
  person(userId: string): Promise<Recipient | undefined>;
  /** Bytes used and the quota (0: none) of a person's tree. */
  capacity(userId: string): Promise<{ used: number; total: number }>;
}

export interface NotificationView {
  id: string;
  type: Kind;
  at: string;
  read: boolean;
  data: Data;
}

/** Storage is "almost full" from here, and the notice can come again once usage fell below REARM. */
export const QUOTA_MARK = 0.9;
const QUOTA_REARM = 0.8;
/** A digest goes at most this often per person (the admin route sends the pending ones now). */
const DIGEST_EVERY_MS = 24 * 3600_000;
/** Read notifications are kept this long. */
const RETENTION_MS = 90 * 24 * 3600_000;

export function toView(row: NotificationRow): NotificationView {
  let data: Data = {};
  try {
    data = JSON.parse(row.data) as Data;
  } catch {
    // A row is written by this code only; an unreadable one shows without details.
  }
  return { id: row.id, type: row.type as Kind, at: new Date(Number(row.at)).toISOString(), read: row.read_at !== null, data };
}

export class NotificationService {
  private readonly listeners: ((userId: string) => void)[] = [];

  constructor(
    readonly repo: NotificationRepository,
    private readonly ports: NotificationPorts,
    private readonly mailer: Mailer,
    private readonly baseUrl: string,
    private readonly clock: Clock,
    /** Failures of work done after the answer (quota checks), reported to the jobs runner. */
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  /** Told after a notification shown in the app was stored (the hub wakes the person's streams). */
  onCreated(listener: (userId: string) => void): void {
    this.listeners.push(listener);
  }

  async preferences(userId: string): Promise<Preferences> {
    return resolve((await this.repo.settings(userId))?.prefs);
  }

  async updatePreferences(userId: string, patch: PreferencesPatch): Promise<Preferences> {
    const prefs = await this.preferences(userId);
    for (const k of KINDS) {
      const p = patch[k];
      if (!p) continue;
      if (p.web !== undefined) prefs[k].web = p.web;
      if (p.email !== undefined) prefs[k].email = p.email;
    }
    await this.repo.savePrefs(userId, JSON.stringify(prefs));
    return prefs;
  }

  /**
   * Tells `userId` of an event. `data` is shown as is (names, paths, counts;
   * `link` is where the app opens it). Never throws: the event that caused
   * it has happened whether or not its notice could be written.
   */
  async notify(userId: string, type: Kind, data: Data): Promise<void> {
    try {
      const pref = (await this.preferences(userId))[type];
      const daily = pref.email === 'daily';
      const instant = pref.email === 'instant';
      if (!pref.web && !daily && !instant) return;
      const person = await this.ports.person(userId);
      if (!person || person.status !== 'active') return;
      await this.repo.insert({ id: timeOrderedId(this.clock.now()), userId, type, at: this.clock.now(), data: JSON.stringify(data), web: pref.web, digest: daily });
      if (pref.web) for (const l of this.listeners) l(userId);
      if (instant) await this.mailNow(person, type, data);
    } catch (err) {
      this.onError(err);
    }
  }

  private async mailNow(person: Recipient, type: Kind, data: Data): Promise<void> {
    if (!(await this.mailer.configured())) return;
    const language = mailLanguage(person.locale);
    const mail = instantMail(type, data, language);
    if (!mail) return;
    const link = typeof data.link === 'string' ? `${this.baseUrl}${data.link}` : undefined;
    await this.mailer.queue({ kind: mail.kind, to: person.email, language, link, vars: mail.vars });
  }

  async list(userId: string, before: string | undefined, limit: number): Promise<{ items: NotificationView[]; unread: number; cursor: string | null }> {
    const rows = await this.repo.page(userId, before === undefined ? null : Number(before), limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { items: page.map(toView), unread: await this.repo.unread(userId), cursor: rows.length > limit && last ? String(last.seq) : null };
  }

  async setRead(userId: string, id: string, read: boolean): Promise<NotificationView> {
    const row = await this.repo.setRead(userId, id, read ? this.clock.now() : null);
    // Someone else's notification is "not found", like one that does not exist.
    if (!row) throw notFound('Notification not found');
    return toView(row);
  }

  async readAll(userId: string): Promise<number> {
    return this.repo.readAll(userId, this.clock.now());
  }

  /**
   * After a person's usage changed: the "almost full" notice once when it
   * crosses the mark (not on every upload after), again only after usage
   * fell back under REARM. The mark is a compare-and-set in the database, so
   * two instances never both tell.
   */
  async checkQuota(userId: string): Promise<void> {
    // Team folders' principals and people gone since have no one to tell.
    if ((await this.ports.person(userId))?.status !== 'active') return;
    const { used, total } = await this.ports.capacity(userId);
    if (total <= 0) return;
    const ratio = used / total;
    if (ratio >= QUOTA_MARK) {
      if (await this.repo.markQuota(userId, true)) await this.notify(userId, 'quota_almost_full', { percent: Math.min(100, Math.floor(ratio * 100)), used, total, link: '/files' });
    } else if (ratio < QUOTA_REARM) {
      const s = await this.repo.settings(userId);
      if (s?.quota_warned === 1) await this.repo.markQuota(userId, false);
    }
  }

  /**
   * Sends the digests due: each person's waiting notifications in one mail,
   * at most once a day (`force`: now, whatever the time of the last one).
   * Returns the number of mails queued.
   */
  async sendDigests(force = false): Promise<number> {
    if (!(await this.mailer.configured())) return 0;
    const now = this.clock.now();
    let sent = 0;
    for (const due of await this.repo.digestDue(1000)) {
      if (!force && due.digest_at !== null && now - due.digest_at < DIGEST_EVERY_MS) continue;
      if (!(await this.repo.claimDigest(due.user_id, due.digest_at, now))) continue;
      const rows = await this.repo.takeDigest(due.user_id);
      const person = await this.ports.person(due.user_id);
      if (rows.length === 0 || !person || person.status !== 'active') continue;
      const language = mailLanguage(person.locale);
      const items = rows.map((r) => `• ${digestLine(r.type as Kind, toView(r).data, language)}`).join('\n');
      await this.mailer.queue({ kind: 'notification_digest', to: person.email, language, link: `${this.baseUrl}/notifications`, vars: { count: String(rows.length), items } });
      sent++;
    }
    return sent;
  }

  prune(): Promise<void> {
    return this.repo.prune(this.clock.now() - RETENTION_MS);
  }
}
