#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""compare_output.py must fail on a changed, a missing and an extra line, and must compare only
the kept lines when a filter is given (so an example's test can fail at all)."""
import os
import subprocess
import sys
import tempfile

SCRIPT = sys.argv[1]


def run(expected, actual, filt=None):
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for name, text in (('e', expected), ('a', actual), ('f', filt)):
            p = os.path.join(d, name)
            if text is not None:
                open(p, 'w').write(text)
            paths.append(p)
        cmd = [sys.executable, SCRIPT, paths[0], paths[1]]
        if filt is not None:
            cmd += ['--filter', paths[2]]
        return subprocess.run(cmd, capture_output=True, text=True).returncode


cases = [
    ('equal', run('a\nb\n', 'a\nb\n'), 0),
    ('changed line', run('a\nb\n', 'a\nc\n'), 1),
    ('missing line', run('a\nb\n', 'a\n'), 1),
    ('extra line', run('a\n', 'a\nb\n'), 1),
    ('filter keeps', run('[x] 1\n', 'table 9\n[x] 1\n', 'keep ^\\[x\\]\n'), 0),
    ('filter still compares', run('[x] 1\n', 'table 9\n[x] 2\n', 'keep ^\\[x\\]\n'), 1),
    ('bad filter', run('a\n', 'a\n', 'drop a\n'), 1),
]
bad = [(name, got, want) for name, got, want in cases if got != want]
for name, got, want in bad:
    print('%s: exit %d, expected %d' % (name, got, want))
print('compare_output: %d cases, %d wrong' % (len(cases), len(bad)))
sys.exit(1 if bad else 0)
