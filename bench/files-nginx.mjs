// nginx (the Debian package) as the download baseline of the file benchmark:
// installed on demand, run in the foreground as a child process with a
// generated config that serves one folder with sendfile, stopped at the end.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomPort } from './lib.mjs';

function nginxBinary() {
  for (const p of ['/usr/sbin/nginx', '/usr/bin/nginx']) {
    if (spawnSync(p, ['-v']).status === 0) return p;
  }
  return null;
}

/** The nginx binary, installed from Debian when missing. */
export function ensureNginx() {
  const found = nginxBinary();
  if (found) return found;
  console.error('nginx is missing: installing nginx-light from Debian …');
  // RUNLEVEL=1: the package must not start a system-wide nginx on port 80.
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive', RUNLEVEL: '1' };
  const sudo = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  for (const args of [['apt-get', 'update', '-qq'], ['apt-get', 'install', '-y', '-q', 'nginx-light']]) {
    const cmd = [...sudo, ...args];
    const r = spawnSync(cmd[0], cmd.slice(1), { env, stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) throw new Error(`${cmd.join(' ')} failed (exit ${r.status})`);
  }
  const installed = nginxBinary();
  if (!installed) throw new Error('nginx is still missing after apt-get install nginx-light');
  return installed;
}

/**
 * Starts nginx serving `root` on a loopback port; `dir` (empty, ours) holds
 * the config, pid, logs and temp paths. Resolves once it answers.
 */
export async function startNginx({ root, dir }) {
  const bin = ensureNginx();
  const port = randomPort();
  for (const d of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(path.join(dir, d), { recursive: true });
  const conf = path.join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  default_type application/octet-stream;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${root};
  }
}
`,
  );
  const child = spawn(bin, ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', conf], { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited during start (exit ${child.exitCode}); see ${dir}/error.log`);
    try {
      await fetch(`${url}/`, { method: 'HEAD' });
      break;
    } catch {
      if (i >= 100) {
        child.kill('SIGKILL');
        throw new Error('nginx did not answer within 10 s');
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    /** The one nginx process (master_process off): the one doing the work. */
    pid: child.pid,
    version: spawnSync(bin, ['-v'], { encoding: 'utf8' }).stderr.trim().replace(/^nginx version: /, ''),
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGQUIT');
      await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
    },
  };
}
