// Unit tests of core/scopes.ts: what a scope requirement means (api-contract
// §5 "write implies read"; first-party tokens are unscoped), the one rule the
// auth guard and the OAuth feature share.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { missingScopes, scopeSatisfied } from '../../src/core/scopes.js';

const RESOURCES = ['UserInfo', 'UserSecurityInfo', 'Workflow', 'Admin', 'Files', 'Shares', 'Finance', 'DavAccount'];
const ALL = ['openid', 'profile', 'email', 'offline_access', ...RESOURCES.flatMap((r) => [`${r}.Read`, `${r}.Write`])];

describe('scopeSatisfied / missingScopes ("write implies read")', () => {
  it('a granted scope satisfies itself', () => {
    for (const s of ALL) assert.equal(scopeSatisfied([s], s), true, s);
  });

  it('X.Write satisfies X.Read, never the other way round', () => {
    for (const r of RESOURCES) {
      assert.equal(scopeSatisfied([`${r}.Write`], `${r}.Read`), true, r);
      assert.equal(scopeSatisfied([`${r}.Read`], `${r}.Write`), false, r);
    }
  });

  it('write of one resource does not cover another resource', () => {
    assert.equal(scopeSatisfied(['Files.Write'], 'Shares.Read'), false);
    assert.equal(scopeSatisfied(['UserInfo.Write'], 'UserSecurityInfo.Read'), false);
    assert.equal(scopeSatisfied(['Files.Write'], 'files.Read'), false);
  });

  it('nothing else implies anything: OIDC scopes stand alone', () => {
    assert.equal(scopeSatisfied(['openid'], 'profile'), false);
    assert.equal(scopeSatisfied(['offline_access'], 'openid'), false);
    assert.equal(scopeSatisfied([], 'Files.Read'), false);
    assert.equal(scopeSatisfied(['Admin.Write'], 'Files.Read'), false);
  });

  it('first-party tokens (no scope list, null) are unscoped: nothing is missing', () => {
    assert.deepEqual(missingScopes(null, ['Admin.Write', 'Files.Write']), []);
  });

  it('an OAuth token is missing exactly the scopes it does not cover', () => {
    assert.deepEqual(missingScopes([], ['Files.Read']), ['Files.Read']);
    assert.deepEqual(missingScopes(['Files.Write'], ['Files.Read', 'Files.Write', 'Shares.Read']), ['Shares.Read']);
    assert.deepEqual(missingScopes(['Files.Read'], []), []);
  });

});
