// Builds side by side on bench/webdav.mjs's rclone steps (issue 19's memory
// work, session 14): starts one Cirrus per build directory given (each a
// copy of the repository after `npm run build:server`, with node_modules),
// then, round by round with the order reversed every other round, runs for
// each: rclone upload and download of SMALL × 4 KiB files and of one BIG_MB
// file, and reports per build the seconds and the server's CPU-s of each
// step (medians and all rounds) and its VmHWM.
//   node bench/builds-ab.mjs /tmp/main-copy /tmp/branch-copy
// Settings: ROUNDS (4), SMALL (1000), BIG_MB (1024), PHASES=1 (print each
// step's start, epoch ms, to line up with a sampler), ARGS<i> / ENV<i>
// (extra node flags / JSON environment for the i-th build's server).
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
const dirs = process.argv.slice(2);
const ROUNDS = Number(process.env.ROUNDS || 4), SMALL = Number(process.env.SMALL || 1000), BIG_MB = Number(process.env.BIG_MB || 1024);
const work = mkdtempSync(path.join(tmpdir(), 'mem-ab-'));
const libs = await Promise.all(dirs.map((d) => import(path.join(d, 'bench/lib.mjs'))));
const lib0 = libs[0];
mkdirSync(path.join(work, 'small'));
for (let i = 0; i < SMALL; i++) writeFileSync(path.join(work, 'small', `f${String(i).padStart(5, '0')}.bin`), randomBytes(4096));
mkdirSync(path.join(work, 'big'));
await lib0.writeRandomFile(path.join(work, 'big', 'big.bin'), BIG_MB * 1024 * 1024);
const servers = [];
for (const [i, lib] of libs.entries()) {
  const s = await lib.startCirrus({ env: JSON.parse(process.env[`ENV${i}`] || '{}'), nodeArgs: (process.env[`ARGS${i}`] || '').split(' ').filter(Boolean) });
  const token = (await lib.signIn(s.url)).access_token;
  const me = (await lib.api(s.url, 'GET', '/api/v4/user/me', { token })).body.data;
  await lib.api(s.url, 'PUT', `/api/v4/admin/user/${me.id}`, { token, json: { storage_quota: 2 ** 50 } });
  const account = (await lib.api(s.url, 'PUT', '/api/v4/devices/dav', { token, json: { name: 'ab' } })).body.data;
  const n = `s${i}`.toUpperCase();
  const env = { ...process.env, RCLONE_CONFIG: path.join(work, 'none.conf'), [`RCLONE_CONFIG_${n}_TYPE`]: 'webdav', [`RCLONE_CONFIG_${n}_URL`]: `${s.url}/dav/`, [`RCLONE_CONFIG_${n}_VENDOR`]: 'other', [`RCLONE_CONFIG_${n}_USER`]: lib.ADMIN.email, [`RCLONE_CONFIG_${n}_PASS`]: execFileSync('rclone', ['obscure', account.password]).toString().trim() };
  servers.push({ name: dirs[i], s, token, env, remote: n.toLowerCase(), times: {}, lib });
}
const rclone = (args, env) => new Promise((res, rej) => { const t0 = performance.now(); execFile('rclone', args, { env }, (e, o, se) => (e ? rej(new Error(se)) : res((performance.now() - t0) / 1000))); });
const cpu = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) / 100; };
const rec = (sv, k, v) => (sv.times[k] ??= []).push(v);
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 === 0 ? servers : [...servers].reverse();
  for (const sv of order) {
    const { env, remote } = sv;
    const back = path.join(work, `back-${remote}-${r}`);
    for (const [k, args] of [['smallUp', ['copy', path.join(work, 'small'), `${remote}:small-${r}`]], ['smallDown', ['copy', `${remote}:small-${r}`, path.join(back, 'small')]], ['bigUp', ['copy', path.join(work, 'big'), `${remote}:big-${r}`]], ['bigDown', ['copy', `${remote}:big-${r}`, path.join(back, 'big')]]]) {
      if (process.env.PHASES) console.error(`phase ${Date.now()} ${sv.name} ${k}`);
      const c0 = cpu(sv.s.pid);
      rec(sv, k, await rclone(args, env));
      rec(sv, k + 'Cpu', cpu(sv.s.pid) - c0);
    }
    rmSync(back, { recursive: true, force: true });
    await rclone(['purge', `${remote}:big-${r}`], env); await rclone(['purge', `${remote}:small-${r}`], env);
    await sv.lib.api(sv.s.url, 'DELETE', '/api/v4/file/trash', { token: sv.token });
    console.error(`round ${r} ${sv.name}: ${Object.entries(sv.times).map(([k, v]) => `${k}=${v.at(-1).toFixed(2)}`).join(' ')} HWM=${(sv.lib.procMemory(sv.s.pid) / 1e6).toFixed(0)}MB RSS=${(sv.lib.procMemory(sv.s.pid, 'VmRSS') / 1e6).toFixed(0)}MB load=${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`);
  }
}
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const sv of servers) console.log(`${sv.name}: ${Object.entries(sv.times).map(([k, v]) => `${k} med ${med(v).toFixed(2)} [${v.map((x) => x.toFixed(2)).join(' ')}]`).join('\n  ')}\n  peak ${(sv.lib.procMemory(sv.s.pid) / 1e6).toFixed(0)} MB`);
for (const sv of servers) await sv.s.stop();
rmSync(work, { recursive: true, force: true });
