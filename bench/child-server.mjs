// Starting the baseline servers of the benchmarks (bench/files-node-floor.mjs,
// bench/s3-relay-floor.mjs) as processes of their own. A module apart from
// lib.mjs, because those scripts import it in the child too, and a floor
// should load nothing it does not use.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

/**
 * Starts a baseline server script (`node <script> <port> ...args`) as a
 * child process on a free loopback port; resolves once it sends 'ready'
 * over IPC. `name` is for the error when it exits first.
 */
export async function startChildServer(script, args, { nodeArgs = [], name }) {
  // A port the system says is free: a random one in 20000-40000 could be the source port of another connection (EADDRINUSE, twice in a row on a busy machine).
  const port = await new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address();
      probe.close(() => resolve(free));
    });
  });
  const child = spawn(process.execPath, [...nodeArgs, script, String(port), ...args], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`${name} exited (${code})`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}
