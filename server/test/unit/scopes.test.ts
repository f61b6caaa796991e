// Unit tests of oauth/scopes.ts: the scopes of api-contract §5 and scope
// parsing (RFC 6749 §3.3). The "write implies read" rule itself is
// core/scopes.ts (core-scopes.test.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as core from '../../src/core/scopes.js';
import { ALL_SCOPES, OIDC_SCOPES, RESOURCE_SCOPES, allSatisfied, isKnownScope, missingScopes, parseScopeParam, scopeList, scopeSatisfied } from '../../src/oauth/scopes.js';

describe('the scope list (api-contract §5)', () => {
  it('has the four OIDC scopes and .Read/.Write of the eight resources: 20 scopes, no duplicates', () => {
    assert.deepEqual([...OIDC_SCOPES], ['openid', 'profile', 'email', 'offline_access']);
    assert.deepEqual([...RESOURCE_SCOPES].sort(), ['Admin', 'DavAccount', 'Files', 'Finance', 'Shares', 'UserInfo', 'UserSecurityInfo', 'Workflow']);
    assert.equal(ALL_SCOPES.length, 20);
    assert.equal(new Set(ALL_SCOPES).size, 20);
    for (const r of RESOURCE_SCOPES) {
      assert.ok(ALL_SCOPES.includes(`${r}.Read`), r);
      assert.ok(ALL_SCOPES.includes(`${r}.Write`), r);
    }
  });

  it('isKnownScope is exact and case-sensitive', () => {
    for (const s of ALL_SCOPES) assert.equal(isKnownScope(s), true, s);
    for (const s of ['files.read', 'Files.read', 'Files', 'Files.Delete', 'OPENID', 'openid ', '', 'Files.Read.Write', 'toString', '__proto__']) {
      assert.equal(isKnownScope(s), false, JSON.stringify(s));
    }
  });

  it('the oauth module re-exports the one rule of core/scopes.ts', () => {
    assert.equal(scopeSatisfied, core.scopeSatisfied);
    assert.equal(missingScopes, core.missingScopes);
  });
});

describe('parseScopeParam (RFC 6749 §3.3)', () => {
  it('splits on spaces, keeping the order of first appearance', () => {
    assert.deepEqual(parseScopeParam('openid Files.Read profile'), ['openid', 'Files.Read', 'profile']);
  });

  it('drops repeated spaces, leading and trailing spaces, and duplicates', () => {
    assert.deepEqual(parseScopeParam('  openid   openid Files.Read  '), ['openid', 'Files.Read']);
    assert.deepEqual(parseScopeParam(''), []);
    assert.deepEqual(parseScopeParam('   '), []);
  });

  it('scope-token = 1*( %x21 / %x23-5B / %x5D-7E ): a token with a quote, a backslash, a control or non-ASCII is malformed', () => {
    for (const value of ['openid "x"', 'a\\b', 'openid\tprofile', 'openid\nprofile', 'caf\u00e9', 'a\u0000', 'a\u007f', 'openid\u00a0profile']) {
      assert.equal(parseScopeParam(value), null, JSON.stringify(value));
    }
  });

  it('unknown but well-formed tokens are parsed (refusing them is the caller\'s rule)', () => {
    assert.deepEqual(parseScopeParam('x:y/z!#$%&\'()*+,-.;<=>?@[]^_`{|}~'), ['x:y/z!#$%&\'()*+,-.;<=>?@[]^_`{|}~']);
  });
});

describe('allSatisfied (a request against what an app may ask for)', () => {
  it('allSatisfied: every requested scope must be covered', () => {
    assert.equal(allSatisfied(['openid', 'Files.Write'], ['openid', 'Files.Read']), true);
    assert.equal(allSatisfied(['openid', 'Files.Read'], ['openid', 'Files.Write']), false);
    assert.equal(allSatisfied([], []), true);
  });
});

describe('scopeList (stored scope strings)', () => {
  it('splits a stored space-separated string; null, undefined and "" are no scopes', () => {
    assert.deepEqual(scopeList('openid Files.Read'), ['openid', 'Files.Read']);
    assert.deepEqual(scopeList(' a  b '), ['a', 'b']);
    assert.deepEqual(scopeList(''), []);
    assert.deepEqual(scopeList(null), []);
    assert.deepEqual(scopeList(undefined), []);
  });
});
