import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { Body, Envelope, Nullable, View } from '../http/contract.js';
import { VERSION } from '../version.js';
import { GroupId, NO_CONTROL } from '../http/schemas.js';
import { DomainError, ErrorCode } from '../core/errors.js';
import type { SettingsService, SiteSettings } from './settings.js';
import { checkMapTileUrl } from './map-tiles.js';

const SettingsPatch = Body(
  {
    signup_enabled: Type.Optional(Type.Boolean()),
    access_token_ttl: Type.Optional(Type.Integer({ minimum: 60, maximum: 86400 })),
    refresh_token_ttl: Type.Optional(Type.Integer({ minimum: 3600, maximum: 400 * 86400 })),
    default_group_id: Type.Optional(GroupId),
    site_name: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[^\\u0000-\\u001f\\u007f]*$' })),
    signup_email_verification: Type.Optional(Type.Boolean()),
    // Mail (api-contract §11). '' or null: use the environment's value. No control characters: nothing can add a header line.
    smtp_host: Type.Optional(Type.String({ maxLength: 255, pattern: '^[A-Za-z0-9.:\\[\\]-]*$' })),
    smtp_port: Type.Optional(Nullable('integer', { minimum: 1, maximum: 65535 })),
    smtp_security: Type.Optional(Type.Union([Type.Literal(''), Type.Literal('starttls'), Type.Literal('tls'), Type.Literal('none')])),
    smtp_user: Type.Optional(Type.String({ maxLength: 256, pattern: NO_CONTROL })),
    smtp_password: Type.Optional(Type.String({ maxLength: 256, pattern: NO_CONTROL, description: 'write-only; never returned' })),
    mail_from: Type.Optional(Type.String({ maxLength: 320, pattern: NO_CONTROL, description: 'e.g. "Cirrus <noreply@example.org>"' })),
    share_with: Type.Optional(Type.Union([Type.Literal('anyone'), Type.Literal('groups'), Type.Literal('nobody')], { description: 'whom people may share files with' })),
    password_sign_in: Type.Optional(Type.Boolean({ description: 'false: only administrators sign in with a Cirrus password (api-contract §15)' })),
    audit_retention_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 36500, description: 'days the audit log keeps its rows; 0 keeps them for ever' })),
    activity_retention_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 36500, description: 'days file and folder activity is kept (default 365); 0 keeps it for ever' })),
    map_tile_url: Type.Optional(
      Type.String({ maxLength: 500, pattern: NO_CONTROL, description: "http(s) URL of map tiles with {z}, {x} and {y}, e.g. https://tile.example.org/{z}/{x}/{y}.png; '' turns the Photos map off" }),
    ),
    map_attribution: Type.Optional(
      Type.String({ maxLength: 300, pattern: NO_CONTROL, description: "the credit the tile provider asks for (plain text, e.g. '© OpenStreetMap contributors'), shown in the map's corner; '' shows the tiles' host" }),
    ),
  },
);

