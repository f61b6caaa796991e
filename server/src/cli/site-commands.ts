// `serve` and `init`: the only commands that initialize a site, and so the
// only ones that may create (and print) the first administrator.
import { buildApp } from '../app.js';
import { defaultBaseUrl } from '../config.js';
import { installShutdown } from '../ops/shutdown.js';
import { freePort } from '../ops/free-port.js';
import { enableTransferScavenges, tuneHeapForStreaming } from '../ops/heap.js';
import type { Services } from '../services.js';
import type { CommandSpec } from './command.js';
import { withServices } from './services.js';

function printInit(services: Services, out: (line: string) => void): void {
  const admin = services.init.admin;
  if (!admin) return;
  if (admin.generatedPassword) {
    out('\n================================================================');
    out(' Cirrus created the first administrator account:');
    out(`   e-mail:   ${admin.email}`);
    out(`   password: ${admin.generatedPassword}`);
    out(' This password is shown once. Sign in and change it.');
    out('================================================================\n');
  } else {
    out(`Created the first administrator account ${admin.email}.`);
  }
}

const serve: CommandSpec = {
  words: ['serve'],
  summary: 'start the service (initializes the site on first start)',
  options: {},
  async run({ config, out }) {
    tuneHeapForStreaming();
    enableTransferScavenges();
    // With CIRRUS_PORT=0 the port is chosen now, before the build: the issuer and links must name it.
    if (config.port === 0) {
      config.port = await freePort(config.host);
      if (config.baseUrlDerived) config.baseUrl = defaultBaseUrl(config.host, config.port);
    }
    const { app, services } = await buildApp(config);
    printInit(services, out);
    installShutdown(app, (code) => process.exit(code));
    await app.listen({ host: config.host, port: config.port });
    out(`Cirrus is running at ${config.baseUrl}`);
    // Keep running: the listening server holds the process open.
    await new Promise<never>(() => undefined);
  },
};

const init: CommandSpec = {
  words: ['init'],
  summary: 'create the schema, the master key, the groups and the first administrator',
  options: {},
  async run({ config, out }) {
    await withServices(
      config,
      async (s) => {
        printInit(s, out);
        out('Cirrus is initialized.');
      },
      true,
    );
  },
};

export const siteCommands = [serve, init];
