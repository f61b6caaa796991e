// The server's list of icon names (server/src/oauth/icon-names.ts) is the set
// the web app draws: generated from @tabler/icons-react, checked here for drift.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { iconsList } from '@tabler/icons-react';
import { ICON_NAMES } from '../../src/oauth/icon-names.js';

describe('OAuth app icon names', () => {
  it('are exactly the names @tabler/icons-react draws (else run node scripts/generate-icon-names.mjs)', () => {
    const list = (Array.isArray(iconsList) ? iconsList : (iconsList as unknown as { default: string[] }).default) as string[];
    assert.ok(list.length > 5000);
    assert.deepEqual([...ICON_NAMES].sort(), [...list].sort());
  });
});
