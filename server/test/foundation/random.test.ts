// The random identifiers of server/src/crypto/random.ts: secrets are unique
// and URL-safe; time-ordered ids sort by creation time and stay unguessable.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { secretToken, timeOrderedId } from '../../src/crypto/random.js';

describe('random identifiers', () => {
  it('secret tokens are URL-safe, of the asked length, and never repeat (also across the pooled block boundary)', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const token = secretToken(16);
      assert.match(token, /^[A-Za-z0-9_-]{22}$/);
      seen.add(token);
    }
    assert.equal(seen.size, 2000);
    assert.match(secretToken(32), /^[A-Za-z0-9_-]{43}$/);
    assert.match(secretToken(1024), /^[A-Za-z0-9_-]{1366}$/);
  });

  it('time-ordered ids start with the creation time and sort by it, with 128 random bits after', () => {
    const t = Date.UTC(2026, 10, 21, 12, 0, 0);
    const early = timeOrderedId(t);
    const late = timeOrderedId(t + 1);
    assert.match(early, /^[0-9a-f]{12}[A-Za-z0-9_-]{22}$/);
    assert.equal(parseInt(early.slice(0, 12), 16), t);
    assert.ok(early < late, 'an id made later sorts after');
    assert.notEqual(timeOrderedId(t).slice(12), timeOrderedId(t).slice(12), 'ids of the same millisecond differ in the random part');
  });
});
