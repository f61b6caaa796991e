// Builds every service from configuration and a database, once. Features get
// what they need by constructor; nothing reaches for a global.
import path from 'node:path';
import type { Config } from './config.js';
import { createDb, poolStats, statementsRun, type Db } from './db/database.js';
import { migrateToLatest, withInitLock } from './db/migrate.js';
import { Metrics } from './ops/metrics.js';
import type { HealthSources } from './ops/health.js';
import { Jobs } from './core/jobs.js';
import { systemClock, type Clock } from './core/clock.js';
import { Foreground } from './core/foreground.js';
import { RedisBus } from './ops/redis-bus.js';
import { Invalidations } from './ops/invalidations.js';
import { parseRevocationMessage } from './sessions/revocation-messages.js';
import { Hs256 } from './crypto/jwt.js';
import { AccountRepository } from './accounts/repository.js';
import { AccountService } from './accounts/service.js';
import { TwoFactorService } from './accounts/two-factor.js';
import { AvatarRepository } from './accounts/avatar-repository.js';
import { Avatars } from './accounts/avatars.js';
import { UserCache } from './accounts/user-cache.js';
import { SettingsRepository } from './site/settings-repository.js';
import { SettingsService } from './site/settings.js';
import { initializeSite, type InitResult } from './site/init.js';
import { SessionRepository } from './sessions/repository.js';
import { RevocationRepository } from './sessions/revocation-repository.js';
import { RevocationCache } from './sessions/revocation-cache.js';
import { RevocationService } from './sessions/revocation.js';
import { SqlThrottleStore } from './throttle/repository.js';
import { Throttle, THROTTLE_RETENTION_MS, type ThrottleStore } from './throttle/service.js';
import { TokenIssuer } from './sessions/token-issuer.js';
import { SessionService } from './sessions/service.js';
import { DeviceCookies } from './sessions/device-cookies.js';
import { ChallengeRepository } from './sessions/challenge-repository.js';
import { AccessTokenVerifier } from './sessions/access-tokens.js';
import { ADMIN_GROUP_ID } from './accounts/service.js';
import { createOAuth, type OAuth } from './oauth/module.js';
import { existsSync } from 'node:fs';
import { ensureDataDir } from './site/data-dir.js';
import { isInitialized, pingDatabase, probeDatabase } from './db/probe.js';
import { refreshStatistics } from './db/statistics.js';
import { createFiles, type Files } from './files/module.js';
import { createShares, type Shares } from './shares/module.js';
import { createFeed, type Feed } from './files/events/module.js';
import { createSearch, type Search } from './search/module.js';
import { createMedia, type Media } from './media/module.js';
import { createSharing, type Sharing } from './sharing/module.js';
import { sharingPorts } from './sharing/ports.js';
import { SHARED_WITH_ME } from './sharing/resolver.js';
import { createTeams, type Teams } from './teams/module.js';
import { createDav, type Dav } from './webdav/module.js';
import { createSync, type Sync } from './sync/module.js';
import { GroupRepository } from './accounts/groups-repository.js';
import { GroupService } from './accounts/groups.js';
import { ReportRepository } from './admin/report-repository.js';
import { SummaryService } from './admin/summary.js';
import { OutboxRepository } from './mail/outbox-repository.js';
import { Outbox } from './mail/outbox.js';
import { SmtpSender } from './mail/transport.js';
import { Mailer } from './mail/mailer.js';
import { createScanner } from './antivirus/module.js';
import { AccountTokenRepository } from './accounts/token-repository.js';
import { AccountLinks } from './accounts/links.js';
import { PasswordReset } from './accounts/password-reset.js';
import { RecoveryCodes } from './accounts/recovery-codes.js';
import { RecoveryCodeRepository } from './accounts/recovery-repository.js';
import { AccountNotices } from './accounts/notices.js';
import { Passkeys } from './accounts/passkeys.js';
import { PasskeyRepository } from './accounts/passkey-repository.js';
import { EmailFlows } from './accounts/email-flows.js';
import { CredentialSweep } from './accounts/credential-sweep.js';
import { createDpop } from './oauth/dpop/module.js';
import type { DpopService } from './oauth/dpop/service.js';
import { createIdentity, type Identity } from './identity/module.js';
import { AuditRepository } from './audit/repository.js';
import { ActivityRecorder, createActivity, type Activity } from './activity/module.js';
import { AuditLog } from './audit/service.js';
import { AuditSpool } from './audit/spool.js';
import { createNotifications, type Notifications } from './notifications/module.js';

