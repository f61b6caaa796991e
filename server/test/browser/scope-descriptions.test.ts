// The consent screen describes every scope the server knows (api-contract §5)
// in plain words; a scope added on the server without a description fails here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_SCOPES } from '../../src/oauth/scopes.js';
import { SCOPE_DESCRIPTIONS, describeScope } from '../../../web/src/oauth/scopes.js';

describe('web app: scope descriptions', () => {
  it('every scope of the server has a title and a plain description, and there are no extras', () => {
    assert.equal(ALL_SCOPES.length, 20);
    assert.deepEqual(Object.keys(SCOPE_DESCRIPTIONS).sort(), [...ALL_SCOPES].sort());
    for (const scope of ALL_SCOPES) {
      const d = describeScope(scope);
      assert.ok(d.title.length > 3 && d.detail.length > 10, scope);
      assert.notEqual(d.title, scope, `${scope} is described in words, not by its name`);
    }
  });

  it('write scopes of security, administration, payments and WebDAV are marked sensitive', () => {
    for (const scope of ['UserSecurityInfo.Write', 'Admin.Read', 'Admin.Write', 'Finance.Write', 'DavAccount.Write']) assert.equal(describeScope(scope).sensitive, true, scope);
    assert.equal(describeScope('Files.Read').sensitive, undefined);
    assert.equal(describeScope('Made.Up').sensitive, true, 'unknown scopes are flagged');
  });
});
