// The audit queue's copy on disk, so that an event recorded but not yet in
// the database survives the process being killed (issue 37: "the event is
// not lost"). Each process appends every recorded row, as a JSON line, to a
// file of its own under <data dir>/audit-spool/ before record() returns, and
// empties the file whenever its queue is written out. At start, a process
// takes over the files of processes that are gone and queues their rows
// again; a row already written (the process died between the commit and the
// emptying) is recognised and skipped, so a row is written at most once.
//
// The write is a plain append (no fsync): it survives the process dying
// (kill -9, a crash, the OOM killer), which is what the queue risks, not the
// machine losing power.
import { randomBytes } from 'node:crypto';
import { closeSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import type { PendingRow } from './repository.js';

const FILE = /^(.+)\.(\d+)\.[0-9a-f]+\.jsonl$/;

/** The spool files this process has open (several servers in one process, as the tests run them, each have one). */
const OPEN = new Set<string>();

/** The identity of a row, to tell a replayed row already in the table. */
export function rowKey(r: Pick<PendingRow, 'at' | 'actor_id' | 'action' | 'target_type' | 'target_id' | 'instance' | 'detail'>): string {
  return JSON.stringify([Number(r.at), r.actor_id, r.action, r.target_type, r.target_id, r.instance, r.detail]);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class AuditSpool {
  private fd: number;
  private readonly file: string;
  private bytes = 0;

  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Named by host and process (whether its writer lives), and a random part (a restarted container's process may get the same pid).
    this.file = path.join(dir, `${safe(hostname())}.${process.pid}.${randomBytes(4).toString('hex')}.jsonl`);
    this.fd = openSync(this.file, 'a', 0o600);
    OPEN.add(this.file);
  }

  /** Appends one row; synchronous, so the row is on its way to the disk before record() returns. */
  append(row: PendingRow): void {
    const line = `${JSON.stringify(row)}\n`;
    this.bytes += writeSync(this.fd, line);
  }

  /** The queue is written out: nothing on disk is pending any more. */
  clear(): void {
    if (this.bytes === 0) return;
    ftruncateSync(this.fd, 0);
    this.bytes = 0;
  }

  /** The queue was written in part: the file holds exactly what is still queued. */
  rewrite(rows: readonly PendingRow[]): void {
    const next = `${this.file}.next`;
    const fd = openSync(next, 'w', 0o600);
    let bytes = 0;
    for (const row of rows) bytes += writeSync(fd, `${JSON.stringify(row)}\n`);
    closeSync(fd);
    renameSync(next, this.file);
    closeSync(this.fd);
    this.fd = openSync(this.file, 'a', 0o600);
    this.bytes = bytes;
  }

  /**
   * The rows of processes that are gone (their files on this host whose pid
   * is not running, or is this process's and no longer open); `take()` removes those
   * files once their rows are safely in this process's queue and file.
   */
  leftovers(): { rows: PendingRow[]; take: () => void } {
    const host = safe(hostname());
    const files: string[] = [];
    for (const name of readdirSync(this.dir)) {
      const full = path.join(this.dir, name);
      const m = FILE.exec(name);
      if (!m || m[1] !== host) continue; // another host's: only it knows whether its process lives
      const pid = Number(m[2]);
      if (pid === process.pid ? OPEN.has(full) : alive(pid)) continue;
      files.push(full);
    }
    const rows: PendingRow[] = [];
    for (const file of files) {
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        if (!line) continue;
        try {
          rows.push(JSON.parse(line) as PendingRow);
        } catch {
          // A line cut short by the kill: the event it held was being recorded as the process died.
        }
      }
    }
    return {
      rows,
      take: () => {
        for (const f of files) unlinkSync(f);
      },
    };
  }

  close(): void {
    closeSync(this.fd);
    OPEN.delete(this.file);
    // Empty at a clean shutdown: nothing for the next start to take over.
    if (this.bytes === 0) unlinkSync(this.file);
  }
}

function safe(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_');
}