/** How often each instance looks for mail to send (a new message is also sent at once, see Outbox.enqueue). */
const OUTBOX_POLL_MS = 5_000;

/** How long the token endpoint's throttle remembers keys without failures (docs/security.md). */
const CLIENT_THROTTLE_CLEAN_MS = 1000;

export interface Services {
  config: Config;
  db: Db;
  init: InitResult;
  jwt: Hs256;
  settings: SettingsService;
  accounts: AccountService;
  twoFactor: TwoFactorService;
  avatars: Avatars;
  revocation: RevocationService;
  sessions: SessionService;
  /** Browsers where an account signed in before (sessions/device-cookies.ts). */
  devices: DeviceCookies;
  /** The guess limit (throttle/service.ts): for every secret a person types (WebDAV Basic too). */
  throttle: Throttle;
  /** The store behind every throttle (another implementation may replace it, e.g. Redis). */
  throttleStore: ThrottleStore;
  issuer: TokenIssuer;
  verifier: AccessTokenVerifier;
  /** DPoP proofs (RFC 9449) at the token endpoint, on protected routes and on WebDAV. */
  dpop: DpopService;
  oauth: OAuth;
  files: Files;
  /** The change feed (files/events/). */
  feed: Feed;
  /** Content search: the text index and its extraction job (search/). */
  search: Search;
  /** Thumbnails of videos, PDFs, HEIC and songs, and media metadata (media/). */
  media: Media;
  shares: Shares;
  /** Sharing with people and groups (sharing/). */
  sharing: Sharing;
  /** Team folders (teams/). */
  teams: Teams;
  dav: Dav;
  /** The Nextcloud / ownCloud client protocol (sync/). */
  sync: Sync;
  groups: GroupService;
  report: ReportRepository;
  summary: SummaryService;
  /** Every mail goes through the outbox (mail/outbox.ts). */
  outbox: Outbox;
  mailer: Mailer;
  links: AccountLinks;
  passwordReset: PasswordReset;
  /** Notices mailed on security changes (accounts/notices.ts). */
  notices: AccountNotices;
  /** Activation, verification and change of addresses (accounts/email-flows.ts). */
  emailFlows: EmailFlows;
  /** WebAuthn registration and sign-in (accounts/passkeys.ts). */
  passkeys: Passkeys;
  /** Upstream sign-in: OpenID Connect and LDAP providers, linked identities (identity/). */
  identity: Identity;
  metrics: Metrics;
  /** The administrators' audit log (audit/): events go through its bounded queue. */
  audit: AuditLog;
  /** What people are told: the bell, its stream, preferences, instant mail and digests (notifications/). */
  notifications: Notifications;
  /** Item histories (activity/): written by the file store, read per person. */
  activity: Activity;
  /** Set when CIRRUS_REDIS_URL is. */
  redis: RedisBus | undefined;
  health: HealthSources;
  /** The background tasks (core/jobs.ts). */
  jobs: Jobs;
  /** When requests last started: background work waits for a pause in them (core/foreground.ts). */
  foreground: Foreground;
  /** Where every service reads the time (core/clock.ts). */
  clock: Clock;
  close(): Promise<void>;
}

