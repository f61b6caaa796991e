// Unit tests of oauth/redirect-uris.ts: what may be registered (RFC 6749
// §3.1.2, RFC 8252 §7, RFC 9700 §2.1), exact matching (RFC 9700 §4.1.3,
// api-contract §5) with the loopback port exception (RFC 8252 §7.3), and the
// registered query kept when parameters are added (RFC 6749 §3.1.2).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_REDIRECT_URI_LENGTH, appendQuery, redirectUriProblem, redirectUriRegistered } from '../../src/oauth/redirect-uris.js';

describe('redirectUriProblem (what may be registered)', () => {
  it('accepts https URIs, with paths, queries and ports', () => {
    for (const uri of ['https://app.example/cb', 'https://app.example', 'https://app.example:8443/a/b?x=1&y=2', 'https://xn--bcher-kva.example/cb']) {
      assert.equal(redirectUriProblem(uri), null, uri);
    }
  });

  it('RFC 8252 §7.3/§8.3: plain http only on a loopback address', () => {
    for (const uri of ['http://127.0.0.1/cb', 'http://127.0.0.1:8080/cb', 'http://[::1]:5000/', 'http://localhost:3000/cb']) {
      assert.equal(redirectUriProblem(uri), null, uri);
    }
    for (const uri of ['http://app.example/cb', 'http://10.0.0.1/cb', 'http://127.0.0.2/cb', 'http://localhost.evil.example/cb', 'http://127.0.0.1.nip.io/cb']) {
      assert.match(redirectUriProblem(uri)!, /http is only allowed for loopback/, uri);
    }
  });

  it('RFC 8252 §7.1: a private-use scheme must be a reverse domain name', () => {
    assert.equal(redirectUriProblem('com.example.app:/oauth2redirect'), null);
    assert.equal(redirectUriProblem('com.example.app://cb'), null);
    for (const uri of ['myapp:/cb', 'javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd', 'ftp://x.example/']) {
      assert.match(redirectUriProblem(uri)!, /must use https, http on a loopback address, or a private-use scheme/, uri);
    }
  });

  it('RFC 6749 §3.1.2: an absolute URI without a fragment', () => {
    assert.match(redirectUriProblem('/cb')!, /absolute URL/);
    assert.match(redirectUriProblem('app.example/cb')!, /absolute URL/);
    assert.match(redirectUriProblem('https://app.example/cb#x')!, /fragment/);
    assert.match(redirectUriProblem('https://app.example/cb#')!, /fragment/);
  });

  it('RFC 9700 §2.1: no credentials in the URI', () => {
    assert.match(redirectUriProblem('https://user:pw@app.example/cb')!, /credentials/);
    assert.match(redirectUriProblem('https://user@app.example/cb')!, /credentials/);
  });

  it('printable ASCII only, 1 to 2000 characters', () => {
    assert.match(redirectUriProblem('')!, /1 to 2000/);
    const long = 'https://app.example/' + 'a'.repeat(MAX_REDIRECT_URI_LENGTH);
    assert.match(redirectUriProblem(long)!, /1 to 2000/);
    assert.equal(redirectUriProblem(long.slice(0, MAX_REDIRECT_URI_LENGTH)), null);
    for (const uri of ['https://app.example/a b', 'https://app.example/é', 'https://bücher.example/cb', 'https://app.example/\t', 'https://app.example/cb\n']) {
      assert.match(redirectUriProblem(uri)!, /printable ASCII/, JSON.stringify(uri));
    }
  });
});

