// The OAuth feature's routes, named once. Discovery metadata and the route
// registrations both read them, so a path is never spelled twice.
export const OAUTH_PATHS = {
  authorize: '/session/authorize',
  app: '/api/v4/session/oauth/app/:client_id',
  consent: '/api/v4/session/oauth/consent',
  grant: '/api/v4/session/oauth/grant/:client_id',
  token: '/api/v4/session/oauth/token',
  par: '/api/v4/session/oauth/par',
  /** OpenID Connect RP-Initiated Logout 1.0: the page. */
  endSession: '/session/logout',
  logoutCheck: '/api/v4/session/oauth/logout/check',
  logout: '/api/v4/session/oauth/logout',
  /** The authorize page reads the parameters a request_uri stands for. */
  pushedRequest: '/api/v4/session/oauth/pushed',
  deviceAuthorization: '/api/v4/session/oauth/device_authorization',
  /** The page a person opens to enter a device's user code (RFC 8628 §3.3). */
  device: '/device',
  deviceVerify: '/api/v4/session/oauth/device/verify',
  deviceConsent: '/api/v4/session/oauth/device/consent',
  revoke: '/api/v4/session/oauth/revoke',
  introspect: '/api/v4/session/oauth/introspect',
  userinfo: '/api/v4/session/oauth/userinfo',
  jwks: '/api/v4/session/oauth/jwks',
  openidConfiguration: '/.well-known/openid-configuration',
  authorizationServerMetadata: '/.well-known/oauth-authorization-server',
  adminClients: '/api/v4/admin/oauthClient',
} as const;