export interface ServiceOptions {
  /**
   * Create the schema, the master key and the first administrator when they
   * are missing: only `serve` and `init` do, so that no other command can
   * leave behind a site whose generated admin password nobody saw.
   */
  initialize?: boolean;
  /** Default: the system clock; tests pass a ManualClock to move time. */
  clock?: Clock;
}

export class NotInitializedError extends Error {}

export async function createServices(config: Config, options: ServiceOptions = {}): Promise<Services> {
  const initialize = options.initialize ?? true;
  ensureDataDir(config.dataDir);
  const where = config.database.kind === 'sqlite' ? `the data directory ${config.dataDir}` : 'this PostgreSQL database';
  const notInitialized = () => new NotInitializedError(`${where} holds no initialized Cirrus site: run \`npm run cirrus -- init\` (or start it with \`npm start\`) first`);
  // Opening SQLite creates the file: check before.
  if (!initialize && config.database.kind === 'sqlite' && !existsSync(config.database.file)) throw notInitialized();
  const db = createDb(config.database);
  try {
    await probeDatabase(db, config.database);
    if (!initialize && !(await isInitialized(db))) throw notInitialized();
    return await assemble(config, db, initialize, options.clock ?? systemClock);
  } catch (err) {
    await db.destroy();
    throw err;
  }
}

async function assemble(config: Config, db: Db, initialize: boolean, clock: Clock): Promise<Services> {
  const redis = config.redisUrl ? new RedisBus(config.redisUrl) : undefined;
  try {
    return await assembleWith(config, db, initialize, redis, clock);
  } catch (err) {
    await redis?.close();
    throw err;
  }
}