describe('redirectUriRegistered (RFC 9700 §4.1.3: exact string matching)', () => {
  const registered = ['https://app.example/cb', 'https://app.example/cb2?tenant=a', 'com.example.app:/oauth'];

  it('an exact match is accepted', () => {
    for (const uri of registered) assert.equal(redirectUriRegistered(registered, uri), true, uri);
  });

  it('anything that is not the same string is refused, even when a URL parser would call it equal', () => {
    for (const uri of [
      'https://app.example/cb/',
      'https://app.example/cb?',
      'https://app.example/cb?x=1',
      'https://app.example/cb#',
      'https://APP.example/cb',
      'HTTPS://app.example/cb',
      'https://app.example:443/cb',
      'https://app.example/CB',
      'https://app.example/./cb',
      'https://app.example/x/../cb',
      'https://app.example/%63b',
      'https://app.example/cb2?tenant=b',
      'https://app.example/cb2?tenant=a&x=1',
      'https://app.example/cb2',
      'https://app.example.evil.example/cb',
      'https://evil.example/https://app.example/cb',
      'https://app.example@evil.example/cb',
      'http://app.example/cb',
      ' https://app.example/cb',
      'com.example.app:/oauth/',
      'com.example.app://oauth',
    ]) {
      assert.equal(redirectUriRegistered(registered, uri), false, uri);
    }
  });

  it('nothing matches an empty registration list', () => {
    assert.equal(redirectUriRegistered([], 'https://app.example/cb'), false);
    assert.equal(redirectUriRegistered([], 'http://127.0.0.1:1234/cb'), false);
  });

  it('RFC 8252 §7.3: the port of a loopback IP literal may differ (any port, or none)', () => {
    const loopback = ['http://127.0.0.1/cb', 'http://[::1]:8000/native?x=1'];
    for (const uri of ['http://127.0.0.1/cb', 'http://127.0.0.1:1/cb', 'http://127.0.0.1:51234/cb', 'http://127.0.0.1:65535/cb', 'http://127.0.0.1:80/cb']) {
      assert.equal(redirectUriRegistered(loopback, uri), true, uri);
    }
    for (const uri of ['http://[::1]/native?x=1', 'http://[::1]:9/native?x=1', 'http://[::1]:8000/native?x=1']) {
      assert.equal(redirectUriRegistered(loopback, uri), true, uri);
    }
  });

  it('RFC 8252 §7.3: everything but the port must still match exactly', () => {
    const loopback = ['http://127.0.0.1/cb', 'http://[::1]:8000/native?x=1'];
    for (const uri of [
      'http://127.0.0.1:5000/cb/',
      'http://127.0.0.1:5000/cb?x',
      'http://127.0.0.1:5000/other',
      'http://127.0.0.1:5000',
      'http://127.0.0.1:5000/cb#f',
      'https://127.0.0.1:5000/cb',
      'http://[::1]:8000/native',
      'http://[::1]:8000/native?x=2',
      'http://127.0.0.1:0/cb',
      'http://127.0.0.1:65536/cb',
      'http://127.0.0.1:123456/cb',
      'http://127.0.0.1:/cb',
      'http://127.0.0.1:5000@evil.example/cb',
      'http://127.0.0.1.evil.example/cb',
      'http://127.0.0.1:5000.evil.example/cb',
      'http://[::1]:8000@evil.example/native?x=1',
    ]) {
      assert.equal(redirectUriRegistered(loopback, uri), false, uri);
    }
  });

  it('RFC 8252 §8.3: "localhost" is a name, not an IP literal: its port must match exactly', () => {
    const reg = ['http://localhost:3000/cb'];
    assert.equal(redirectUriRegistered(reg, 'http://localhost:3000/cb'), true);
    assert.equal(redirectUriRegistered(reg, 'http://localhost:3001/cb'), false);
    assert.equal(redirectUriRegistered(reg, 'http://localhost/cb'), false);
  });

  it('a loopback registration never matches the other loopback address', () => {
    assert.equal(redirectUriRegistered(['http://127.0.0.1/cb'], 'http://[::1]/cb'), false);
    assert.equal(redirectUriRegistered(['http://[::1]/cb'], 'http://127.0.0.1:80/cb'), false);
  });
});

describe('appendQuery (RFC 6749 §3.1.2, §4.1.2)', () => {
  it('adds a query to a URI without one', () => {
    assert.equal(appendQuery('https://app.example/cb', { code: 'abc', state: 'xyz' }), 'https://app.example/cb?code=abc&state=xyz');
  });

  it('keeps the registered query exactly as it is and appends after it', () => {
    assert.equal(appendQuery('https://app.example/cb?tenant=a%20b&x', { code: 'c' }), 'https://app.example/cb?tenant=a%20b&x&code=c');
    assert.equal(appendQuery('https://app.example/cb?', { code: 'c' }), 'https://app.example/cb?code=c');
    assert.equal(appendQuery('https://app.example/cb?a=1&', { code: 'c' }), 'https://app.example/cb?a=1&code=c');
  });

  it('leaves out undefined values and encodes the rest as application/x-www-form-urlencoded', () => {
    const uri = appendQuery('com.example.app:/cb', { error: 'access_denied', error_description: 'no & "thanks"', state: undefined, iss: 'https://c.example/' });
    assert.equal(uri, 'com.example.app:/cb?error=access_denied&error_description=no+%26+%22thanks%22&iss=https%3A%2F%2Fc.example%2F');
    const params = new URLSearchParams(uri.slice(uri.indexOf('?') + 1));
    assert.equal(params.get('error_description'), 'no & "thanks"');
    assert.equal(params.has('state'), false);
  });

  it('a state value comes back unchanged, whatever it contains', () => {
    const state = 'a+b c&d=e%20f/ü#?';
    const uri = appendQuery('https://app.example/cb?k=v', { code: 'x', state });
    assert.equal(new URL(uri).searchParams.get('state'), state);
    assert.equal(new URL(uri).searchParams.get('k'), 'v');
  });
});
