import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HEAP_GROWING_PERCENT, TRANSFER_SCAVENGE_BYTES, enableTransferScavenges, transferred, tuneHeapForStreaming } from '../../src/ops/heap.js';

test('serve sets --heap-growing-percent unless node was started with its own value', () => {
  assert.equal(HEAP_GROWING_PERCENT, 100);
  assert.equal(tuneHeapForStreaming(['--heap-growing-percent=50']), false);
  assert.equal(tuneHeapForStreaming(['--heap_growing_percent=50']), false);
  assert.equal(tuneHeapForStreaming([]), true);
});

test('with transfer scavenges on, the dead buffers of a transfer are freed as it goes (issue 19)', () => {
  const MiB = 1024 * 1024;
  // 64 MiB in 64 KiB pieces that die at once, as Node's HTTP parser hands a request body over; the peak of ArrayBuffer memory on the way.
  const churn = (count: boolean) => {
    const base = process.memoryUsage().arrayBuffers;
    let peak = 0;
    for (let i = 0; i < 1024; i++) {
      const piece = Buffer.allocUnsafeSlow(64 * 1024);
      piece[0] = i;
      if (count) transferred(piece.length);
      peak = Math.max(peak, process.memoryUsage().arrayBuffers - base);
    }
    return peak;
  };
  // Off (as in tests and tools): few JavaScript objects per buffer, so no scavenge comes and the dead pieces pile up.
  const without = churn(true);
  assert.ok(without > 24 * MiB, `without scavenges ${without} bytes of dead pieces were waiting`);
  enableTransferScavenges();
  transferred(TRANSFER_SCAVENGE_BYTES); // frees what the first round left
  const withScavenges = churn(true);
  // V8 frees the buffers of a scavenge on a background thread, so up to two steps' worth may wait.
  assert.ok(withScavenges <= 2 * TRANSFER_SCAVENGE_BYTES + 2 * MiB, `with scavenges ${withScavenges} bytes were waiting`);
});