async function assembleWith(config: Config, db: Db, initialize: boolean, redis: RedisBus | undefined, clock: Clock): Promise<Services> {
  await redis?.start();
  const invalidations = new Invalidations(redis);
  const settings = new SettingsService(new SettingsRepository(db), () => invalidations.publish('settings', ''), clock);
  if (config.signupEmailVerification !== undefined) settings.useDefaults({ signup_email_verification: config.signupEmailVerification });
  invalidations.on('settings', () => settings.forget());
  const accountRepo = new AccountRepository(db);
  const sessionRepo = new SessionRepository(db);
  const metrics = new Metrics(() => poolStats(db), () => statementsRun(db));
  // Every background task reports here: failures logged and counted, state shown by /site/health.
  const jobs = new Jobs((job) => metrics.jobFailed(job), clock);
  const revocationCache = new RevocationCache(new RevocationRepository(db), (err) => jobs.outcome('revocation_sync', err), clock);
  const revocation = new RevocationService(sessionRepo, new RevocationRepository(db), revocationCache, clock, (events) => {
    void redis?.publish('revocations', JSON.stringify(events));
  });
  const userCache = new UserCache(accountRepo, (id) => invalidations.publish('user', id), clock);
  invalidations.on('user', (id) => userCache.forget(id));
  const recoveryCodes = new RecoveryCodes(new RecoveryCodeRepository(db), clock);
  // One store, two throttles: passwords always reserve in the store; client
  // secrets at the token endpoint may use the clean-key memory (≤ 1 s).
  const throttleStore = new SqlThrottleStore(db);
  const throttle = new Throttle(throttleStore, { clock });
  const clientThrottle = new Throttle(throttleStore, { rememberCleanMs: CLIENT_THROTTLE_CLEAN_MS, clock });
  const accounts = new AccountService(accountRepo, settings, revocation, userCache, clock, throttle, recoveryCodes);

  // Several instances starting at once against one empty database: one migrates
  // and initializes, the others wait for the lock and find it done.
  const init = await withInitLock(db, async () => {
    await migrateToLatest(db);
    return initializeSite(new SettingsRepository(db), accounts, {
      adminEmail: config.adminEmail,
      adminPassword: config.adminPassword,
      createAdmin: initialize
        ? async (email, password) => {
            await accounts.create({ email, password, nickname: 'Administrator', groupId: ADMIN_GROUP_ID, skipStrengthCheck: true });
          }
        : undefined,
    });
  });
  const secret = await settings.secretKey();
  if (!secret) throw new Error('master key missing after initialization');
  const jwt = new Hs256(secret);
  const issuer = new TokenIssuer(jwt, clock);
  const devices = new DeviceCookies(secret, config.baseUrl.startsWith('https:'), clock);
  const sessions = new SessionService(new ChallengeRepository(db), sessionRepo, accounts, settings, throttle, issuer, jwt, revocation, clock);
  const verifier = new AccessTokenVerifier(jwt, userCache, revocationCache, clock);
  const dpop = createDpop({ baseUrl: config.baseUrl, masterKey: secret, requireNonces: config.dpopNonces, redis, clock });
  const oauth = await createOAuth({ config, db, masterKey: secret, settings, accounts, sessions, revocation, tokens: issuer, jwt, verifier, clientThrottle, throttle, invalidations, jobs, clock, dpop });
  const files = await createFiles({
    db, dataDir: config.dataDir, storage: config.storage, masterKey: secret, accounts, jobs, clock,
    transfers: { uploads: config.connections.uploadsPerAccount, downloads: config.connections.downloadsPerAccount },
    uploadOptions: { linkIdleExpiryMs: config.linkUploadIdleMs },
    // Off only for bench/audit-cost.mjs's "without" server.
    activity: config.recordingOff ? undefined : new ActivityRecorder(),
  });
  metrics.watchTransfers((kind) => files.files.transfers.inFlight(kind));
  const feed = await createFeed({
    db, changes: files.changes, verifier, bus: redis, jobs, clock,
    hub: { perAccount: config.connections.streamsPerAccount, perToken: config.connections.streamsPerToken },
  });
  const foreground = new Foreground();
  const search = createSearch({ db, blobs: files.storage, changes: files.changes, jobs, clock, foreground });
  files.search.useContent(search.content);
  const media = await createMedia({ db, dataDir: config.dataDir, blobs: files.storage, files: files.files, changes: files.changes, jobs, clock, thumbCache: files.thumbCache, foreground });
  files.thumbs.useSources(media.service);
  files.files.useMedia(media.service);
  // WebDAV Basic guesses go through the same helper, under keys of their own.
  const dav = createDav({ db, files: files.files, uploads: files.uploads, users: accounts, userCache, verifier, proofs: dpop, throttle, clock });
  /** What people are called where others see them: the nickname, else the e-mail address. */
  const displayNames = async (ids: readonly string[]): Promise<Map<string, string>> => {
    const out = new Map<string, string>();
    for (const id of ids) {
      const u = await userCache.get(id);
      if (u) out.set(id, u.row.nickname || u.email);
    }
    return out;
  };
  const sync = createSync({
    db,
    dav,
    feed: feed.service,
    clock,
    jobs,
    throttle,
    baseUrl: config.baseUrl,
    history: { trash: files.trash, versions: files.versions },
    thumbs: files.thumbs,
    ports: {
      person: async (id) => {
        const u = await userCache.get(id);
        return u?.active ? { id: u.id, email: u.email, nickname: u.row.nickname } : undefined;
      },
      people: { displayNames },
      siteName: async () => (await settings.current()).site_name,
      sharingEnabled: async () => (await settings.current()).share_with !== 'nobody',
    },
  });
  // A deleted person's chunked uploads in progress: their chunks' bytes go too.
  accounts.onUserDeleted((userId) => sync.chunked.abortAll(userId));
  const groups = new GroupService(new GroupRepository(db), settings, userCache, clock);
  const report = new ReportRepository(db);
  const summary = new SummaryService(report, { database: config.database.kind, storageDriver: config.storage.kind }, clock);
  const smtp = new SmtpSender(config.mail, () => settings.current());
  const outbox = new Outbox(new OutboxRepository(db), smtp, clock, () => void jobs.run('mail_outbox'));
  jobs.every('mail_outbox', OUTBOX_POLL_MS, () => outbox.deliverDue(), { firstAfterMs: 1_000 });
  const mailer = new Mailer(outbox, async () => (await settings.current()).site_name);
  const notifications = await createNotifications({
    db, mailer, changes: files.changes, verifier, bus: redis, jobs, clock, baseUrl: config.baseUrl,
    hub: { perAccount: config.connections.streamsPerAccount, perToken: config.connections.streamsPerToken },
    ports: {
      person: async (id) => {
        const u = await accounts.findById(id);
        return u ? { email: u.email, locale: u.locale, status: u.status } : undefined;
      },
      capacity: (id) => files.files.capacity(id),
    },
  });
  const notify = notifications.service;
  oauth.consent.onGranted((userId, client, scopes) => notify.notify(userId, 'app_authorized', { client_id: client.id, app: client.name, scopes: [...scopes], link: '/settings/apps' }));
  accounts.onUserDeleted((userId) => notify.repo.deleteUser(userId));
  if (config.antivirus) files.uploads.check = createScanner(config.antivirus, { metrics, jobs, mailer, accounts, baseUrl: config.baseUrl });
  const shares = createShares({ db, files: files.files, uploads: files.uploads, owners: accounts, masterKey: secret, throttle, baseUrl: config.baseUrl, clock, jobs,
    notify: {
      uploadReceived: (ownerId, data) => notify.notify(ownerId, 'upload_request_received', data),
      linkDownloaded: (ownerId, data) => notify.notify(ownerId, 'link_downloaded', data),
    },
    linkUploadPending: { perLink: config.linkUploadPendingPerLink, perAddress: config.linkUploadPendingPerAddress },
  });
  const sharing = createSharing({ db, files: files.files, audiences: files.audiences, ports: sharingPorts(accounts, settings, (id, data) => notify.notify(id, 'shared_with_me', data), throttle), clock });
  sync.useShares({ links: shares.service, access: sharing.access });
  // Team folders are mounted in front of sharing's paths (teams/resolver.ts).
  const teams = createTeams({ db, files: files.files, trash: files.trash, audiences: files.audiences, owners: files.uploads, next: sharing.paths, reserved: [SHARED_WITH_ME], clock });
  const links = new AccountLinks(new AccountTokenRepository(db), config.baseUrl, clock);
  // A password or address change voids every link mailed before it (docs/security.md).
  accounts.onCredentialsChanged((userId) => links.voidAll(userId));
  const sweep = new CredentialSweep();
  const notices = new AccountNotices(accounts, mailer);
  notices.onChange((userId, change, detail) => notify.notify(userId, 'security_change', { change, ...detail, link: '/settings/security' }));
  const passwordReset = new PasswordReset(accounts, links, mailer, throttle, jobs, sweep, (userId) => notices.changed(userId, 'password_reset'));
  const emailFlows = new EmailFlows(accounts, settings, links, mailer, throttle, jobs);
  const passkeys = new Passkeys(new PasskeyRepository(db), config.baseUrl, async () => (await settings.current()).site_name, clock, (userId, name) => notices.passkeyAdded(userId, name));
  const twoFactor = new TwoFactorService(accountRepo, async () => (await settings.current()).site_name, clock, recoveryCodes, throttle, (userId, state) => notices.twoFactor(userId, state));
  // What a reset ends when it first proves an address, and lists in its notice (accounts/credential-sweep.ts).
  sweep.register({ kind: 'passkeys', endAll: (id) => passkeys.removeAll(id), names: async (id) => (await passkeys.list(id)).map((p) => p.name) });
  sweep.register({ kind: 'webdav', endAll: (id) => dav.accounts.deleteAll(id), names: async (id) => (await dav.accounts.list(id)).map((a) => a.name) });
  sweep.register({ kind: 'apps', endAll: (id) => oauth.consent.revokeAllGrants(id), names: async (id) => (await oauth.consent.listGrants(id)).map((g) => g.name) });
  sweep.register({ kind: 'two_step', endAll: (id) => twoFactor.endFor(id), names: async (id) => ((await accounts.findById(id))?.totp_secret ? ['on'] : []) });
  const identity = createIdentity({
    db,
    masterKey: secret,
    baseUrl: config.baseUrl,
    accounts,
    groupExists: async (id) => (await groups.list()).some((g) => g.id === id),
    defaultGroupId: async () => (await settings.current()).default_group_id,
    // A password and each passkey are ways in besides the identities.
    otherWaysIn: async (userId) => ((await accounts.hasPassword(userId)) ? 1 : 0) + (await passkeys.list(userId)).length,
    jobs,
    clock,
  });
  const activity = createActivity({ db, files: files.files, people: { nicknames: displayNames } });
  // Written by a queue, never inside the request (audit/service.ts), kept on disk until written (audit/spool.ts); retention is a site setting.
  const audit = new AuditLog(new AuditRepository(db), clock, (err) => jobs.outcome('audit_write', err), { spool: new AuditSpool(path.join(config.dataDir, 'audit-spool')) }, (action) => metrics.audited(action));
  // The rows of processes killed with rows queued: in the background, the table may be locked.
  audit.recover().catch(() => undefined);
  jobs.every('audit_retention', 3600_000, async () => audit.prune((await settings.current()).audit_retention_days), { firstAfterMs: 60_000 });
  jobs.every('activity_retention', 3600_000, async () => activity.service.prune((await settings.current()).activity_retention_days, clock.now()), { firstAfterMs: 60_000 });
  sessions.useDirectory(identity.ldap);
  await revocationCache.start();
  // Revocations made on other instances arrive in milliseconds through Redis;
  // the once-a-second database poll stays (the fallback, and the truth after an outage).
  await redis?.subscribe('revocations', (message) => revocationCache.applyAll(parseRevocationMessage(message)));
  await invalidations.start();
  const prune = async () => {
    await revocation.prune();
    await throttle.prune(clock.now() - THROTTLE_RETENTION_MS);
    await links.prune();
    await outbox.prune();
    await passkeys.prune();
    await sharing.access.pruneNotices();
  };
  jobs.every('prune', 3600_000, prune);
  // PostgreSQL: planner statistics for the tables that changed enough, whether or not autovacuum runs (db/statistics.ts).
  // SQLite gets no such job: its queries are written for a planner without statistics.
  if (config.database.kind === 'postgres') jobs.every('db_statistics', 60_000, () => refreshStatistics(db), { firstAfterMs: 30_000 });

  return {
    config,
    db,
    init,
    jwt,
    settings,
    accounts,
    twoFactor,
    avatars: new Avatars(new AvatarRepository(db), userCache, clock),
    revocation,
    sessions,
    devices,
    throttle,
    throttleStore,
    issuer,
    verifier,
    dpop,
    oauth,
    files,
    feed,
    search,
    media,
    shares,
    sharing,
    teams,
    dav,
    sync,
    groups,
    report,
    summary,
    outbox,
    mailer,
    links,
    passwordReset,
    notices,
    emailFlows,
    passkeys,
    identity,
    metrics,
    audit,
    notifications,
    activity,
    redis,
    jobs,
    foreground,
    clock,
    health: {
      database: () => pingDatabase(db),
      storage: () => files.storage.check(),
      redis: redis ? () => redis.ping() : undefined,
      revocationSyncedAt: () => revocationCache.syncedAt,
      jobs: () => jobs.states(),
      clock,
    },
    async close() {
      feed.hub.close();
      notifications.hub.close();
      await search.stop();
      await media.stop();
      await files.stop();
      // The events still queued get one last chance to be written (audit/service.ts).
      await audit.close();
      await jobs.stop();
      smtp.close();
      revocationCache.stop();
      await revocationCache.idle();
      await redis?.close();
      await db.destroy();
    },
  };
}
