// Commands other than `serve` and `init` work on an existing site: they never
// initialize one (and so never create an administrator whose generated
// password nobody would see).
import { hostname, userInfo } from 'node:os';
import type { Config } from '../config.js';
import { createServices, type Services } from '../services.js';
import type { AuditEvent } from '../audit/service.js';
import { VERSION } from '../version.js';

export async function withServices<T>(config: Config, fn: (s: Services) => Promise<T>, initialize = false): Promise<T> {
  const services = await createServices(config, { initialize });
  try {
    return await fn(services);
  } finally {
    await services.close();
  }
}

/** Who runs the command: the operating-system account (the CLI has no Cirrus sign-in). */
function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? 'unknown';
  }
}

/**
 * Records an administrator action made from the command line in the audit
 * log, under the dashboard's action name (audit/capture.ts). No UID acted:
 * the row names the operating-system account and host in its user agent and
 * detail, and its address is "cli". services.close() writes the queue out.
 */
export function auditCliAction(s: Services, event: Pick<AuditEvent, 'action' | 'targetType' | 'targetId'> & { detail?: Record<string, unknown> }): void {
  const user = osUser();
  s.audit.record({
    ...event,
    actorId: null,
    ip: 'cli',
    userAgent: `cirrus-cli/${VERSION} (${user}@${hostname()})`,
    detail: { via: 'cli', os_user: user, ...event.detail },
  });
}

/** The names of the options given on the command line (never their values), as the dashboard's rows name body fields. */
export function optionNames(values: Record<string, unknown>): { options: string[] } {
  return { options: Object.keys(values).filter((k) => values[k] !== undefined).sort() };
}
