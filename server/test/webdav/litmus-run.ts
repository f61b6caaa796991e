// Runs the litmus WebDAV test suite (Debian package) against a URL and reads
// its per-test results: suite -> test index -> pass or fail.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const SUITES = ['basic', 'copymove', 'props', 'locks', 'http'] as const;

export interface LitmusResult {
  /** `${suite}/${index}.${name}` -> passed */
  tests: Map<string, boolean>;
  perSuite: Record<string, { passed: number; run: number }>;
  output: string;
}

export async function runLitmus(url: string, user: string, password: string): Promise<LitmusResult> {
  const cwd = mkdtempSync(path.join(tmpdir(), 'cirrus-litmus-'));
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn('litmus', ['-k', url, user, password], { cwd, env: { ...process.env, TESTS: SUITES.join(' ') }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('latin1')));
    child.stderr.on('data', (d: Buffer) => (out += d.toString('latin1')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
  });
  rmSync(cwd, { recursive: true, force: true });
  const tests = new Map<string, boolean>();
  const perSuite: Record<string, { passed: number; run: number }> = {};
  let suite = '';
  let pending: string | null = null;
  // A test's result follows its name on the same line, or (after a WARNING) on a continuation line of dots.
  for (const line of output.split(/[\r\n]/)) {
    const running = /^-> running `(\w+)'/.exec(line);
    if (running) {
      suite = running[1]!;
      perSuite[suite] = { passed: 0, run: 0 };
      pending = null;
      continue;
    }
    let rest: string | null = null;
    const head = /^\s*(\d+)\.\s+(\w+?)\.*(?:\s+(.*))?$/.exec(line);
    if (head && suite) {
      pending = `${suite}/${head[1]}.${head[2]}`;
      rest = head[3] ?? '';
    } else {
      const cont = /^\s+\.{3,}\s*(.*)$/.exec(line);
      if (cont) rest = cont[1] ?? '';
    }
    const result = rest !== null ? /^(pass|FAIL|SKIPPED)/.exec(rest) : null;
    if (result && pending && !tests.has(pending)) {
      tests.set(pending, result[1] === 'pass');
      if (result[1] !== 'SKIPPED') {
        perSuite[suite]!.run++;
        if (result[1] === 'pass') perSuite[suite]!.passed++;
      }
    }
  }
  return { tests, perSuite, output };
}
