// Which answers make an audit row (api-contract §17; the names are listed in
// docs/api.md "Audit log"). The events are read at the HTTP boundary, from one
// table here, rather than by calls spread through the features: the route
// knows the actor, the address and the browser, and one table shows every
// audited route at a glance (docs/decisions/028-audit-at-the-http-boundary.md).
// Every administrator route that writes (scope Admin.Write) is audited, a
// route added later included, under its table name or a name derived from
// its path. Only routes in the table or with Admin.Write get a hook: the
// other routes pay nothing.
//
// A row never holds a secret: details name the fields a body changed, never
// their values, and the sign-in failure names the address typed, not the
// password.
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuditEvent, AuditLog } from './service.js';

/** What a rule sees of one exchange. */
export interface Exchange {
  request: FastifyRequest;
  status: number;
  /** The envelope's code (null: not an envelope). */
  code: number | null;
  /** The envelope's data (undefined when there is none). */
  data: unknown;
  /** Path parameters and body fields as strings, when present. */
  param(name: string): string;
  field(name: string): unknown;
}

interface Rule {
  /** The action on success; null in a function: nothing to record. */
  success?: string | ((x: Exchange) => string | null);
  /** The action on a refusal (401 or 403: a credential or an account refused). */
  failure?: string;
  targetType: string;
  targetId?: (x: Exchange) => string;
  actorId?: (x: Exchange) => string | null;
  detail?: (x: Exchange) => Record<string, unknown>;
  /** Success without an envelope (RFC 7009 revocation answers 200 with no body). */
  plain?: boolean;
}

const dataField = (name: string) => (x: Exchange) => {
  const d = x.data as Record<string, unknown> | null | undefined;
  const v = d && typeof d === 'object' ? d[name] : undefined;
  return v === undefined || v === null ? '' : String(v);
};
const signedInUser = (x: Exchange) => {
  const user = (x.data as { user?: { id?: unknown } } | undefined)?.user;
  return typeof user?.id === 'string' ? user.id : null;
};
const param = (name: string) => (x: Exchange) => x.param(name);
const self = (x: Exchange) => x.request.auth?.user.id ?? '';
/** The names of the body fields sent (never their values). */
const fields = (x: Exchange) => {
  const body = x.request.body;
  return body && typeof body === 'object' ? { fields: Object.keys(body).sort() } : {};
};

const SIGN_IN_FAILURE = 'session.sign_in_failed';

