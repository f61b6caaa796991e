// `npm run cirrus -- app create`: registers an OAuth application from the
// command line, with the same rules as the admin API, and prints its client
// ID and secret (the secret is shown this once).
import { parseArgs } from 'node:util';
import type { Config } from '../config.js';
import { createServices } from '../services.js';

const USAGE = 'app create --name N --redirect-uri U [--redirect-uri U2 ...] --scope S [--scope S2 ...] [--public] [--icon I] [--homepage URL] [--description D] [--secret S]';

export async function appCommand(config: Config, sub: string | undefined, args: string[]): Promise<number> {
  if (sub !== 'create') {
    console.error(`cirrus: usage: ${USAGE}`);
    return 2;
  }
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        name: { type: 'string' },
        'redirect-uri': { type: 'string', multiple: true },
        scope: { type: 'string', multiple: true },
        public: { type: 'boolean' },
        icon: { type: 'string' },
        homepage: { type: 'string' },
        description: { type: 'string' },
        secret: { type: 'string' },
      },
    }));
  } catch (err) {
    console.error(`cirrus: ${(err as Error).message}\nusage: ${USAGE}`);
    return 2;
  }
  // Scopes may also be given space-separated, as in an authorization request.
  const scopes = (values.scope ?? []).flatMap((s) => s.split(/\s+/)).filter(Boolean);
  const redirectUris = values['redirect-uri'] ?? [];
  if (!values.name || redirectUris.length === 0 || scopes.length === 0) {
    console.error(`cirrus: app create needs --name, at least one --redirect-uri and at least one --scope\nusage: ${USAGE}`);
    return 2;
  }
  const services = await createServices(config);
  try {
    const { client, secret } = await services.oauth.clients.create({
      name: values.name,
      icon: values.icon ?? 'app',
      homepage_url: values.homepage ?? null,
      description: values.description,
      redirect_uris: redirectUris,
      scopes,
      secret: values.secret,
      is_public: values.public ?? false,
    });
    console.log(`Created OAuth app "${client.name}".`);
    console.log(`client_id:     ${client.id}`);
    if (secret !== undefined) console.log(`client_secret: ${secret}\nThe secret is shown this once; it is stored hashed.`);
    else console.log('Public client: no secret; it must use PKCE.');
    return 0;
  } finally {
    await services.close();
  }
}
