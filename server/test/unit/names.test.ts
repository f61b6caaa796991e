// Unit tests of files/names.ts: the name and path rules of api-contract §6
// ("Names are 1–255 bytes of UTF-8 without / or NUL and are neither . nor ..")
// and the numbered names used when a restored item must keep both.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DomainError, ErrorCode } from '../../src/core/errors.js';
import { MAX_NAME_BYTES, MAX_PATH_BYTES, childPath, joinPath, nameProblem, numberedName, parseName, parsePath } from '../../src/files/names.js';

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** Asserts that `fn` throws a parameter error (40001) whose message matches. */
function refuses(fn: () => unknown, message: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof DomainError, String(err));
    assert.equal(err.code, ErrorCode.ParamError);
    assert.equal(err.kind, 'invalid');
    assert.match(err.message, message);
    return true;
  });
}

describe('nameProblem (api-contract §6)', () => {
  it('accepts ordinary names, spaces, dots inside, dot-files and non-ASCII', () => {
    for (const name of ['a', 'report.pdf', ' leading and trailing ', '...', '.hidden', 'a..b', 'ü 日本.txt', '😀', 'con', 'a:b*c?"<>|']) {
      assert.equal(nameProblem(name), null, name);
    }
  });

  it('refuses the empty name', () => {
    assert.equal(nameProblem(''), 'must not be empty');
  });

  it('refuses "." and ".." (and only those dot spellings)', () => {
    assert.match(nameProblem('.')!, /"\." or "\.\."/);
    assert.match(nameProblem('..')!, /"\." or "\.\."/);
    assert.equal(nameProblem('...'), null);
    assert.equal(nameProblem('. '), null);
  });

  it('refuses "/" and "\\" anywhere', () => {
    for (const name of ['a/b', '/', 'a/', '/a', 'a\\b', '\\']) assert.match(nameProblem(name)!, /"\/", "\\" or control characters/, name);
  });

  it('refuses NUL, every C0 control, DEL and the C1 controls', () => {
    for (let c = 0; c <= 0x1f; c++) assert.notEqual(nameProblem(`a${String.fromCharCode(c)}b`), null, `U+${c.toString(16)}`);
    for (let c = 0x7f; c <= 0x9f; c++) assert.notEqual(nameProblem(`a${String.fromCharCode(c)}b`), null, `U+${c.toString(16)}`);
    assert.equal(nameProblem('a\u00a0b'), null); // NO-BREAK SPACE is printable
  });

  it('counts the limit in UTF-8 bytes, not characters: 255 bytes pass, 256 do not', () => {
    assert.equal(MAX_NAME_BYTES, 255);
    assert.equal(nameProblem('a'.repeat(255)), null);
    assert.match(nameProblem('a'.repeat(256))!, /at most 255 bytes/);
    // 85 three-byte characters = 255 bytes; one more ASCII byte is over.
    assert.equal(nameProblem('日'.repeat(85)), null);
    assert.notEqual(nameProblem('日'.repeat(85) + 'a'), null);
    // 63 four-byte emoji = 252 bytes (126 UTF-16 units); 64 = 256 bytes.
    assert.equal(nameProblem('😀'.repeat(63)), null);
    assert.notEqual(nameProblem('😀'.repeat(64)), null);
    // Two-byte characters: 127 = 254 bytes pass, 128 = 256 fail even though 128 < 255 characters.
    assert.equal(nameProblem('é'.repeat(127)), null);
    assert.notEqual(nameProblem('é'.repeat(128)), null);
  });

  it('refuses unpaired surrogates (not valid Unicode, cannot be UTF-8)', () => {
    assert.match(nameProblem('a\ud800b')!, /valid Unicode/);
    assert.match(nameProblem('\udc00')!, /valid Unicode/);
    assert.equal(nameProblem('\ud83d\ude00'), null); // a proper pair
  });
});

describe('parseName', () => {
  it('normalises to NFC before checking, so a macOS NFD name is the same name', () => {
    const nfd = 'Cafe\u0301.txt';
    assert.equal(parseName(nfd, 'name'), 'Café.txt');
    assert.equal(parseName(nfd, 'name'), parseName('Café.txt', 'name'));
  });

  it('applies the byte limit after NFC: 128 NFD "é" (384 bytes) are 128 NFC "é" (256 bytes), still too long', () => {
    refuses(() => parseName('e\u0301'.repeat(128), 'name'), /^name: must be at most 255 bytes/);
    assert.equal(parseName('e\u0301'.repeat(127), 'name'), 'é'.repeat(127)); // 381 bytes as sent, 254 after NFC
  });

  it('names the field in the error', () => {
    refuses(() => parseName('', 'new_name'), /^new_name: must not be empty$/);
    refuses(() => parseName('..', 'dst'), /^dst: /);
    refuses(() => parseName('a\u0000', 'name'), /^name: must not contain/);
    refuses(() => parseName('a\ud800', 'name'), /^name: must be valid Unicode$/);
  });
});

