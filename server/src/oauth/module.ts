// The OAuth feature assembled: services from the foundation's parts, and the
// registration of every route it serves.
import type { BatchStats } from '../db/batches.js';
import type { FastifyInstance } from 'fastify';
import type { Throttle } from '../throttle/service.js';
import type { Invalidations } from '../ops/invalidations.js';
import type { Jobs } from '../core/jobs.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Hs256 } from '../crypto/jwt.js';
import type { AccountService } from '../accounts/service.js';
import type { AccessTokenVerifier } from '../sessions/access-tokens.js';
import type { RevocationService } from '../sessions/revocation.js';
import type { SessionService } from '../sessions/service.js';
import type { TokenIssuer } from '../sessions/token-issuer.js';
import type { SettingsService } from '../site/settings.js';
import type { PageSender } from '../web.js';
import { ClientRepository } from './clients-repository.js';
import { ClientSecrets } from './client-secrets.js';
import { ClientService, type Client } from './clients.js';
import { ConsentService, type GrantView } from './consent.js';
import { GrantRepository } from './grants-repository.js';
import { IdTokenSigner } from './id-tokens.js';
import { adminClientRoutes } from './admin-routes.js';
import { authorizeRoutes } from './authorize-routes.js';
import { oauthPublicRoutes } from './public-routes.js';
import { authorizationCodeGrant } from './token/authorization-code.js';
import { ClientAuthenticator } from './token/client-auth.js';
import { TokenInspection } from './token/inspection.js';
import { TokenMinter } from './token/minter.js';
import { refreshTokenGrant } from './token/refresh-token.js';
import { tokenEndpoints } from './token/routes.js';
import { OAUTH_PATHS } from './paths.js';
import type { GrantHandler } from './token/types.js';
import type { Clock } from '../core/clock.js';
import { DeviceCodeRepository } from './device/repository.js';
import { ParRepository } from './par-repository.js';
import { PushedRequests } from './par.js';
import { RpLogout } from './logout.js';
import { logoutRoutes } from './logout-routes.js';
import { DeviceFlowService } from './device/service.js';
import { deviceRoutes } from './device/routes.js';
import { deviceCodeGrant } from './token/device-code.js';
import { AUTHORIZATION_CODE, DEVICE_CODE, REFRESH_TOKEN } from './grant-types.js';
import type { DpopService } from './dpop/service.js';

const PRUNE_MS = 3600_000;

export interface OAuthDeps {
  config: Config;
  db: Db;
  masterKey: string;
  settings: SettingsService;
  accounts: AccountService;
  sessions: SessionService;
  revocation: RevocationService;
  tokens: TokenIssuer;
  jwt: Hs256;
  verifier: AccessTokenVerifier;
  /** The project's throttle with the clean-key memory (token endpoint hot path). */
  clientThrottle: Throttle;
  /** The project's guess limit (user codes of the device grant). */
  throttle: Throttle;
  invalidations?: Invalidations;
  jobs: Jobs;
  clock: Clock;
  /** RFC 9449 proofs (dpop/module.ts). */
  dpop: DpopService;
}

export interface OAuth {
  clients: ClientService;
  consent: ConsentService;
  signer: IdTokenSigner;
  clientAuth: ClientAuthenticator;
  inspection: TokenInspection;
  grants: Readonly<Record<string, GrantHandler>>;
  devices: DeviceFlowService;
  pushed: PushedRequests;
  logout: RpLogout;
  /** The issuer identifier (`iss`): the configured base URL. */
  issuer: string;
  accounts: AccountService;
  /** For GET /api/v4/user/setting (`oauth_grants`). */
  grantLister: { list(userId: string): Promise<GrantView[]> };
  dpop: DpopService;
  /** How the code exchanges were batched on PostgreSQL (db/batches.ts), for diagnostics and tests. */
  exchangeBatches: BatchStats;
  /** How the refresh rotations were batched on PostgreSQL. */
  refreshBatches: BatchStats;
}

export async function createOAuth(deps: OAuthDeps): Promise<OAuth> {
  const issuer = deps.config.baseUrl;
  const grantRepo = new GrantRepository(deps.db);
  const clients = new ClientService(new ClientRepository(deps.db), new ClientSecrets(deps.masterKey), deps.revocation, deps.clock, (id) => deps.invalidations?.publish('client', id));
  deps.invalidations?.on('client', (id) => clients.forget(id));
  const consent = new ConsentService(clients, grantRepo, deps.revocation, deps.sessions, issuer, deps.clock);
  const signer = await IdTokenSigner.load(deps.settings);
  const minter = new TokenMinter(deps.sessions, deps.settings, signer, issuer, deps.clock, async (userId) => {
    const user = await deps.accounts.findById(userId);
    return user && { email: user.email, email_verified: user.email_verified === 1 };
  });
  // The context's client, when given, is the one the token endpoint authenticated (refresh-token.ts).
  deps.sessions.addFamilyCheck((family, { client }) => consent.checkRefresh(family, client as Client | undefined));

  const pushed = new PushedRequests(new ParRepository(deps.db), issuer, deps.clock);
  const deviceRepo = new DeviceCodeRepository(deps.db);
  const devices = new DeviceFlowService(deviceRepo, consent, deps.throttle, `${issuer}${OAUTH_PATHS.device}`, deps.clock);

  const grants: Record<string, GrantHandler> = {
    [AUTHORIZATION_CODE]: authorizationCodeGrant({ grants: grantRepo, accounts: deps.accounts, revocation: deps.revocation, minter, clock: deps.clock }),
    [REFRESH_TOKEN]: refreshTokenGrant({ sessions: deps.sessions, issuer: deps.tokens, grants: grantRepo }),
    [DEVICE_CODE]: deviceCodeGrant({ devices: deviceRepo, accounts: deps.accounts, minter, clock: deps.clock }),
  };
  deps.jobs.every('oauth_code_prune', PRUNE_MS, async () => {
    await consent.pruneCodes();
    await devices.prune();
    await pushed.prune();
  });
  return {
    clients,
    consent,
    signer,
    clientAuth: new ClientAuthenticator(clients, deps.clientThrottle),
    inspection: new TokenInspection(deps.jwt, deps.verifier, deps.sessions, consent, deps.revocation, issuer, deps.clock),
    grants,
    devices,
    pushed,
    logout: new RpLogout(clients, signer, deps.sessions, deps.revocation, issuer, deps.clock),
    issuer,
    accounts: deps.accounts,
    grantLister: { list: (userId) => consent.listGrants(userId) },
    dpop: deps.dpop,
    exchangeBatches: grantRepo.exchangeBatchStats,
    refreshBatches: grantRepo.rotationBatchStats,
  };
}

export async function oauthRoutes(app: FastifyInstance, oauth: OAuth, sendPage: PageSender): Promise<void> {
  adminClientRoutes(app, oauth.clients);
  authorizeRoutes(app, { clients: oauth.clients, pushed: oauth.pushed, consent: oauth.consent, issuer: oauth.issuer, sendPage });
  oauthPublicRoutes(app, { issuer: oauth.issuer, grantTypes: Object.keys(oauth.grants), signer: oauth.signer, accounts: oauth.accounts });
  logoutRoutes(app, { logout: oauth.logout, sendPage });
  deviceRoutes(app, { devices: oauth.devices, consent: oauth.consent, sendPage });
  await tokenEndpoints(app, { clientAuth: oauth.clientAuth, grants: oauth.grants, inspection: oauth.inspection, startDevice: (client, scope) => oauth.devices.start(client, scope), push: (client, form) => oauth.pushed.push(client, form), dpop: oauth.dpop });
}
