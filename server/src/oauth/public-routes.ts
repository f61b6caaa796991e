// Discovery documents, the JWKS and userinfo: plain JSON, as their standards say.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccountService } from '../accounts/service.js';
import { avatarPath } from '../accounts/avatars.js';
import { requireAuth } from '../http/auth.js';
import { Type } from 'typebox';
import { View } from '../http/contract.js';
import { serverMetadata } from './discovery.js';
import type { IdTokenSigner } from './id-tokens.js';
import { OAUTH_PATHS } from './paths.js';
import { OPENID } from './scopes.js';

export interface PublicRouteDeps {
  issuer: string;
  grantTypes: readonly string[];
  signer: IdTokenSigner;
  accounts: AccountService;
}

/** OIDC Core §5.3.2: claims follow the token's scopes. Plain JSON, no envelope. */
const UserInfoSchema = View(
  {
    sub: Type.String(),
    name: Type.Optional(Type.String({ description: 'with profile' })),
    nickname: Type.Optional(Type.String({ description: 'with profile' })),
    picture: Type.Optional(Type.String({ description: "with profile, while the person has an avatar: the avatar's absolute URL" })),
    updated_at: Type.Optional(Type.Integer({ description: 'with profile; seconds since the epoch' })),
    email: Type.Optional(Type.String({ description: 'with email' })),
    email_verified: Type.Optional(Type.Boolean({ description: 'with email; true once a link mailed to the address was used' })),
  },
  { title: 'UserInfo', description: 'OIDC claims of the token\'s user' },
);
/** RFC 7517 §5: the id_token signing key (ES256). */
const JwksSchema = View(
  {
    keys: Type.Array(
      View(
        {
          kty: Type.String(),
          crv: Type.Optional(Type.String()),
          x: Type.Optional(Type.String()),
          y: Type.Optional(Type.String()),
          kid: Type.Optional(Type.String()),
          alg: Type.Optional(Type.String()),
          use: Type.Optional(Type.String()),
        },
        { title: 'Jwk' },
      ),
    ),
  },
  { title: 'Jwks', description: 'JSON Web Key Set' },
);

export function oauthPublicRoutes(app: FastifyInstance, deps: PublicRouteDeps): void {
  const none = { config: { auth: 'none' as const, cors: 'public' as const } };
  for (const path of [OAUTH_PATHS.openidConfiguration, OAUTH_PATHS.authorizationServerMetadata]) {
    app.get(path, none, async (_request, reply) => {
      reply.header('Cache-Control', 'public, max-age=300');
      return serverMetadata(deps.issuer, deps.grantTypes);
    });
  }

  app.get(OAUTH_PATHS.jwks, { ...none, schema: { description: 'RFC 7517 key set of the id_token signing key.', response: { 200: JwksSchema } } }, async (_request, reply) => {
    reply.header('Cache-Control', 'public, max-age=300').type('application/jwk-set+json');
    return deps.signer.jwks();
  });

  // OIDC Core §5.3: claims follow the token's scopes; a first-party token sees them all.
  const userinfo = {
    config: { auth: 'required' as const, scopes: [OPENID] },
    schema: { description: 'OIDC Core §5.3 UserInfo (plain JSON).', response: { 200: UserInfoSchema } },
  };
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const auth = requireAuth(request);
    const user = await deps.accounts.get(auth.user.id);
    const has = (scope: string) => auth.scopes === null || auth.scopes.includes(scope);
    reply.header('Cache-Control', 'no-store');
    return {
      sub: user.id,
      ...(has('profile') ? { name: user.nickname, nickname: user.nickname, updated_at: Math.floor(user.updated_at / 1000) } : {}),
      // OIDC Core §5.1: an absolute URL of the picture; absent while the person shows initials.
      ...(has('profile') && user.avatar_at !== null ? { picture: deps.issuer + avatarPath(user.id, Number(user.avatar_at)) } : {}),
      // True once a link mailed to the address was used (activation, reset, verification; api-contract §11).
      ...(has('email') ? { email: user.email, email_verified: user.email_verified === 1 } : {}),
    };
  };
  app.get(OAUTH_PATHS.userinfo, userinfo, handler);
  app.post(OAUTH_PATHS.userinfo, userinfo, handler);
}
