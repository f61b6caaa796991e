// The background jobs runner (core/jobs.ts; issue 13 item 3): no failure is
// silent. Each is logged with the job's name and counted, the state says
// when the job last worked, runs never overlap, and the revocation poll
// reports through it, so a database it cannot reach is visible.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Jobs, type JobLogger } from '../../src/core/jobs.js';
import { RevocationCache } from '../../src/sessions/revocation-cache.js';
import type { RevocationRepository } from '../../src/sessions/revocation-repository.js';

function recordingLogger(): JobLogger & { lines: { level: string; obj: Record<string, unknown>; msg: string }[] } {
  const lines: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
  return {
    lines,
    error: (obj, msg) => lines.push({ level: 'error', obj: obj as Record<string, unknown>, msg }),
    warn: (obj, msg) => lines.push({ level: 'warn', obj: obj as Record<string, unknown>, msg }),
  };
}

describe('Jobs', () => {
  it('logs a failure with the job name and error, counts it, and keeps the last success and failure times', async () => {
    let now = 1_000;
    const counted: string[] = [];
    const jobs = new Jobs((name) => counted.push(name), { now: () => now });
    const log = recordingLogger();
    jobs.useLogger(log);
    let fail = false;
    jobs.every('sweep', 0, async () => {
      if (fail) throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    });
    await jobs.run('sweep');
    fail = true;
    now = 2_000;
    await jobs.run('sweep');
    assert.deepEqual(counted, ['sweep']);
    assert.equal(log.lines.length, 1);
    assert.equal(log.lines[0]!.level, 'error');
    assert.equal(log.lines[0]!.obj.job, 'sweep');
    assert.equal(log.lines[0]!.obj.err_message, 'database is locked');
    assert.equal(log.lines[0]!.obj.err_code, 'SQLITE_BUSY');
    assert.deepEqual(jobs.states(), [{ name: 'sweep', runs: 2, failures: 1, failing_for: 1, last_success_at: 1_000, last_failure_at: 2_000 }]);
    fail = false;
    now = 3_000;
    await jobs.run('sweep');
    assert.equal(jobs.states()[0]!.failing_for, 0, 'a success ends the streak');
    assert.equal(log.lines.at(-1)!.level, 'warn', 'the recovery is logged too');
  });

  it('a streak of failures is logged once, then every 60th time, and counted every time', async () => {
    const counted: string[] = [];
    const jobs = new Jobs((name) => counted.push(name));
    const log = recordingLogger();
    jobs.useLogger(log);
    for (let i = 0; i < 125; i++) jobs.outcome('revocation_sync', new Error('connection refused'));
    assert.equal(counted.length, 125);
    assert.deepEqual(log.lines.map((l) => l.obj.failing_for), [1, 60, 120]);
  });

  it('a run never overlaps the previous one; stop() waits for the run in flight', async () => {
    const jobs = new Jobs();
    let active = 0;
    let most = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    jobs.every('slow', 0, async () => {
      active++;
      most = Math.max(most, active);
      await gate;
      active--;
    });
    const a = jobs.run('slow');
    const b = jobs.run('slow');
    assert.equal(a, b, 'a second run joins the first');
    let stopped = false;
    const stopping = jobs.stop().then(() => (stopped = true));
    await new Promise((r) => setImmediate(r));
    assert.equal(stopped, false, 'stop waits');
    release();
    await stopping;
    assert.equal(most, 1);
  });

  it('the interval timer runs the job and stop() clears it', async () => {
    const jobs = new Jobs();
    let runs = 0;
    jobs.every('tick', 5, async () => void runs++);
    // Until it has run twice (a loaded machine delays timers; 60 ms fixed was once too short in CI).
    for (const until = Date.now() + 5_000; runs < 2 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 5));
    await jobs.stop();
    const after = runs;
    assert.ok(after >= 2, `ran ${after} times`);
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(runs, after, 'no run after stop');
  });
});

describe('the revocation poll reports through the runner (issue 13: "a revocation poll that cannot reach the database must be visible")', () => {
  it('a failing poll is a failing job with its error logged; the next good poll clears it', async () => {
    let down = false;
    const repo = {
      activeAt: async () => [],
      since: async () => {
        if (down) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        return [];
      },
    } as unknown as RevocationRepository;
    const jobs = new Jobs();
    const log = recordingLogger();
    jobs.useLogger(log);
    const cache = new RevocationCache(repo, (err) => jobs.outcome('revocation_sync', err));
    await cache.start();
    try {
      down = true;
      const deadline = Date.now() + 5_000;
      while (!jobs.states().some((j) => j.name === 'revocation_sync' && j.failing_for > 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const state = jobs.states().find((j) => j.name === 'revocation_sync');
      assert.ok(state && state.failing_for > 0, 'the failing poll shows in the state');
      assert.match(String(log.lines[0]?.obj.err_message), /ECONNREFUSED/);
      down = false;
      const until = Date.now() + 5_000;
      while (jobs.states().find((j) => j.name === 'revocation_sync')!.failing_for > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      assert.equal(jobs.states().find((j) => j.name === 'revocation_sync')!.failing_for, 0);
    } finally {
      cache.stop();
    }
  });
});
