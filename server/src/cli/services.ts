// Commands other than `serve` and `init` work on an existing site: they never
// initialize one (and so never create an administrator whose generated
// password nobody would see).
import type { Config } from '../config.js';
import { createServices, type Services } from '../services.js';

export async function withServices<T>(config: Config, fn: (s: Services) => Promise<T>, initialize = false): Promise<T> {
  const services = await createServices(config, { initialize });
  try {
    return await fn(services);
  } finally {
    await services.close();
  }
}
