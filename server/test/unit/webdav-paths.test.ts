// Unit tests of webdav/paths.ts: request URIs and hrefs under /dav/
// (api-contract §8; RFC 4918 §8.3 URL handling, §9.8.5/§9.9.4 another server
// is 502), with the file feature's name rules (api-contract §6).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DavError } from '../../src/webdav/errors.js';
import { MOUNT, hrefOf, namesFromUriPath, treePath, uriPathOf } from '../../src/webdav/paths.js';

function davError(fn: () => unknown, status: number, message?: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof DavError, String(err));
    assert.equal(err.status, status);
    if (message) assert.match(err.message, message);
    return true;
  });
}

describe('namesFromUriPath', () => {
  it('the mount itself, with or without a trailing slash, is the account folder', () => {
    assert.equal(MOUNT, '/dav');
    assert.deepEqual(namesFromUriPath('/dav'), []);
    assert.deepEqual(namesFromUriPath('/dav/'), []);
  });

  it('splits on "/" and percent-decodes every segment', () => {
    assert.deepEqual(namesFromUriPath('/dav/a/b%20c/d.txt'), ['a', 'b c', 'd.txt']);
    assert.deepEqual(namesFromUriPath('/dav/folder/'), ['folder']);
    assert.deepEqual(namesFromUriPath('/dav/%C3%BC%20%E6%97%A5%E6%9C%AC'), ['ü 日本']);
    assert.deepEqual(namesFromUriPath('/dav/100%25%20sure'), ['100% sure']);
    assert.deepEqual(namesFromUriPath('/dav/a%3Fb%23c'), ['a?b#c']);
  });

  it('normalises to NFC, so an NFD name from macOS finds the same file', () => {
    assert.deepEqual(namesFromUriPath('/dav/Cafe%CC%81'), ['Café']);
    assert.deepEqual(namesFromUriPath('/dav/Cafe%CC%81'), namesFromUriPath('/dav/Caf%C3%A9'));
  });

  it('empty segments are skipped', () => {
    assert.deepEqual(namesFromUriPath('/dav//a///b/'), ['a', 'b']);
  });

  it('"." and ".." are refused with 403 in every spelling: a folder-restricted account can never name a parent', () => {
    for (const p of ['/dav/..', '/dav/.', '/dav/a/../b', '/dav/%2e%2e', '/dav/%2E%2E/x', '/dav/.%2e', '/dav/a/%2e']) {
      davError(() => namesFromUriPath(p), 403, /"\." or "\.\."/);
    }
  });

  it('a decoded "/" or "\\" inside a segment is refused (400), not a second segment', () => {
    davError(() => namesFromUriPath('/dav/a%2Fb'), 400, /"\/"/);
    davError(() => namesFromUriPath('/dav/a%2F..%2Fb'), 400);
    davError(() => namesFromUriPath('/dav/a%5Cb'), 400);
  });

  it('control characters, NUL included, are refused (400)', () => {
    davError(() => namesFromUriPath('/dav/a%00b'), 400, /control characters/);
    davError(() => namesFromUriPath('/dav/a%0Ab'), 400);
  });

  it('a malformed percent-encoding, or one that is not UTF-8 (a lone byte, an encoded surrogate), is 400', () => {
    for (const p of ['/dav/%', '/dav/%zz', '/dav/a%2', '/dav/%C3', '/dav/%FF', '/dav/%ED%A0%80']) {
      davError(() => namesFromUriPath(p), 400, /percent-encoding/);
    }
  });

  it('a name over 255 bytes is 400; the whole URI is limited to 3 × 4096 bytes (414)', () => {
    davError(() => namesFromUriPath(`/dav/${'a'.repeat(256)}`), 400, /255 bytes/);
    assert.deepEqual(namesFromUriPath(`/dav/${'a'.repeat(255)}`), ['a'.repeat(255)]);
    davError(() => namesFromUriPath('/dav' + '/a'.repeat(6145)), 414);
    assert.equal(namesFromUriPath('/dav' + '/a'.repeat(6144)).length, 6144);
  });

  it('a path outside the mount is 502', () => {
    for (const p of ['/', '/davx', '/dav2/a', '/api/v4/file', '/DAV/a']) davError(() => namesFromUriPath(p), 502);
  });
});

