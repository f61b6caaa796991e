#!/usr/bin/env python3
# CPU seconds per kind of process while something runs (docs/testing.md "Time"):
# Chromium by process type, the test files' node processes, everything else by
# program name. Samples /proc once a second and rewrites OUT with the totals, so
# it can be read during the run:
#   python3 scripts/cpu-by-process.py /tmp/cpu.txt & node scripts/run-tests.mjs browser/; kill %1
# A process seen for the first time counts with all its CPU so far; one that
# starts and ends between two samples is missed (short-lived tools).
# OUT.files gets the same CPU per test file: each process counts for the test
# file it descends from (its browser, its server children, itself).
import collections, os, re, sys, time

TICK = os.sysconf('SC_CLK_TCK')


def kind(pid):
    try:
        cmd = open(f'/proc/{pid}/cmdline', 'rb').read().replace(b'\0', b' ').decode(errors='replace')
    except OSError:
        return None
    if 'chromium' in cmd or 'chrome' in cmd:
        t = re.search(r'--type=([a-z-]+)', cmd)
        return 'chromium:' + (t.group(1) if t else 'browser')
    argv = cmd.split(' ')
    if argv[0].endswith('node'):
        if any(a.endswith('.test.js') or a.endswith('.test.ts') for a in argv):
            return 'node: test file'
        return 'node: ' + ' '.join(argv[1:3])[:60]
    return argv[0].split('/')[-1] or '(no command line)'


def test_file(pid):
    """The test file a process runs, or that its nearest ancestor runs; None for neither."""
    for _ in range(12):
        try:
            argv = open(f'/proc/{pid}/cmdline', 'rb').read().decode(errors='replace').split('\0')
            ppid = open(f'/proc/{pid}/stat').read().rsplit(')', 1)[1].split()[1]
        except OSError:
            return None
        for a in argv:
            if a.endswith('.test.js') or a.endswith('.test.ts'):
                return re.sub(r'^.*?(server/test/)', r'\1', a)
        if ppid in ('0', '1'):
            return None
        pid = ppid
    return None


def busy_idle():
    v = list(map(int, open('/proc/stat').readline().split()[1:]))
    return sum(v) - v[3] - v[4], v[3] + v[4]


def main(out):
    seen = {}
    totals = collections.Counter()
    per_file = collections.Counter()
    b0, i0 = busy_idle()
    while True:
        for pid in filter(str.isdigit, os.listdir('/proc')):
            try:
                f = open(f'/proc/{pid}/stat').read().rsplit(')', 1)[1].split()
            except OSError:
                continue
            cpu, started = int(f[11]) + int(f[12]), f[19]
            key = (pid, started)
            if key not in seen:
                k = kind(pid)
                if k is None:
                    continue
                seen[key] = [k, 0, test_file(pid)]
            k, before, tf = seen[key]
            totals[k] += cpu - before
            if tf:
                per_file[tf] += cpu - before
            seen[key][1] = cpu
        b, i = busy_idle()
        with open(out, 'w') as fh:
            fh.write(f'machine: busy {(b - b0) / TICK:.0f} s, idle {(i - i0) / TICK:.0f} s (summed over cores)\n')
            for k, v in totals.most_common(30):
                fh.write(f'{v / TICK:9.1f} s  {k}\n')
        with open(out + '.files', 'w') as fh:
            for k, v in per_file.most_common():
                fh.write(f'{v / TICK:9.1f} s  {k}\n')
        time.sleep(1)


if __name__ == '__main__':
    main(sys.argv[1])
