import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { Body, Envelope, View } from '../http/contract.js';
import { VERSION } from '../version.js';
import { GroupId } from '../http/schemas.js';
import type { SettingsService } from './settings.js';

const SettingsPatch = Body(
  {
    signup_enabled: Type.Optional(Type.Boolean()),
    access_token_ttl: Type.Optional(Type.Integer({ minimum: 60, maximum: 86400 })),
    refresh_token_ttl: Type.Optional(Type.Integer({ minimum: 3600, maximum: 400 * 86400 })),
    default_group_id: Type.Optional(GroupId),
    site_name: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[^\\u0000-\\u001f\\u007f]*$' })),
  },
);

const SettingsView = View(
  {
    signup_enabled: Type.Boolean(),
    access_token_ttl: Type.Integer({ description: 'seconds' }),
    refresh_token_ttl: Type.Integer({ description: 'seconds' }),
    default_group_id: Type.Integer(),
    site_name: Type.String(),
  },
  { title: 'SiteSettings', description: 'Site settings (never the master key)' },
);
const SiteConfig = View({ site_name: Type.String(), signup_enabled: Type.Boolean(), version: Type.String() }, { title: 'SiteConfig' });
const ADMIN_READ = { auth: 'required' as const, admin: true, scopes: ['Admin.Read'] };
const ADMIN_WRITE = { auth: 'required' as const, admin: true, scopes: ['Admin.Write'] };

export function siteRoutes(app: FastifyInstance, settings: SettingsService, accounts: { checkDefaultGroup(groupId: number): Promise<void> }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/api/v4/site/ping',
    { config: { auth: 'none' }, schema: { response: { 200: Envelope(Type.String({ description: 'server version' })) } } },
    async () => ok(VERSION),
  );

  r.get('/api/v4/site/config', { config: { auth: 'none' }, schema: { response: { 200: Envelope(SiteConfig) } } }, async () => {
    const s = await settings.current();
    return ok({ site_name: s.site_name, signup_enabled: s.signup_enabled, version: VERSION });
  });

  r.get('/api/v4/admin/settings', { config: ADMIN_READ, schema: { response: { 200: Envelope(SettingsView) } } }, async () => ok(await settings.current()));

  r.patch('/api/v4/admin/settings', { config: ADMIN_WRITE, schema: { body: SettingsPatch, response: { 200: Envelope(SettingsView) } } }, async (request) => {
    if (request.body.default_group_id !== undefined) await accounts.checkDefaultGroup(request.body.default_group_id);
    return ok(await settings.update(request.body));
  });
}
