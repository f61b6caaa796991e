import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../http/envelope.js';
import { VERSION } from '../version.js';
import { GroupId } from '../http/schemas.js';
import type { SettingsService } from './settings.js';

const SettingsPatch = Type.Object(
  {
    signup_enabled: Type.Optional(Type.Boolean()),
    access_token_ttl: Type.Optional(Type.Integer({ minimum: 60, maximum: 86400 })),
    refresh_token_ttl: Type.Optional(Type.Integer({ minimum: 3600, maximum: 400 * 86400 })),
    default_group_id: Type.Optional(GroupId),
    site_name: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[^\\u0000-\\u001f\\u007f]*$' })),
  },
  { additionalProperties: false },
);

export function siteRoutes(app: FastifyInstance, settings: SettingsService, accounts: { checkDefaultGroup(groupId: number): Promise<void> }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get('/api/v4/site/ping', { config: { auth: 'none' } }, async () => ok(VERSION));

  r.get('/api/v4/site/config', { config: { auth: 'none' } }, async () => {
    const s = await settings.current();
    return ok({ site_name: s.site_name, signup_enabled: s.signup_enabled, version: VERSION });
  });

  r.get('/api/v4/admin/settings', { config: { auth: 'required', admin: true, scopes: ['Admin.Read'] } }, async () => ok(await settings.current()));

  r.patch('/api/v4/admin/settings', { config: { auth: 'required', admin: true, scopes: ['Admin.Write'] }, schema: { body: SettingsPatch } }, async (request) => {
    if (request.body.default_group_id !== undefined) await accounts.checkDefaultGroup(request.body.default_group_id);
    return ok(await settings.update(request.body));
  });
}
