// Migrations keep frozen copies of the rules they applied
// (server/src/db/migrations/frozen/). While a frozen copy and the live rule
// agree, the rows a migration wrote are what the application writes today. When
// this test fails, the live rule changed: add a migration that rewrites the
// affected columns with the new rule, and point this test at that migration's
// copy. Never edit the frozen copy.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as live from '../../src/files/name-rules.js';
import * as frozen016 from '../../src/db/migrations/frozen/016-name-rules.js';

const SAMPLES = ['file2', 'file10', 'File010', 'Report.PDF', 'ǅungla', 'Straße', 'Ａ１２', 'a01', 'A1', '0', '9'.repeat(120), 'Å (NFD: A\u030a)', 'İstanbul', ''];

describe('migration 016 name rules (frozen) and files/name-rules.ts', () => {
  it('fold names the same way', () => {
    for (const s of SAMPLES) assert.equal(frozen016.foldName(s), live.foldName(s), s);
  });
  it('compute the same sort keys', () => {
    for (const s of SAMPLES) assert.equal(frozen016.sortKey(s), live.sortKey(s), s);
  });
});
