// Foundation benchmark (issue: foundation): unauthenticated vs authenticated
// request throughput on the same server in the same run, plus refresh and
// sign-in throughput. Target: GET /user/me with a Bearer token reaches at
// least 80 % of GET /site/ping.
import { startCirrus, signIn, load, chainLoad, api, fmt, table } from './lib.mjs';

export async function run({ database = 'sqlite', duration = 8 } = {}) {
  const server = await startCirrus({ database });
  try {
    const token = await signIn(server.url);
    const ping = { url: `${server.url}/api/v4/site/ping` };
    const me = { url: `${server.url}/api/v4/user/me`, headers: { authorization: `Bearer ${token.access_token}` } };
    // Warm up both paths, then alternate so drift on a noisy machine hits both alike.
    await load({ ...ping, duration: 2 });
    await load({ ...me, duration: 2 });
    const rounds = [];
    for (let i = 0; i < 2; i++) {
      rounds.push({ ping: await load({ ...ping, duration }), me: await load({ ...me, duration }) });
    }
    const avg = (k, f) => rounds.reduce((s, r) => s + r[k][f], 0) / rounds.length;
    const pingR = { rps: avg('ping', 'rps'), p50: avg('ping', 'p50'), p99: avg('ping', 'p99'), failed: rounds.reduce((s, r) => s + r.ping.failed, 0) };
    const meR = { rps: avg('me', 'rps'), p50: avg('me', 'p50'), p99: avg('me', 'p99'), failed: rounds.reduce((s, r) => s + r.me.failed, 0) };

    // Refresh: every connection rotates its own session family, using the
    // refresh token each answer returns (a reused token would end the family).
    const connections = 20;
    const families = [];
    for (let i = 0; i < connections; i++) families.push((await signIn(server.url)).refresh_token);
    const refresh = await chainLoad({
      workers: connections,
      duration,
      async step(i, state) {
        state.token ??= families[i];
        const res = await api(server.url, 'POST', '/api/v4/session/token/refresh', { json: { refresh_token: state.token } });
        if (res.body?.code !== 0) return false;
        state.token = res.body.data.refresh_token;
        return true;
      },
    });

    const signin = await load({
      url: `${server.url}/api/v4/session/token`,
      method: 'POST',
      connections: 4,
      duration,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench-admin@example.com', password: 'bench-password-123' }),
    });

    const ratio = meR.rps / pingR.rps;
    const rows = [
      ['GET /api/v4/site/ping (no auth)', fmt(pingR.rps), fmt(pingR.p50, 1), fmt(pingR.p99, 1), pingR.failed],
      ['GET /api/v4/user/me (Bearer)', fmt(meR.rps), fmt(meR.p50, 1), fmt(meR.p99, 1), meR.failed],
      ['POST /api/v4/session/token/refresh (rotation)', fmt(refresh.rps), fmt(refresh.p50, 1), fmt(refresh.p99, 1), refresh.failed],
      ['POST /api/v4/session/token (argon2id sign-in)', fmt(signin.rps), fmt(signin.p50, 1), fmt(signin.p99, 1), signin.failed],
    ];
    const md =
      table(`Foundation on ${database} (autocannon, 50 connections; refresh: 20 closed-loop clients each rotating its own family; sign-in 4; ${duration} s per run)`, ['route', 'req/s', 'p50 ms', 'p99 ms', 'failed'], rows) +
      `\n\nAuthenticated / unauthenticated throughput: **${fmt(ratio * 100, 1)} %** (target ≥ 80 %).\n`;
    return { md, ratio, ok: ratio >= 0.8 && meR.failed === 0 && pingR.failed === 0 && refresh.failed === 0 };
  } finally {
    await server.stop();
  }
}
