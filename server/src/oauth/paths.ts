// The OAuth feature's routes, named once. Discovery metadata and the route
// registrations both read them, so a path is never spelled twice.
export const OAUTH_PATHS = {
  authorize: '/session/authorize',
  app: '/api/v4/session/oauth/app/:client_id',
  consent: '/api/v4/session/oauth/consent',
  grant: '/api/v4/session/oauth/grant/:client_id',
  token: '/api/v4/session/oauth/token',
  revoke: '/api/v4/session/oauth/revoke',
  introspect: '/api/v4/session/oauth/introspect',
  userinfo: '/api/v4/session/oauth/userinfo',
  jwks: '/api/v4/session/oauth/jwks',
  openidConfiguration: '/.well-known/openid-configuration',
  authorizationServerMetadata: '/.well-known/oauth-authorization-server',
  adminClients: '/api/v4/admin/oauthClient',
} as const;
