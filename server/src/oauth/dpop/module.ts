// DPoP assembled: the replay cache (shared through Redis when there is one),
// the nonce policy, and the service the token endpoint, the auth guard and
// WebDAV call.
import type { Clock } from '../../core/clock.js';
import type { RedisBus } from '../../ops/redis-bus.js';
import { OAUTH_PATHS } from '../paths.js';
import { DpopNonces } from './nonce.js';
import { ReplayCache } from './replay.js';
import { DpopService } from './service.js';

export function createDpop(deps: { baseUrl: string; masterKey: string; requireNonces: boolean; redis: RedisBus | undefined; clock: Clock }): DpopService {
  const replay = new ReplayCache(deps.clock, deps.redis);
  const nonces = deps.requireNonces ? new DpopNonces(deps.masterKey, deps.clock) : null;
  return new DpopService(deps.baseUrl, { token: OAUTH_PATHS.token, par: OAUTH_PATHS.par }, replay, deps.clock, nonces);
}
