// `npm run bench -- reset-timing`: does POST /api/v4/user/reset take the same
// time for a registered address as for an unknown one (api-contract §11: no
// enumeration by timing)? A built Cirrus (`npm run build:server`) sends its
// mail to an SMTP sink in this process; requests alternate known / unknown,
// one at a time, each from its own client address (X-Forwarded-For with
// CIRRUS_TRUST_PROXY) and each address asked once, so the throttle never
// answers 429. Reports both medians and p90s and their difference.
// Settings: CIRRUS_BENCH_RESET_PAIRS (150).
import { SMTPServer } from 'smtp-server';
import { ADMIN, api, envInt, fmt, freePort, median, signIn, startCirrus, table } from './lib.mjs';

const PAIRS = envInt('CIRRUS_BENCH_RESET_PAIRS', 150);
const PASSWORD = 'violet-harbor-lantern-42';

function p90(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.9))];
}

export async function run() {
  let received = 0;
  const smtpPort = await freePort();
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        received++;
        callback();
      });
    },
  });
  await new Promise((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));
  const cirrus = await startCirrus({
    env: {
      CIRRUS_SMTP_HOST: '127.0.0.1',
      CIRRUS_SMTP_PORT: String(smtpPort),
      CIRRUS_SMTP_SECURITY: 'none',
      CIRRUS_MAIL_FROM: 'Bench <bench@example.org>',
      CIRRUS_TRUST_PROXY: 'true',
    },
  });
  try {
    const admin = (await signIn(cirrus.url, ADMIN.email, ADMIN.password)).access_token;
    for (let i = 0; i < PAIRS; i++) {
      const res = await api(cirrus.url, 'PUT', '/api/v4/admin/user', { token: admin, json: { email: `known-${i}@example.com`, password: PASSWORD } });
      if (res.body.code !== 0) throw new Error(`creating a user failed: ${JSON.stringify(res.body)}`);
    }
    const ask = async (email, i) => {
      const t0 = performance.now();
      const res = await fetch(`${cirrus.url}/api/v4/user/reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.9.${Math.floor(i / 250)}.${i % 250}` },
        body: JSON.stringify({ email }),
      });
      await res.text();
      const ms = performance.now() - t0;
      if (res.status !== 200) throw new Error(`reset answered ${res.status}`);
      return ms;
    };
    // Warm-up (JIT, the first template render) on addresses not measured.
    for (let i = 0; i < 10; i++) {
      await ask(`warm-unknown-${i}@example.com`, 60_000 + i);
    }
    const known = [];
    const unknown = [];
    for (let i = 0; i < PAIRS; i++) {
      // The order within a pair alternates, so neither side always follows the other's background work.
      if (i % 2 === 0) {
        known.push(await ask(`known-${i}@example.com`, 2 * i));
        unknown.push(await ask(`unknown-${i}@example.com`, 2 * i + 1));
      } else {
        unknown.push(await ask(`unknown-${i}@example.com`, 2 * i + 1));
        known.push(await ask(`known-${i}@example.com`, 2 * i));
      }
    }
    // Every known address got its mail (the work happened, after the answers).
    for (let i = 0; i < 300 && received < PAIRS; i++) await new Promise((r) => setTimeout(r, 100));
    const mk = median(known);
    const mu = median(unknown);
    const diff = mk - mu;
    const ok = Math.abs(diff) <= Math.max(1, 0.1 * Math.max(mk, mu)) && received >= PAIRS;
    const md =
      table(`POST /api/v4/user/reset, ${PAIRS} registered and ${PAIRS} unknown addresses, alternating, one at a time (SQLite)`, ['address', 'median ms', 'p90 ms'], [
        ['registered (mail queued after the answer)', fmt(mk, 2), fmt(p90(known), 2)],
        ['unknown (no mail)', fmt(mu, 2), fmt(p90(unknown), 2)],
      ]) + `\n\nDifference of the medians: **${fmt(diff, 2)} ms** (target: within 1 ms or 10 %); mails received: ${received} of ${PAIRS}.`;
    return { md, ok };
  } finally {
    await cirrus.stop();
    await new Promise((resolve) => smtp.close(resolve));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await run();
  console.log(r.md);
  process.exitCode = r.ok ? 0 : 1;
}