/** `METHOD path` (the route's registered path) -> how its answer is recorded. */
export const AUDITED: Record<string, Rule> = {
  'POST /api/v4/session/token': {
    // Code 203 (a second factor is needed) is neither: the second step records the outcome.
    success: (x) => (x.code === 0 ? 'session.sign_in' : null),
    failure: SIGN_IN_FAILURE,
    targetType: 'user',
    targetId: (x) => signedInUser(x) ?? String(x.field('email') ?? '').toLowerCase(),
    actorId: signedInUser,
    // The route says how the password was proven (a Cirrus password, or a directory's); a refusal is judged by no one in particular.
    detail: (x) => ({ ...(x.request.signInMethod ?? { method: 'password' }), email: String(x.field('email') ?? '').toLowerCase(), ...(x.status >= 400 ? { code: x.code } : {}) }),
  },
  'POST /api/v4/session/sso/exchange': {
    success: (x) => (x.code === 0 ? 'session.sign_in' : null),
    failure: SIGN_IN_FAILURE,
    targetType: 'user',
    targetId: (x) => signedInUser(x) ?? '',
    actorId: signedInUser,
    detail: (x) => ({ ...(x.request.signInMethod ?? { method: 'oidc' }), ...(x.status >= 400 ? { code: x.code } : {}) }),
  },
  'POST /api/v4/session/token/2fa': {
    success: 'session.sign_in',
    failure: SIGN_IN_FAILURE,
    targetType: 'user',
    targetId: (x) => signedInUser(x) ?? '',
    actorId: signedInUser,
    detail: (x) => ({ method: 'second_factor', ...(x.status >= 400 ? { code: x.code } : {}) }),
  },
  'POST /api/v4/session/authn': {
    success: 'session.sign_in',
    failure: SIGN_IN_FAILURE,
    targetType: 'user',
    targetId: (x) => signedInUser(x) ?? '',
    actorId: signedInUser,
    detail: (x) => ({ method: 'passkey', ...(x.status >= 400 ? { code: x.code } : {}) }),
  },
  'DELETE /api/v4/session/token': { success: 'session.signed_out', targetType: 'session', targetId: () => '' },
  'DELETE /api/v4/user/session/:id': { success: 'session.revoked', targetType: 'session', targetId: param('id') },
  'PATCH /api/v4/user/setting': {
    success: (x) => (x.field('new_password') !== undefined ? 'user.password_changed' : null),
    targetType: 'user',
    targetId: self,
  },
  'PATCH /api/v4/user/reset': { success: 'user.password_reset', targetType: 'user', targetId: () => '' },
  'PUT /api/v4/user/setting/2fa': { success: 'user.two_factor_enabled', targetType: 'user', targetId: self },
  'DELETE /api/v4/user/setting/2fa': { success: 'user.two_factor_disabled', targetType: 'user', targetId: self },
  'POST /api/v4/user/setting/2fa/recovery-codes': { success: 'user.recovery_codes_regenerated', targetType: 'user', targetId: self },
  'POST /api/v4/user/authn': { success: 'user.passkey_added', targetType: 'passkey', targetId: dataField('id') },
  'PATCH /api/v4/user/authn/:id': { success: 'user.passkey_renamed', targetType: 'passkey', targetId: param('id') },
  'DELETE /api/v4/user/authn/:id': { success: 'user.passkey_removed', targetType: 'passkey', targetId: param('id') },
  'POST /api/v4/user/email/confirm': { success: 'user.email_changed', targetType: 'user', targetId: self },
  'DELETE /api/v4/user/identities/:id': { success: 'user.identity_unlinked', targetType: 'identity', targetId: param('id') },
  'PUT /api/v4/devices/dav': { success: 'webdav.account_created', targetType: 'webdav_account', targetId: dataField('id') },
  'PATCH /api/v4/devices/dav/:id': { success: 'webdav.account_updated', targetType: 'webdav_account', targetId: param('id'), detail: fields },
  'DELETE /api/v4/devices/dav/:id': { success: 'webdav.account_deleted', targetType: 'webdav_account', targetId: param('id') },
  // Login Flow v2/v1: the grant makes a WebDAV account for the sync client.
  'POST /api/v4/sync/login-flows/:id/grant': { success: 'webdav.account_created', targetType: 'webdav_account', targetId: dataField('account_id') },
  'POST /api/v4/session/oauth/consent': {
    success: (x) => (x.field('approve') === false ? null : 'oauth.grant_created'),
    targetType: 'oauth_client',
    targetId: (x) => String(x.field('client_id') ?? ''),
    detail: (x) => ({ scope: String(x.field('scope') ?? '') }),
  },
  'POST /api/v4/session/oauth/device/consent': {
    success: (x) => (x.field('approve') === false ? null : 'oauth.grant_created'),
    targetType: 'oauth_client',
    targetId: () => '',
    detail: () => ({ grant: 'device_code' }),
  },
  'DELETE /api/v4/session/oauth/grant/:client_id': { success: 'oauth.grant_revoked', targetType: 'oauth_client', targetId: param('client_id') },
  'POST /api/v4/session/oauth/revoke': {
    success: 'oauth.token_revoked',
    plain: true,
    targetType: 'oauth_client',
    targetId: (x) => String(x.field('client_id') ?? ''),
    detail: (x) => ({ token_type_hint: String(x.field('token_type_hint') ?? '') }),
  },
  'PUT /api/v4/share': { success: 'sharing.link_created', targetType: 'share', targetId: dataField('id'), detail: (x) => ({ path: String(x.field('path') ?? '') }) },
  'PATCH /api/v4/share/:id': { success: 'sharing.link_updated', targetType: 'share', targetId: param('id'), detail: fields },
  'DELETE /api/v4/share/:id': { success: 'sharing.link_deleted', targetType: 'share', targetId: param('id') },
  'PUT /api/v4/file/access': {
    success: 'sharing.grant_created',
    targetType: 'grant',
    targetId: dataField('id'),
    detail: (x) => ({ path: String(x.field('path') ?? ''), permission: String(x.field('permission') ?? ''), ...(x.field('user') !== undefined ? { user: String(x.field('user')) } : { group: x.field('group') }) }),
  },
  'DELETE /api/v4/file/access/:id': { success: 'sharing.grant_revoked', targetType: 'grant', targetId: param('id') },
  // Administrators: named here when the derived name would read badly.
  'PUT /api/v4/admin/user': { success: 'admin.user_created', targetType: 'user', targetId: dataField('id'), detail: fields },
  'PUT /api/v4/admin/user/:id': { success: 'admin.user_updated', targetType: 'user', targetId: param('id'), detail: fields },
  'DELETE /api/v4/admin/user/:id': { success: 'admin.user_deleted', targetType: 'user', targetId: param('id') },
  'POST /api/v4/admin/user/:id/reset-password': { success: 'admin.user_password_reset', targetType: 'user', targetId: param('id') },
  'POST /api/v4/admin/user/:id/sign-out': { success: 'admin.user_signed_out', targetType: 'user', targetId: param('id') },
  'PUT /api/v4/admin/group': { success: 'admin.group_created', targetType: 'group', targetId: dataField('id'), detail: fields },
  'PUT /api/v4/admin/group/:id': { success: 'admin.group_updated', targetType: 'group', targetId: param('id'), detail: fields },
  'DELETE /api/v4/admin/group/:id': { success: 'admin.group_deleted', targetType: 'group', targetId: param('id') },
  'PUT /api/v4/admin/oauthClient': { success: 'admin.app_created', targetType: 'oauth_client', targetId: dataField('id'), detail: fields },
  'PUT /api/v4/admin/oauthClient/:id': { success: 'admin.app_updated', targetType: 'oauth_client', targetId: param('id'), detail: fields },
  'DELETE /api/v4/admin/oauthClient/:id': { success: 'admin.app_deleted', targetType: 'oauth_client', targetId: param('id') },
  'PATCH /api/v4/admin/settings': { success: 'admin.settings_changed', targetType: 'site', targetId: () => 'settings', detail: fields },
  'DELETE /api/v4/admin/share/:id': { success: 'admin.share_deleted', targetType: 'share', targetId: param('id') },
};

