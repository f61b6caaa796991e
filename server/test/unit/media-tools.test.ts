// media/tools.ts: the caps every external media tool runs under (issue 36).
// A tool that spins is killed with its whole process group at the time cap;
// one that allocates past the memory cap fails; one that floods stdout is
// killed at the output cap; a missing executable is a failure, not a throw.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { findTool, runTool } from '../../src/media/tools.js';

const caps = { timeoutMs: 10_000, memoryBytes: 512 * 1024 * 1024, maxOutputBytes: 1024 * 1024 };

/** Running (a zombie left for a PID 1 that does not reap is not running). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) [ZX] /.test(stat);
  } catch {
    return false;
  }
}

describe('media tools run capped', () => {
  it('kills a spinning tool and what it started at the time cap', async () => {
    const sh = findTool('sh')!;
    const t = performance.now();
    // The grandchild prints its pid and spins; sh waits for it.
    const res = await runTool(sh, ['-c', 'sh -c \'echo $$; while :; do :; done\' & wait'], { ...caps, timeoutMs: 400 });
    const took = performance.now() - t;
    assert.equal(res.ok, false);
    assert.match(res.reason ?? '', /timed out after 400 ms/);
    assert.ok(took < 3000, `took ${took} ms`);
    const grandchild = Number(res.stdout.toString().trim());
    assert.ok(grandchild > 0, 'the grandchild said its pid');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(alive(grandchild), false, 'the spinning grandchild is gone too');
  });

  it('fails a tool that allocates past the memory cap', async () => {
    const python = findTool('python3');
    const node = process.execPath;
    // 1 GiB under a 512 MiB address-space cap.
    const res = python
      ? await runTool(python, ['-c', 'b = bytearray(1 << 30); print(len(b))'], caps)
      : await runTool(node, ['-e', 'Buffer.alloc(1 << 30, 1)'], { ...caps, memoryBytes: 2 * 1024 * 1024 * 1024 });
    assert.equal(res.ok, false, res.stdout.toString());
  });

  it('kills a tool that writes more than the output cap', async () => {
    const res = await runTool(findTool('yes')!, [], { ...caps, maxOutputBytes: 64 * 1024 });
    assert.equal(res.ok, false);
    assert.match(res.reason ?? '', /output over 65536 bytes/);
    assert.ok(res.stdout.length <= 64 * 1024);
  });

  it('reports a missing tool and a failing one without throwing', async () => {
    assert.equal(findTool('no-such-tool-here'), null);
    const missing = await runTool('/nonexistent/tool', [], caps);
    assert.equal(missing.ok, false);
    const failing = await runTool(findTool('sh')!, ['-c', 'echo oops >&2; exit 3'], caps);
    assert.deepEqual([failing.ok, failing.reason, failing.stderr.trim()], [false, 'exit code 3', 'oops']);
    const fine = await runTool(findTool('sh')!, ['-c', 'printf ok'], caps);
    assert.deepEqual([fine.ok, fine.stdout.toString()], [true, 'ok']);
  });
});
