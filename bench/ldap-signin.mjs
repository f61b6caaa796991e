// `npm run bench -- ldap-signin`: password sign-in through an LDAP directory
// against local (Cirrus password) sign-in in the same run (issue 34: the LDAP
// round trip should be the only extra cost). A built Cirrus
// (`npm run build`) and Debian's slapd (server/test/identity/slapd.ts, built
// into dist/) on loopback; sign-ins alternate local / LDAP by uid / LDAP by
// mail, one at a time, after a warm-up (the LDAP accounts already made). The
// bare directory round trip (service bind + search + bind as the person, on a
// fresh connection, as Cirrus does it) is measured in the same rounds.
// Reports p50 and p99 of each. Settings: CIRRUS_BENCH_LDAP_ROUNDS (200).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ADMIN, ROOT, api, envInt, fmt, signIn, startCirrus, table } from './lib.mjs';

const ROUNDS = envInt('CIRRUS_BENCH_LDAP_ROUNDS', 200);
const dist = (p) => import(pathToFileURL(path.join(ROOT, 'dist/server', p)).href);

function pct(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))];
}

export async function run() {
  const { startSlapd } = await dist('test/identity/slapd.js');
  const { Directory } = await dist('src/identity/ldap/directory.js');
  const people = Array.from({ length: 4 }, (_, i) => ({ uid: `person${i}`, mail: `person${i}@example.org`, cn: `Person ${i}`, password: `directory-password-${i}` }));
  const dir = await startSlapd({ people, groups: [{ cn: 'staff', members: people.map((p) => p.uid) }] });
  const cirrus = await startCirrus();
  try {
    const admin = (await signIn(cirrus.url, ADMIN.email, ADMIN.password)).access_token;
    const local = { email: 'local-bench@example.com', password: 'violet-harbor-lantern-42' };
    if ((await api(cirrus.url, 'PUT', '/api/v4/admin/user', { token: admin, json: local })).body.code !== 0) throw new Error('creating the local user failed');
    const settings = {
      url: dir.url,
      start_tls: false,
      bind_dn: dir.rootDn,
      user_base: dir.peopleDn,
      user_filter: '(&(objectClass=inetOrgPerson)(|(uid={login})(mail={login})))',
      email_attribute: 'mail',
      name_attribute: 'cn',
      group_base: dir.groupsDn,
      group_filter: '(&(objectClass=groupOfNames)(member={dn}))',
      group_map: {},
      admin_values: [],
      create_accounts: true,
    };
    const created = await api(cirrus.url, 'PUT', '/api/v4/admin/identity-providers', { token: admin, json: { type: 'ldap', name: 'Bench directory', bind_password: dir.rootPassword, ...settings } });
    if (created.body.code !== 0) throw new Error(`adding the directory failed: ${JSON.stringify(created.body)}`);
    const directory = new Directory({ id: 'bench', name: 'bench', icon: null, enabled: true, created_at: 0, updated_at: 0, secret: dir.rootPassword, type: 'ldap', settings });

    const timed = async (email, password) => {
      const t0 = performance.now();
      const res = await fetch(`${cirrus.url}/api/v4/session/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
      const body = await res.json();
      const ms = performance.now() - t0;
      if (body.code !== 0) throw new Error(`sign-in of ${email} answered ${res.status} ${JSON.stringify(body)}`);
      return ms;
    };
    const bare = async (p) => {
      const t0 = performance.now();
      if (!(await directory.authenticate(p.uid, p.password))) throw new Error('the directory refused');
      return performance.now() - t0;
    };
    // Warm-up: the JIT, and the LDAP accounts made by their first sign-in.
    for (let i = 0; i < 10; i++) {
      await timed(local.email, local.password);
      for (const p of people) await timed(p.uid, p.password);
    }
    const series = { local: [], uid: [], mail: [], bare: [] };
    for (let i = 0; i < ROUNDS; i++) {
      const p = people[i % people.length];
      const steps = [
        async () => series.local.push(await timed(local.email, local.password)),
        async () => series.uid.push(await timed(p.uid, p.password)),
        async () => series.mail.push(await timed(p.mail, p.password)),
        async () => series.bare.push(await bare(p)),
      ];
      // The order rotates, so no kind always follows another's background work.
      for (let k = 0; k < steps.length; k++) await steps[(i + k) % steps.length]();
    }
    const row = (name, xs) => [name, fmt(pct(xs, 0.5), 2), fmt(pct(xs, 0.99), 2), fmt(pct(xs, 0.5) / pct(series.local, 0.5), 2)];
    const md = table(`LDAP sign-in against local sign-in (${ROUNDS} rounds, one at a time, ms)`, ['sign-in', 'p50', 'p99', 'p50 ÷ local'], [
      row('local (Cirrus password, argon2id)', series.local),
      row('LDAP by uid', series.uid),
      row('LDAP by mail (a Cirrus password check of the address first)', series.mail),
      row('bare directory round trip (ldapts: connect, service bind, search, bind, group search)', series.bare),
    ]);
    const extraMail = pct(series.mail, 0.5) - pct(series.local, 0.5);
    const extraUid = pct(series.uid, 0.5) - pct(series.bare, 0.5);
    const reading = `\nLDAP by mail − local, p50: ${fmt(extraMail, 2)} ms; LDAP by uid − bare round trip, p50: ${fmt(extraUid, 2)} ms (the account lookup, group and token work); bare round trip p50 ${fmt(pct(series.bare, 0.5), 2)} ms.`;
    return { ok: true, md: md + reading };
  } finally {
    await cirrus.stop();
    await dir.close();
  }
}