const VERBS: Record<string, string> = { POST: 'requested', PUT: 'saved', PATCH: 'changed', DELETE: 'deleted' };

/**
 * The rule for an administrator route not in the table:
 * `admin.<path after /admin/, parameters left out, "_"-joined>_<verb>`, the
 * target being the first path parameter.
 */
export function derivedAdminRule(method: string, url: string): Rule {
  const rest = url.replace(/^\/api\/v4\/admin\//, '');
  const words = rest.split('/').filter((s) => s && !s.startsWith(':'));
  const slug = words.join('_').replace(/[^A-Za-z0-9]+/g, '_').replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
  const firstParam = /:([A-Za-z_]+)/.exec(rest)?.[1];
  return {
    success: `admin.${slug}_${VERBS[method] ?? method.toLowerCase()}`,
    targetType: words[0]?.replace(/-/g, '_') ?? 'site',
    targetId: firstParam ? param(firstParam) : dataField('id'),
    detail: fields,
  };
}

function writesAsAdmin(config: FastifyContextConfig): boolean {
  return config.admin === true && (config.scopes ?? []).includes('Admin.Write');
}

function envelopeOf(payload: unknown): { code: number | null; data: unknown } {
  if (typeof payload !== 'string' || payload.length > 65_536 || payload[0] !== '{') return { code: null, data: undefined };
  try {
    const parsed = JSON.parse(payload) as { code?: unknown; data?: unknown };
    return { code: typeof parsed.code === 'number' ? parsed.code : null, data: parsed.data };
  } catch {
    return { code: null, data: undefined };
  }
}

function exchange(request: FastifyRequest, reply: FastifyReply, payload: unknown): Exchange {
  const { code, data } = envelopeOf(payload);
  const params = (request.params ?? {}) as Record<string, unknown>;
  const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
  return {
    request,
    status: reply.statusCode,
    code,
    data,
    param: (name) => (params[name] === undefined ? '' : String(params[name])),
    field: (name) => body[name],
  };
}

/** The event of one answer under `rule`, or null. */
export function eventOf(rule: Rule, x: Exchange): AuditEvent | null {
  let action: string | null | undefined;
  const succeeded = x.status < 300 && (rule.plain ? true : x.code === 0 || x.code === 203);
  if (succeeded) action = typeof rule.success === 'function' ? rule.success(x) : rule.success;
  else if (x.status === 401 || x.status === 403) action = rule.failure;
  if (!action) return null;
  return {
    action,
    actorId: rule.actorId ? (rule.actorId(x) ?? x.request.auth?.user.id ?? null) : (x.request.auth?.user.id ?? null),
    ip: x.request.ip,
    userAgent: x.request.headers['user-agent'] ?? '',
    targetType: rule.targetType,
    targetId: rule.targetId ? rule.targetId(x) : '',
    detail: rule.detail ? rule.detail(x) : {},
  };
}

/**
 * Adds an onSend hook to each audited route as it is registered (call before
 * the routes are added). The hook never fails the answer: an error in it is
 * reported through `onError` and the answer goes out unchanged.
 */
export function registerAuditCapture(app: FastifyInstance, audit: AuditLog, onError: (err: unknown) => void): void {
  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as FastifyContextConfig;
    for (const method of [route.method].flat()) {
      const rule = AUDITED[`${method} ${route.url}`] ?? (writesAsAdmin(config) && method !== 'GET' && method !== 'HEAD' ? derivedAdminRule(method, route.url) : undefined);
      if (!rule) continue;
      const hook = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void): void => {
        try {
          if (request.method === method) {
            const event = eventOf(rule, exchange(request, reply, payload));
            if (event) audit.record(event);
          }
        } catch (err) {
          onError(err);
        }
        done(null, payload);
      };
      const existing = route.onSend;
      route.onSend = existing === undefined ? [hook] : [...(Array.isArray(existing) ? existing : [existing]), hook];
    }
  });
}