describe('parsePath', () => {
  it('"/" is the root, with no names', () => {
    assert.deepEqual(parsePath('/'), []);
  });

  it('splits an absolute path, allowing one trailing slash', () => {
    assert.deepEqual(parsePath('/a/b c/d.txt'), ['a', 'b c', 'd.txt']);
    assert.deepEqual(parsePath('/a/b/'), ['a', 'b']);
  });

  it('normalises every segment to NFC', () => {
    assert.deepEqual(parsePath('/Cafe\u0301/n\u0303'), ['Café', 'ñ']);
  });

  it('refuses relative paths', () => {
    for (const p of ['', 'a', 'a/b', './a', '../a']) refuses(() => parsePath(p), /^path: must be an absolute path/);
  });

  it('refuses empty segments, "//" included', () => {
    for (const p of ['//', '/a//b', '//a', '/a//']) refuses(() => parsePath(p), /empty segments/);
  });

  it('refuses every traversal spelling', () => {
    for (const p of ['/..', '/.', '/a/../b', '/a/./b', '/a/..', '/a/../', '/a\\..\\b']) refuses(() => parsePath(p), /^path: /);
  });

  it('refuses a control character in any segment', () => {
    refuses(() => parsePath('/ok/bad\u0000name'), /control characters/);
    refuses(() => parsePath('/ok/bad\nname'), /control characters/);
  });

  it('uses the given field name', () => {
    refuses(() => parsePath('rel', 'dst_path'), /^dst_path: /);
  });

  it('limits the whole path to 4096 bytes of UTF-8', () => {
    assert.equal(MAX_PATH_BYTES, 4096);
    const segment = 'x'.repeat(254); // "/" + 254 = 255 bytes per segment
    const ok = `/${segment}`.repeat(16) + '/' + 'y'.repeat(15); // 16 * 255 + 16 = 4096 bytes
    assert.equal(bytes(ok), 4096);
    assert.equal(parsePath(ok).length, 17);
    refuses(() => parsePath(ok + 'y'), /^path: must be at most 4096 bytes$/);
    refuses(() => parsePath('/' + '日/'.repeat(1366)), /4096 bytes/); // 1 + 1366 * 4 bytes
  });

  it('refuses an over-long single segment inside a path', () => {
    refuses(() => parsePath(`/a/${'b'.repeat(256)}`), /255 bytes/);
  });
});

describe('joinPath and childPath', () => {
  it('joinPath is the inverse of parsePath', () => {
    for (const p of ['/', '/a', '/a/b c/ü']) assert.equal(joinPath(parsePath(p)), p);
  });

  it('childPath does not double the root slash', () => {
    assert.equal(childPath('/', 'a'), '/a');
    assert.equal(childPath('/a', 'b'), '/a/b');
  });
});

describe('numberedName ("keep both")', () => {
  it('puts the number before the last extension of a file', () => {
    assert.equal(numberedName('report.pdf', 2, false), 'report (2).pdf');
    assert.equal(numberedName('archive.tar.gz', 3, false), 'archive.tar (3).gz');
    assert.equal(numberedName('README', 1, false), 'README (1)');
    assert.equal(numberedName('trailing.', 2, false), 'trailing (2).');
  });

  it('a dot-file keeps its whole name as the stem', () => {
    assert.equal(numberedName('.bashrc', 2, false), '.bashrc (2)');
    assert.equal(numberedName('.config.json', 2, false), '.config (2).json');
  });

  it('a folder keeps its whole name, dots included', () => {
    assert.equal(numberedName('v1.2', 2, true), 'v1.2 (2)');
    assert.equal(numberedName('photos', 10, true), 'photos (10)');
  });

  it('the result is always a valid name', () => {
    for (const name of ['a', 'report.pdf', '.x', 'x.', 'ü.日本', '😀.😀']) {
      for (const n of [1, 9, 1000]) assert.equal(nameProblem(numberedName(name, n, false)), null, `${name} ${n}`);
    }
  });

  it('shortens the stem to stay within 255 bytes, keeping the extension and whole characters', () => {
    const long = 'a'.repeat(251) + '.txt'; // 255 bytes
    const r = numberedName(long, 2, false);
    assert.equal(bytes(r), 255);
    assert.equal(r, 'a'.repeat(247) + ' (2).txt');

    const wide = '日'.repeat(83) + '.txt'; // 249 + 4 = 253 bytes; with " (12)" 258
    const w = numberedName(wide, 12, false); // needs 5 more bytes: one character (3 bytes) leaves 255
    assert.ok(bytes(w) <= 255, `${bytes(w)} bytes`);
    assert.equal(w, '日'.repeat(82) + ' (12).txt');
    assert.equal(nameProblem(w), null);

    const emoji = '😀'.repeat(63); // 252 bytes, a folder
    const e = numberedName(emoji, 3, true);
    assert.equal(e, '😀'.repeat(62) + ' (3)');
    assert.equal(nameProblem(e), null); // no half surrogate pair left behind
  });

  it(
    'api-contract §6: the numbered name stays within 255 bytes even when the stem is one character',
    () => {
      const name = 'a.' + 'x'.repeat(253);
      assert.equal(nameProblem(name), null);
      const r = numberedName(name, 2, false);
      assert.ok(bytes(r) <= MAX_NAME_BYTES, `${bytes(r)} bytes`);
      assert.equal(nameProblem(r), null);
    },
  );
});
