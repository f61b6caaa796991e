// Background work waits for a pause in requests (core/foreground.ts), and
// DiscoveredWork waits for it before each step.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Foreground } from '../../src/core/foreground.js';
import { DiscoveredWork } from '../../src/core/discovered-work.js';
import { systemClock } from '../../src/core/clock.js';

describe('foreground first', () => {
  it('pause() resolves at once when no request started lately', async () => {
    const fg = new Foreground({ quietMs: 50, maxWaitMs: 1_000 });
    const t0 = performance.now();
    await fg.pause();
    // Bounds from above are loose: a loaded machine runs timers late, never early.
    assert.ok(performance.now() - t0 < 500);
  });

  it('pause() waits for quietMs after the last request, and no longer than maxWaitMs while requests keep starting', async () => {
    const fg = new Foreground({ quietMs: 60, maxWaitMs: 400 });
    fg.started();
    let t0 = performance.now();
    await fg.pause();
    const quiet = performance.now() - t0;
    assert.ok(quiet >= 55 && quiet < 1_000, `waited ${quiet} ms for a 60 ms pause`);
    // A request every 20 ms: never 60 ms quiet, so the cap decides.
    const timer = setInterval(() => fg.started(), 20);
    try {
      fg.started();
      t0 = performance.now();
      await fg.pause();
      const capped = performance.now() - t0;
      assert.ok(capped >= 390 && capped < 2_000, `waited ${capped} ms against a 400 ms cap`);
    } finally {
      clearInterval(timer);
    }
  });

  it('DiscoveredWork takes no row while requests keep starting, until the cap; then one per step', async () => {
    const fg = new Foreground({ quietMs: 100, maxWaitMs: 300 });
    const claimedAt: number[] = [];
    let pending = 3;
    const rows = {
      discover: async () => 0,
      claim: async () => (pending > 0 ? pending-- : undefined),
    };
    const work = new DiscoveredWork(rows, async () => void claimedAt.push(performance.now()), systemClock, { leaseMs: 1_000, runBudgetMs: 10_000, pause: () => fg.pause() });
    const timer = setInterval(() => fg.started(), 20);
    const t0 = performance.now();
    try {
      fg.started();
      await work.run();
    } finally {
      clearInterval(timer);
    }
    assert.equal(claimedAt.length, 3);
    // One pause before discovery and one before each claim: the first row waited two caps.
    assert.ok(claimedAt[0]! - t0 >= 580, `first row after ${claimedAt[0]! - t0} ms`);
    assert.ok(claimedAt[1]! - claimedAt[0]! >= 280, 'each later row waited for the cap again');
  });
});
