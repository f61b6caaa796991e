// Debian's clamd, started by a test with an offline signature database made
// in a temp directory: one `.hdb` line (md5:size:name) that matches the EICAR
// test file. No freshclam, no network. It can be stopped and started again on
// the same socket (an outage).
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const CLAMD_BIN = '/usr/sbin/clamd';

/** The EICAR anti-virus test file (68 bytes): harmless, detected by every scanner as a test. */
export const EICAR = Buffer.from('X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*', 'latin1');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class Clamd {
  private child: ChildProcess | null = null;
  private log = '';

  private constructor(readonly dir: string) {}

  get socket(): string {
    return path.join(this.dir, 'clamd.sock');
  }

  /** `streamMax`: clamd's StreamMaxLength (a scan past it is refused as too large). */
  static async start(streamMax = '1M'): Promise<Clamd> {
    const dir = await mkdtemp(path.join(tmpdir(), 'cirrus-clamd-'));
    const md5 = createHash('md5').update(EICAR).digest('hex');
    await writeFile(path.join(dir, 'test.hdb'), `${md5}:${EICAR.length}:Eicar-Test-Signature\n`);
    await writeFile(
      path.join(dir, 'clamd.conf'),
      [`LocalSocket ${path.join(dir, 'clamd.sock')}`, `DatabaseDirectory ${dir}`, 'Foreground yes', `TemporaryDirectory ${dir}`, `StreamMaxLength ${streamMax}`, ''].join('\n'),
    );
    const clamd = new Clamd(dir);
    await clamd.resume();
    return clamd;
  }

  async resume(): Promise<void> {
    if (this.child) return;
    const child = spawn(CLAMD_BIN, ['-c', path.join(this.dir, 'clamd.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (c: Buffer) => (this.log += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (this.log += c.toString()));
    this.child = child;
    for (let i = 0; i < 600; i++) {
      if (existsSync(this.socket)) return;
      if (child.exitCode !== null) break;
      await sleep(100);
    }
    throw new Error(`clamd did not open its socket:\n${this.log}`);
  }

  /** Stops clamd and waits for it to exit (its socket is removed). */
  async pause(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(this.socket, { force: true });
  }

  async stop(): Promise<void> {
    await this.pause();
    await rm(this.dir, { recursive: true, force: true });
  }
}
