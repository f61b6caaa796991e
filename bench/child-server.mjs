// Starting the baseline servers of the benchmarks (bench/files-node-floor.mjs,
// bench/s3-relay-floor.mjs) as processes of their own. A module apart from
// lib.mjs, because those scripts import it in the child too, and a floor
// should load nothing it does not use.
import { spawn } from 'node:child_process';

/**
 * Starts a baseline server script (`node <script> <port> ...args`) as a
 * child process on a random loopback port; resolves once it sends 'ready'
 * over IPC. `name` is for the error when it exits first.
 */
export async function startChildServer(script, args, { nodeArgs = [], name }) {
  const port = 20000 + Math.floor(Math.random() * 20000);
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
