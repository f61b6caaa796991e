#!/usr/bin/env node
// Command line: serve, init, user create, token issue.
import { parseArgs } from 'node:util';
import { Value } from 'typebox/value';
import { loadConfig, ConfigError, type Config } from './config.js';
import { buildApp } from './app.js';
import { createServices, type Services } from './services.js';
import { ADMIN_GROUP_ID } from './accounts/service.js';
import { AppError } from './http/errors.js';
import { parseDuration } from './cli/duration.js';
import { MAX_ACCESS_TTL_MS } from './sessions/revocation.js';
import { Email, Nickname, Password } from './http/schemas.js';
import { appCommand } from './cli/app-command.js';

const USAGE = `Usage: npm run cirrus -- <command>

  serve                                   start the service (initializes on first start)
  init                                    create the schema, master key, groups and first admin
  user create --email E --password P [--admin] [--nickname N]
  token issue --user <UID|email> [--ttl 1h]   print an access token signed with the master key (debugging only; at most 24 h)
  app create --name N --redirect-uri U... --scope S... [--public] [--icon I]

Configuration: CIRRUS_PORT, CIRRUS_DATA_DIR, CIRRUS_DATABASE_URL, CIRRUS_BASE_URL,
CIRRUS_ADMIN_EMAIL, CIRRUS_ADMIN_PASSWORD, CIRRUS_HOST, CIRRUS_LOG_LEVEL, CIRRUS_CONFIG (JSON file).`;

function printInit(services: Services): void {
  const admin = services.init.admin;
  if (!admin) return;
  if (admin.generatedPassword) {
    console.log('\n================================================================');
    console.log(' Cirrus created the first administrator account:');
    console.log(`   e-mail:   ${admin.email}`);
    console.log(`   password: ${admin.generatedPassword}`);
    console.log(' This password is shown once. Sign in and change it.');
    console.log('================================================================\n');
  } else {
    console.log(`Created the first administrator account ${admin.email}.`);
  }
}

async function serve(config: Config): Promise<void> {
  const { app, services } = await buildApp(config);
  printInit(services);
  const shutdown = async () => {
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
  await app.listen({ host: config.host, port: config.port });
}

async function withServices<T>(config: Config, fn: (s: Services) => Promise<T>): Promise<T> {
  const services = await createServices(config);
  try {
    return await fn(services);
  } finally {
    await services.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, sub, ...rest] = argv;
  const config = loadConfig();
  switch (command) {
    case 'serve':
      await serve(config);
      return -1;
    case 'init':
      await withServices(config, async (s) => {
        printInit(s);
        console.log('Cirrus is initialized.');
      });
      return 0;
    case 'user': {
      if (sub !== 'create') break;
      const { values } = parseArgs({ args: rest, options: { email: { type: 'string' }, password: { type: 'string' }, nickname: { type: 'string' }, admin: { type: 'boolean' } } });
      if (!values.email || !values.password) throw new UsageError('user create needs --email and --password');
      // The same rules as the API's sign-up and admin create.
      if (!Value.Check(Email, values.email)) throw new UsageError('--email must be an e-mail address of at most 254 characters');
      if (!Value.Check(Password, values.password)) throw new UsageError('the password must be 8 to 128 characters, without NUL');
      if (values.nickname !== undefined && !Value.Check(Nickname, values.nickname)) throw new UsageError('--nickname must be 1 to 64 characters, without control characters');
      await withServices(config, async (s) => {
        const user = await s.accounts.create({ email: values.email!, password: values.password!, nickname: values.nickname, groupId: values.admin ? ADMIN_GROUP_ID : undefined });
        console.log(`Created user ${user.email} with UID ${user.id}${values.admin ? ' (administrator)' : ''}.`);
      });
      return 0;
    }
    case 'token': {
      if (sub !== 'issue') break;
      const { values } = parseArgs({ args: rest, options: { user: { type: 'string' }, ttl: { type: 'string' } } });
      if (!values.user) throw new UsageError('token issue needs --user <UID or e-mail>');
      // Revocation events are kept MAX_ACCESS_TTL_MS; a longer-lived token could outlive the ban that cut it off.
      const ttl = parseDuration(values.ttl ?? '1h', MAX_ACCESS_TTL_MS / 1000);
      await withServices(config, async (s) => {
        const user = await s.accounts.findByLogin(values.user!);
        if (!user) throw new UsageError(`no user ${values.user}`);
        const now = Math.floor(Date.now() / 1000);
        // Method C: only the interface's four claims.
        console.log(s.jwt.sign({ token_type: 'access', sub: user.id, nbf: now, exp: now + ttl }));
      });
      return 0;
    }
    case 'app':
      return appCommand(config, sub, rest);
    case undefined:
    case 'help':
    case '--help':
      console.log(USAGE);
      return 0;
  }
  throw new UsageError(`unknown command: ${argv.join(' ')}`);
}

export class UsageError extends Error {}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err: unknown) => {
    if (err instanceof UsageError || err instanceof ConfigError) console.error(`cirrus: ${err.message}\n\n${USAGE}`);
    else if (err instanceof AppError) console.error(`cirrus: ${err.message}`);
    else console.error('cirrus:', err instanceof Error ? err.message : err);
    process.exit(err instanceof UsageError ? 2 : 1);
  },
);