const SettingsView = View(
  {
    signup_enabled: Type.Boolean(),
    access_token_ttl: Type.Integer({ description: 'seconds' }),
    refresh_token_ttl: Type.Integer({ description: 'seconds' }),
    default_group_id: Type.Integer(),
    site_name: Type.String(),
    signup_email_verification: Type.Boolean(),
    smtp_host: Type.String(),
    smtp_port: Nullable('integer'),
    smtp_security: Type.String(),
    smtp_user: Type.String(),
    smtp_password_set: Type.Boolean({ description: 'whether a password is stored (the password itself is write-only)' }),
    mail_from: Type.String(),
    share_with: Type.String({ description: "'anyone', 'groups' (only people of one's own group) or 'nobody'" }),
    password_sign_in: Type.Boolean({ description: 'false: only administrators sign in with a Cirrus password' }),
    audit_retention_days: Type.Integer({ description: 'days the audit log keeps its rows; 0 keeps them for ever' }),
    activity_retention_days: Type.Integer({ description: 'days file and folder activity is kept; 0 keeps it for ever' }),
    map_tile_url: Type.String({ description: "map tiles of the Photos page ({z}/{x}/{y}); '' = no map" }),
    map_attribution: Type.String({ description: "credit shown in the map's corner; '' = the tiles' host" }),
  },
  { title: 'SiteSettings', description: 'Site settings (never the master key, never the SMTP password)' },
);
const SiteConfig = View(
  {
    site_name: Type.String(),
    signup_enabled: Type.Boolean(),
    version: Type.String(),
    mail_enabled: Type.Boolean({ description: 'a mail transport is configured: "Forgot password?" and other mail flows are offered' }),
    password_sign_in: Type.Boolean({ description: 'false: the sign-in page offers the providers first (administrators may still use a password)' }),
    sign_in_providers: Type.Array(View({ id: Type.String(), name: Type.String(), icon: Nullable('string') }, { title: 'SignInProvider' }), {
      description: 'the enabled OpenID Connect providers: "Sign in with <name>" opens GET /api/v4/session/sso/{id}',
    }),
    directory_sign_in: Type.Boolean({
      description: 'an LDAP directory is enabled: the sign-in form takes a directory login (such as a uid) as well as an e-mail address',
    }),
    map_tile_url: Type.String({ description: "map tiles for the Photos page's map ({z}/{x}/{y}); '' = no map (and no request to another host)" }),
    map_attribution: Type.String({ description: "plain text for the map's corner: the tile provider's credit; '' = show the tiles' host" }),
  },
  { title: 'SiteConfig' },
);
const ADMIN_READ = { auth: 'required' as const, admin: true, scopes: ['Admin.Read'] };
const ADMIN_WRITE = { auth: 'required' as const, admin: true, scopes: ['Admin.Write'] };

/** An answer never holds the SMTP password: only whether one is stored. */
function settingsView(s: SiteSettings) {
  const { smtp_password, ...rest } = s;
  return { ...rest, smtp_password_set: smtp_password !== '' };
}

/** A mail_from that parses to exactly one address ("Name <a@b>" or "a@b"). */
function checkMailFrom(value: string | undefined): void {
  if (value === undefined || value === '') return;
  if (!/^(?:[^<>@]*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/.test(value.trim())) {
    throw new DomainError(ErrorCode.ParamError, 'mail_from: must be one address, such as "Cirrus <noreply@example.org>"');
  }
}

export function siteRoutes(
  app: FastifyInstance,
  settings: SettingsService,
  accounts: { checkDefaultGroup(groupId: number): Promise<void> },
  mail: { configured(): Promise<boolean> },
  signInProviders: () => Promise<{ id: string; name: string; icon: string | null }[]> = async () => [],
  directorySignIn: () => Promise<boolean> = async () => false,
): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/api/v4/site/ping',
    { config: { auth: 'none' }, schema: { response: { 200: Envelope(Type.String({ description: 'server version' })) } } },
    async () => ok(VERSION),
  );

  r.get('/api/v4/site/config', { config: { auth: 'none' }, schema: { response: { 200: Envelope(SiteConfig) } } }, async () => {
    const s = await settings.current();
    return ok({
      site_name: s.site_name,
      signup_enabled: s.signup_enabled,
      version: VERSION,
      mail_enabled: await mail.configured(),
      password_sign_in: s.password_sign_in,
      sign_in_providers: await signInProviders(),
      directory_sign_in: await directorySignIn(),
      map_tile_url: s.map_tile_url,
      map_attribution: s.map_attribution,
    });
  });

  r.get('/api/v4/admin/settings', { config: ADMIN_READ, schema: { response: { 200: Envelope(SettingsView) } } }, async () => ok(settingsView(await settings.current())));

  r.patch('/api/v4/admin/settings', { config: ADMIN_WRITE, schema: { body: SettingsPatch, response: { 200: Envelope(SettingsView) } } }, async (request) => {
    if (request.body.default_group_id !== undefined) await accounts.checkDefaultGroup(request.body.default_group_id);
    checkMailFrom(request.body.mail_from);
    checkMapTileUrl(request.body.map_tile_url);
    return ok(settingsView(await settings.update(request.body)));
  });
}
