#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compares an example's standard output with its expected output, line by line.

compare_output.py EXPECTED ACTUAL [--filter FILE]

Without a filter every line must match exactly, in order. A filter file (an example's
expected_output.filter) holds lines `keep <regex>`: then only the output lines that match one of
the regexes are compared (the rest, such as tables of the npusim tools, whose layout may change
between versions, is shown to the user but not compared). Blank lines and `#` comments are
ignored. Exit 0 when equal; else 1 with a unified diff.
"""
import argparse
import difflib
import re
import sys


def read_filter(path):
    keep = []
    for number, line in enumerate(open(path, encoding='utf-8'), 1):
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        verb, _, regex = line.partition(' ')
        if verb != 'keep' or not regex:
            sys.exit('%s:%d: expected "keep <regex>", got %r' % (path, number, line))
        keep.append(re.compile(regex))
    return keep


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('expected')
    ap.add_argument('actual')
    ap.add_argument('--filter')
    args = ap.parse_args()
    expected = open(args.expected, encoding='utf-8').read().splitlines()
    actual = open(args.actual, encoding='utf-8').read().splitlines()
    if args.filter:
        keep = read_filter(args.filter)
        actual = [line for line in actual if any(k.search(line) for k in keep)]
    if expected == actual:
        print('output matches %s (%d lines compared)' % (args.expected, len(expected)))
        return 0
    sys.stdout.writelines(difflib.unified_diff([l + '\n' for l in expected],
                                               [l + '\n' for l in actual],
                                               'expected', 'actual'))
    print('output differs from %s' % args.expected)
    return 1


if __name__ == '__main__':
    sys.exit(main())
