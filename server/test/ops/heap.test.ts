import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HEAP_GROWING_PERCENT, tuneHeapForStreaming } from '../../src/ops/heap.js';

test('serve sets --heap-growing-percent unless node was started with its own value', () => {
  assert.equal(HEAP_GROWING_PERCENT, 100);
  assert.equal(tuneHeapForStreaming(['--heap-growing-percent=50']), false);
  assert.equal(tuneHeapForStreaming(['--heap_growing_percent=50']), false);
  assert.equal(tuneHeapForStreaming([]), true);
});
