// `app create|list|show|delete`: OAuth applications from the command line,
// with the same rules as the admin API. A created secret is printed once.
import type { Client } from '../oauth/clients.js';
import { DEFAULT_GRANT_TYPES, GRANT_TYPES } from '../oauth/grant-types.js';
import type { CommandSpec } from './command.js';
import { CommandError } from './errors.js';
import { auditCliAction, optionNames, withServices } from './services.js';
import { positiveInt } from './user-commands.js';

const create: CommandSpec = {
  words: ['app', 'create'],
  summary: 'register an OAuth application; prints its client ID and secret (the secret only this once)',
  options: {
    name: { type: 'string', value: '<name>', required: true, help: 'the name users see on the consent page' },
    'redirect-uri': { type: 'string', multiple: true, value: '<URI>', help: 'an exact redirect URI (repeatable; at least one unless the app uses only the device grant)' },
    scope: { type: 'string', multiple: true, value: '<scope>', required: true, help: 'a scope the app may ask for (or several, space-separated)' },
    public: { type: 'boolean', help: 'a public client: no secret, PKCE required' },
    icon: { type: 'string', value: '<URL|icon>', help: 'an image URL or an icon name' },
    homepage: { type: 'string', value: '<URL>', help: "the app's home page" },
    description: { type: 'string', value: '<text>', help: 'a short description' },
    secret: { type: 'string', value: '<secret>', help: 'use this client secret instead of a generated one' },
    grant: { type: 'string', multiple: true, value: '<name>', help: `a grant type the app may use (repeatable; default: ${DEFAULT_GRANT_TYPES.join(', ')}): ${GRANT_TYPES.join(', ')}` },
  },
  async run({ config, values, out }) {
    // Scopes may also be given space-separated, as in an authorization request.
    const scopes = ((values.scope as string[] | undefined) ?? []).flatMap((s) => s.split(/\s+/)).filter(Boolean);
    await withServices(config, async (s) => {
      const { client, secret } = await s.oauth.clients.create({
        name: values.name as string,
        icon: (values.icon as string | undefined) ?? 'app-window',
        homepage_url: (values.homepage as string | undefined) ?? null,
        description: values.description as string | undefined,
        redirect_uris: (values['redirect-uri'] as string[] | undefined) ?? [],
        scopes,
        secret: values.secret as string | undefined,
        is_public: (values.public as boolean | undefined) ?? false,
        grant_types: values.grant as string[] | undefined,
      });
      auditCliAction(s, { action: 'admin.app_created', targetType: 'oauth_client', targetId: client.id, detail: optionNames(values) });
      out(`Created OAuth app "${client.name}".`);
      out(`client_id:     ${client.id}`);
      out(`grant types:   ${client.grantTypes.join(', ')}`);
      if (secret !== undefined) out(`client_secret: ${secret}\nThe secret is shown this once; it is stored hashed.`);
      else out('Public client: no secret; it must use PKCE.');
    });
  },
};

const list: CommandSpec = {
  words: ['app', 'list'],
  summary: 'list OAuth applications: client ID, name, kind, enabled',
  options: {
    page: { type: 'string', value: '<n>', help: 'page number, from 1 (default 1)' },
    'page-size': { type: 'string', value: '<n>', help: 'apps per page, 1 to 1000 (default 100)' },
  },
  async run({ config, values, out }) {
    const page = positiveInt(values.page, '--page', 1, 1_000_000);
    const pageSize = positiveInt(values['page-size'], '--page-size', 100, 1000);
    await withServices(config, async (s) => {
      const { clients, total } = await s.oauth.clients.list(page, pageSize);
      out(['CLIENT ID'.padEnd(36), 'KIND'.padEnd(12), 'ENABLED'.padEnd(8), 'NAME'].join(' '));
      for (const c of clients) out([c.id.padEnd(36), (c.isPublic ? 'public' : 'confidential').padEnd(12), (c.isEnabled ? 'yes' : 'no').padEnd(8), c.name].join(' '));
      out(`${clients.length} of ${total} apps (page ${page}).`);
    });
  },
};

const show: CommandSpec = {
  words: ['app', 'show'],
  summary: 'show one OAuth application (never its secret)',
  positionals: ['<client_id>'],
  options: {},
  async run({ config, positionals, out }) {
    await withServices(config, async (s) => {
      const client = await s.oauth.clients.find(clientId(positionals));
      if (!client) throw new CommandError(`no OAuth app ${positionals[0]}`);
      for (const line of describeClient(client, config.baseUrl)) out(line);
    });
  },
};

const remove: CommandSpec = {
  words: ['app', 'delete'],
  summary: 'delete an OAuth application: its grants end and every token it holds stops',
  positionals: ['<client_id>'],
  options: {},
  async run({ config, positionals, out }) {
    await withServices(config, async (s) => {
      const client = await s.oauth.clients.find(clientId(positionals));
      if (!client) throw new CommandError(`no OAuth app ${positionals[0]}`);
      await s.oauth.clients.delete(client.id);
      auditCliAction(s, { action: 'admin.app_deleted', targetType: 'oauth_client', targetId: client.id });
      out(`Deleted OAuth app "${client.name}" (${client.id}); its tokens no longer work.`);
    });
  },
};

export const appCommands = [create, list, show, remove];

function clientId(positionals: string[]): string {
  const id = positionals[0] ?? '';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new CommandError(`${JSON.stringify(id)} is not a client ID`);
  return id;
}

function describeClient(c: Client, baseUrl: string): string[] {
  return [
    `client_id:      ${c.id}`,
    `name:           ${c.name}`,
    `icon:           ${c.icon}`,
    `kind:           ${c.isPublic ? 'public (PKCE, no secret)' : 'confidential (client secret)'}`,
    `enabled:        ${c.isEnabled ? 'yes' : 'no'}`,
    `scopes:         ${c.scopes.join(' ')}`,
    ...(c.redirectUris.length === 0 ? ['redirect_uris:  none'] : c.redirectUris.map((u, i) => `${i === 0 ? 'redirect_uris: ' : '               '} ${u}`)),
    `homepage:       ${c.homepageUrl ?? '-'}`,
    `refresh TTL:    ${c.refreshTokenTtl === null ? 'site default' : `${c.refreshTokenTtl} s`}`,
    `grant types:    ${c.grantTypes.join(' ')}`,
    `created:        ${new Date(c.createdAt).toISOString()}`,
    `discovery:      ${baseUrl}/.well-known/openid-configuration`,
  ];
}