describe('uriPathOf (Destination and If header URIs)', () => {
  it('an absolute-path reference is taken as it is, without query or fragment', () => {
    assert.equal(uriPathOf('/dav/a%20b', undefined), '/dav/a%20b');
    assert.equal(uriPathOf('/dav/a?x=1#f', 'h'), '/dav/a');
    assert.equal(uriPathOf('/dav/a#f?x', 'h'), '/dav/a');
  });

  it('an absolute URI on this host gives its path; the host compares case-insensitively; userinfo is ignored', () => {
    assert.equal(uriPathOf('http://cloud.example/dav/x', 'cloud.example'), '/dav/x');
    assert.equal(uriPathOf('https://CLOUD.example:8443/dav/x?q', 'cloud.example:8443'), '/dav/x');
    assert.equal(uriPathOf('http://cloud.example/dav/x', 'Cloud.EXAMPLE'), '/dav/x');
    assert.equal(uriPathOf('http://user:pw@cloud.example/dav/x', 'cloud.example'), '/dav/x');
    assert.equal(uriPathOf('http://cloud.example', 'cloud.example'), '/');
  });

  it('RFC 4918 §9.8.5/§9.9.4: another authority is another server: 502', () => {
    davError(() => uriPathOf('http://other.example/dav/x', 'cloud.example'), 502);
    davError(() => uriPathOf('http://cloud.example:81/dav/x', 'cloud.example'), 502);
    davError(() => uriPathOf('http://cloud.example@other.example/dav/x', 'cloud.example'), 502);
  });

  it('without a Host to compare, any authority is accepted', () => {
    assert.equal(uriPathOf('http://anything.example/dav/y', undefined), '/dav/y');
  });

  it('dot segments are kept (URL would resolve them away), so namesFromUriPath can refuse them', () => {
    assert.equal(uriPathOf('http://h/dav/a/../../etc', 'h'), '/dav/a/../../etc');
    davError(() => namesFromUriPath(uriPathOf('http://h/dav/a/../../etc', 'h')), 403);
  });

  it('anything else is a malformed URI (400)', () => {
    for (const uri of ['dav/a', '', 'a:b', 'h/dav/a', '*', 'mailto:x@h']) davError(() => uriPathOf(uri, 'h'), 400, /Malformed URI/);
  });
});

describe('treePath and hrefOf', () => {
  it('treePath puts the names below the account folder', () => {
    assert.equal(treePath('/', []), '/');
    assert.equal(treePath('/', ['a', 'b']), '/a/b');
    assert.equal(treePath('/Shared/team', ['x']), '/Shared/team/x');
    assert.equal(treePath('/Shared/team', []), '/Shared/team');
  });

  it('hrefOf percent-encodes every segment and marks folders with a trailing slash', () => {
    assert.equal(hrefOf([], true), '/dav/');
    assert.equal(hrefOf([], false), '/dav/');
    assert.equal(hrefOf(['a b', 'ü#?%.txt'], false), '/dav/a%20b/%C3%BC%23%3F%25.txt');
    assert.equal(hrefOf(['folder'], true), '/dav/folder/');
  });

  it('hrefOf and namesFromUriPath are inverse for any valid names', () => {
    const alphabet = ['a', 'Z', ' ', '%', '#', '?', '&', '+', ';', ':', '@', '=', "'", '"', '<', '>', 'é', '日', '😀', '.', '~', '!', '*', '(', ')'];
    for (let i = 0; i < 300; i++) {
      const names = Array.from({ length: 1 + (i % 4) }, () => {
        let n = '';
        const len = 1 + Math.floor(Math.random() * 12);
        for (let j = 0; j < len; j++) n += alphabet[Math.floor(Math.random() * alphabet.length)];
        return n === '.' || n === '..' ? `${n}x` : n;
      });
      for (const folder of [true, false]) {
        const href = hrefOf(names, folder);
        assert.deepEqual(namesFromUriPath(uriPathOf(href, 'h')), names, href);
        assert.deepEqual(namesFromUriPath(uriPathOf(`http://h${href}`, 'h')), names, href);
      }
    }
  });
});
