// External tools (ffmpeg, ffprobe, pdftoppm, heif-convert) run as child
// processes with three bounds: wall time (the whole process group is killed),
// address space (prlimit --as, or `ulimit -v` through sh when prlimit is
// missing) and output size (killed past the cap). Nothing is passed through a
// shell: the arguments are an array, and the input is a temporary copy whose
// name the server chose.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

export interface ToolCaps {
  timeoutMs: number;
  /** Address space of the child, bytes. */
  memoryBytes: number;
  /** Bytes of stdout kept; more kills the child. */
  maxOutputBytes: number;
}

export interface ToolResult {
  ok: boolean;
  stdout: Buffer;
  /** The first 2 KB of stderr (for the reason recorded; never shown to people). */
  stderr: string;
  /** Why it failed: exit code, timeout, output cap, missing tool. */
  reason?: string;
}

/** The path of an executable on PATH, or null. */
export function findTool(name: string, searchPath = process.env.PATH ?? ''): string | null {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

let prlimit: string | null | undefined;

export function runTool(executable: string, args: readonly string[], caps: ToolCaps): Promise<ToolResult> {
  prlimit ??= findTool('prlimit');
  const [cmd, argv] = prlimit
    ? [prlimit, [`--as=${caps.memoryBytes}`, '--core=0', '--', executable, ...args]]
    : ['/bin/sh', ['-c', `ulimit -v ${Math.floor(caps.memoryBytes / 1024)}; ulimit -c 0; exec "$0" "$@"`, executable, ...args]];
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' } });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    let failure: string | undefined;
    const kill = (why: string) => {
      failure ??= why;
      try {
        // The negative pid is the process group: the tool and anything it started.
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => kill(`timed out after ${caps.timeoutMs} ms`), caps.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > caps.maxOutputBytes) return kill(`output over ${caps.maxOutputBytes} bytes`);
      out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (err.length < 2048) err += chunk.toString('utf8').slice(0, 2048 - err.length);
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ ok: false, stdout: Buffer.alloc(0), stderr: err, reason: failure ?? `could not start: ${e.message}` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const ok = !failure && code === 0;
      resolve({ ok, stdout: Buffer.concat(out), stderr: err, ...(ok ? {} : { reason: failure ?? (signal ? `killed by ${signal}` : `exit code ${code}`) }) });
    });
  });
}
