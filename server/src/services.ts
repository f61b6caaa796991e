// Builds every service from configuration and a database, once. Features get
// what they need by constructor; nothing reaches for a global.
import type { Config } from './config.js';
import { createDb, type Db } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
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
import { ACCOUNT_POLICY, ADDRESS_POLICY, LoginThrottle, THROTTLE_RETENTION_MS } from './sessions/login-throttle.js';
import { TokenIssuer } from './sessions/token-issuer.js';
import { SessionService } from './sessions/service.js';
import { ChallengeRepository } from './sessions/challenge-repository.js';
import { AccessTokenVerifier } from './sessions/access-tokens.js';
import { ADMIN_GROUP_ID } from './accounts/service.js';
import { createOAuth, type OAuth } from './oauth/module.js';
import { existsSync } from 'node:fs';
import { ensureDataDir } from './site/data-dir.js';
import { isInitialized, probeDatabase } from './db/probe.js';
import { createFiles, type Files } from './files/module.js';
import { createShares, type Shares } from './shares/module.js';
import { createDav, type Dav } from './webdav/module.js';
import { GroupRepository } from './accounts/groups-repository.js';
import { GroupService } from './accounts/groups.js';
import { ReportRepository } from './admin/report-repository.js';
import { SummaryService } from './admin/summary.js';

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
  issuer: TokenIssuer;
  verifier: AccessTokenVerifier;
  oauth: OAuth;
  files: Files;
  shares: Shares;
  dav: Dav;
  groups: GroupService;
  report: ReportRepository;
  summary: SummaryService;
  close(): Promise<void>;
}

export interface ServiceOptions {
  /**
   * Create the schema, the master key and the first administrator when they
   * are missing: only `serve` and `init` do, so that no other command can
   * leave behind a site whose generated admin password nobody saw.
   */
  initialize?: boolean;
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
    return await assemble(config, db, initialize);
  } catch (err) {
    await db.destroy();
    throw err;
  }
}

async function assemble(config: Config, db: Db, initialize: boolean): Promise<Services> {
  const settings = new SettingsService(new SettingsRepository(db));
  const accountRepo = new AccountRepository(db);
  const sessionRepo = new SessionRepository(db);
  const revocationCache = new RevocationCache(new RevocationRepository(db));
  const revocation = new RevocationService(sessionRepo, new RevocationRepository(db), revocationCache);
  const userCache = new UserCache(accountRepo);
  const accounts = new AccountService(accountRepo, settings, revocation, userCache);

  await migrateToLatest(db);
  const init = await initializeSite(new SettingsRepository(db), accounts, {
    adminEmail: config.adminEmail,
    adminPassword: config.adminPassword,
    createAdmin: initialize
      ? async (email, password) => {
          await accounts.create({ email, password, nickname: 'Administrator', groupId: ADMIN_GROUP_ID });
        }
      : undefined,
  });
  const secret = await settings.secretKey();
  if (!secret) throw new Error('master key missing after initialization');
  const jwt = new Hs256(secret);
  const issuer = new TokenIssuer(jwt);
  const loginThrottle = new LoginThrottle(db);
  const sessions = new SessionService(new ChallengeRepository(db), sessionRepo, accounts, settings, loginThrottle, issuer, jwt, revocation);
  const verifier = new AccessTokenVerifier(jwt, userCache, revocationCache);
  const twoFactor = new TwoFactorService(accountRepo, async () => (await settings.current()).site_name);
  const oauth = await createOAuth({ config, db, masterKey: secret, settings, accounts, sessions, revocation, tokens: issuer, jwt, verifier });
  const files = await createFiles({ db, dataDir: config.dataDir, storage: config.storage, masterKey: secret, accounts });
  const shares = createShares({ db, files: files.files, owners: accounts, masterKey: secret, baseUrl: () => config.baseUrl });
  const dav = createDav({
    db, files: files.files, uploads: files.uploads, users: accounts, userCache, verifier,
    // Failed Basic attempts count like sign-in failures, under keys of their own.
    throttle: {
      check: async (keys) => void (await loginThrottle.check(keys)),
      failed: (key, kind) => loginThrottle.fail(key, kind === 'account' ? ACCOUNT_POLICY : ADDRESS_POLICY),
      succeeded: (key) => loginThrottle.clear(key),
    },
  });
  const groups = new GroupService(new GroupRepository(db), settings, userCache);
  const report = new ReportRepository(db);
  const summary = new SummaryService(report, { database: config.database.kind, storageDriver: config.storage.kind });
  await revocationCache.start();
  const prune = async () => {
    await revocation.prune();
    await loginThrottle.prune(Date.now() - THROTTLE_RETENTION_MS);
  };
  const pruneTimer = setInterval(() => void prune().catch(() => undefined), 3600_000);
  pruneTimer.unref();

  return {
    config,
    db,
    init,
    jwt,
    settings,
    accounts,
    twoFactor,
    avatars: new Avatars(new AvatarRepository(db), userCache),
    revocation,
    sessions,
    issuer,
    verifier,
    oauth,
    files,
    shares,
    dav,
    groups,
    report,
    summary,
    async close() {
      oauth.stop();
      await files.stop();
      clearInterval(pruneTimer);
      revocationCache.stop();
      await revocationCache.idle();
      await db.destroy();
    },
  };
}
