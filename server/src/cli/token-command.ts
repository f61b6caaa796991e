// `token issue`: an access token signed with the master key (method C), for
// local debugging. Only the interface's four claims.
import { MAX_ACCESS_TTL_MS } from '../sessions/revocation.js';
import type { CommandSpec } from './command.js';
import { parseDuration } from './duration.js';
import { CommandError } from './errors.js';
import { auditCliAction, withServices } from './services.js';
import { nowSeconds } from '../core/clock.js';

const issue: CommandSpec = {
  words: ['token', 'issue'],
  summary: 'print an access token signed with the master key (debugging only; at most 24 h)',
  options: {
    user: { type: 'string', value: '<UID|e-mail>', required: true, help: 'whose token' },
    ttl: { type: 'string', value: '<duration>', help: 'lifetime such as 90s, 15m, 1h (default 1h, at most 24h)' },
  },
  async run({ config, values, out }) {
    // Revocation events are kept MAX_ACCESS_TTL_MS; a longer-lived token could outlive the ban that cut it off.
    let ttl: number;
    try {
      ttl = parseDuration((values.ttl as string | undefined) ?? '1h', MAX_ACCESS_TTL_MS / 1000);
    } catch (err) {
      throw new CommandError(`--ttl: ${(err as Error).message}`);
    }
    await withServices(config, async (s) => {
      const user = await s.accounts.findByLogin(values.user as string);
      if (!user) throw new CommandError(`no user ${values.user as string}`);
      const now = nowSeconds(s.clock);
      // A token that acts as someone is worth a row, though nothing in the database changes.
      auditCliAction(s, { action: 'admin.token_issued', targetType: 'user', targetId: user.id, detail: { ttl_seconds: ttl } });
      out(s.jwt.sign({ token_type: 'access', sub: user.id, nbf: now, exp: now + ttl }));
    });
  },
};

export const tokenCommands = [issue];
