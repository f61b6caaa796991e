// db/batches.ts on its own, with statements simulated by promises the test
// settles: what goes together, what one failure costs, what a waiting
// statement holds back.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Batcher } from '../../src/db/batches.js';

/** A promise and its resolver. */
function gate(): { open(): void; opened: Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const tick = () => new Promise((r) => setImmediate(r));

/** `promise`, or a failure naming `what` if it is not settled within 2 s. */
function within<T>(what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: still waiting after 2 s`)), 2000)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('Batcher (decision 027)', () => {
  it('calls made while others run go together, each caller gets its own output in order', async () => {
    const statements: string[][] = [];
    const first = gate();
    const batcher = new Batcher<string, string>(
      async (inputs) => {
        statements.push(inputs);
        return inputs.map((x) => x.toUpperCase());
      },
      async (input) => {
        statements.push([input]);
        if (input === 'a' || input === 'b') await first.opened;
        return input.toUpperCase();
      },
    );
    const calls = ['a', 'b', 'c', 'd', 'e'].map((x) => batcher.call(x));
    await tick();
    first.open();
    assert.deepEqual(await Promise.all(calls), ['A', 'B', 'C', 'D', 'E']);
    // a runs alone; the four that arrived meanwhile go as one statement when it returns.
    assert.deepEqual(statements, [['a'], ['b', 'c', 'd', 'e']]);
    assert.deepEqual(batcher.stats, { batches: 1, batchedCalls: 4, failedBatches: 0 });
  });

  it('a failed batch runs its calls again one by one, so only the bad call fails', async () => {
    const hold = gate();
    const batcher = new Batcher<string, string>(
      async () => {
        throw new Error('the statement failed');
      },
      async (input) => {
        if (input === 'first' || input === 'second') await hold.opened;
        if (input === 'bad') throw new Error('bad input');
        return input;
      },
    );
    const calls = ['first', 'second', 'x', 'bad', 'y'].map((x) => batcher.call(x).then((v) => `ok ${v}`, (e: Error) => `failed ${e.message}`));
    await tick();
    hold.open();
    assert.deepEqual(await Promise.all(calls), ['ok first', 'ok second', 'ok x', 'failed bad input', 'ok y']);
    assert.equal(batcher.stats.failedBatches, 1);
  });

  it('a statement that waits (a row lock) holds back only its own batch: past stallMs, later calls go through another lane', async () => {
    const lock = gate();
    const batcher = new Batcher<string, string>(
      async (inputs) => {
        if (inputs.includes('locked')) await lock.opened;
        return inputs;
      },
      async (input) => {
        if (input === 'locked') await lock.opened;
        return input;
      },
    );
    const locked = batcher.call('locked');
    let lockedDone = false;
    void locked.then(() => (lockedDone = true));
    await tick();
    // No second lane before the stall: the first call behind the locked one waits out stallMs.
    const t0 = performance.now();
    assert.equal(await within('call a', batcher.call('a')), 'a');
    assert.ok(performance.now() - t0 >= 40, `a waited ${performance.now() - t0} ms, not the 50 ms stall`);
    // While the locked call waits, three rounds of calls complete.
    for (const round of [['b'], ['c', 'd'], ['e', 'f', 'g']]) assert.deepEqual(await within(`calls ${round.join(', ')}`, Promise.all(round.map((x) => batcher.call(x)))), round);
    assert.equal(lockedDone, false, 'the locked call still waits');
    lock.open();
    assert.equal(await locked, 'locked');
  });
});
