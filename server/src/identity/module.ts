// The identity feature assembled (api-contract §15): upstream providers
// (OpenID Connect, LDAP), the linking rules, the browser round trip, and the
// registration of its routes. sessions/ signs the people in; this feature
// tells it who they are.
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.js';
import type { Clock } from '../core/clock.js';
import type { Jobs } from '../core/jobs.js';
import type { AccountService } from '../accounts/service.js';
import type { SessionService } from '../sessions/service.js';
import type { RevocationService } from '../sessions/revocation.js';
import type { SignInRecorder } from '../sessions/routes.js';
import { ProviderRepository } from './providers-repository.js';
import { ProviderService, type GroupExists } from './providers.js';
import { SealedSecrets } from './sealed-secrets.js';
import { IdentityRepository } from './identities-repository.js';
import { IdentityLinking, type OtherWaysIn } from './linking.js';
import { OidcClients, type TestStep } from './oidc/client.js';
import { SsoRepository } from './oidc/repository.js';
import { SsoFlow } from './oidc/flow.js';
import { adminProviderRoutes } from './admin-routes.js';
import { backchannelRoutes, SSO_PATH, ssoRoutes } from './sso-routes.js';
import { identityRoutes } from './identity-routes.js';
import { Directory } from './ldap/directory.js';
import { LdapSignIn } from './ldap/sign-in.js';

const PRUNE_MS = 15 * 60_000;
/** How often the people linked through a directory are looked up there (api-contract §15: every 15 minutes). */
const LDAP_CHECK_MS = 15 * 60_000;

export interface IdentityDeps {
  db: Db;
  masterKey: string;
  baseUrl: string;
  accounts: AccountService;
  groupExists: GroupExists;
  defaultGroupId: () => Promise<number>;
  otherWaysIn: OtherWaysIn;
  jobs: Jobs;
  clock: Clock;
}

export interface Identity {
  providers: ProviderService;
  linking: IdentityLinking;
  flow: SsoFlow;
  oidc: OidcClients;
  ldap: LdapSignIn;
  test(id: string): Promise<TestStep[]>;
}

export function createIdentity(deps: IdentityDeps): Identity {
  const providers = new ProviderService(new ProviderRepository(deps.db), new SealedSecrets(deps.masterKey), deps.groupExists, deps.clock);
  const identities = new IdentityRepository(deps.db);
  const linking = new IdentityLinking(identities, deps.accounts, deps.defaultGroupId, deps.otherWaysIn, deps.clock);
  const oidc = new OidcClients((id) => new URL(`${SSO_PATH}/${id}/callback`, deps.baseUrl).toString(), () => deps.clock.now());
  providers.onChange((id) => oidc.forget(id));
  const flow = new SsoFlow(new SsoRepository(deps.db), providers, oidc, linking, identities, deps.clock);
  deps.jobs.every('sso_prune', PRUNE_MS, () => flow.prune());
  const ldap = new LdapSignIn(providers, linking, deps.accounts, () => deps.jobs.logger);
  deps.jobs.every('ldap_check', LDAP_CHECK_MS, () => ldap.check());
  return {
    providers,
    linking,
    flow,
    oidc,
    ldap,
    async test(id) {
      const p = await providers.get(id);
      if (p.type === 'oidc') return oidc.test(p);
      return new Directory(p).test();
    },
  };
}

export async function identityModuleRoutes(
  app: FastifyInstance,
  identity: Identity,
  deps: { sessions: SessionService; accounts: AccountService; revocation: RevocationService; baseUrl: string; recordSignIn?: SignInRecorder },
): Promise<void> {
  adminProviderRoutes(app, identity.providers, (id) => identity.test(id));
  ssoRoutes(app, { flow: identity.flow, sessions: deps.sessions, accounts: deps.accounts, baseUrl: deps.baseUrl, recordSignIn: deps.recordSignIn });
  identityRoutes(app, { linking: identity.linking, providers: identity.providers, flow: identity.flow, secureCookies: deps.baseUrl.startsWith('https:') });
  await backchannelRoutes(app, {
    flow: identity.flow,
    revokeFamilies: async (ids) => {
      for (const id of ids) await deps.revocation.revokeFamily(id, 'upstream_logout');
    },
  });
}
