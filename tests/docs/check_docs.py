#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The README stays a front door and the map of docs/ cannot rot (issue 24).

check_docs.py ROOT [--max-readme-lines N]

Checks README.md, docs/*.md and examples/**/README.md under ROOT: the README has at most N lines
(default 300), and every relative link or image, [text](path#anchor), names a file or directory
that exists, and an anchor that a heading of the target Markdown file makes (GitHub's rule:
lower case, punctuation dropped, spaces to '-', repeats numbered -1, -2...). Links in fenced code
blocks and in `code spans` are not links. A fenced block right after a line
`<!-- file: PATH -->` must hold exactly the text of PATH (relative to the page), so a program
shown in the README is the one the test suite builds and runs. Prints one line per problem, then
a summary; exit 1 on any problem.
"""
import argparse
import os
import re
import sys

LINK = re.compile(r'!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
HEADING = re.compile(r'^(#{1,6})\s+(.*?)\s*#*\s*$')
FENCE = re.compile(r'^\s*(```|~~~)')
EMBED = re.compile(r'^<!-- file: (\S+) -->\s*$')


def prose_lines(path):
    """(line number, text) of the lines outside fenced code blocks, code spans blanked."""
    fenced = False
    with open(path, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if not fenced:
                yield number, re.sub(r'`[^`]*`', lambda m: ' ' * len(m.group(0)), line)


def slug(heading):
    text = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', heading)  # a link's text stays
    text = text.strip().lower().replace('`', '')
    text = re.sub(r'[^\w\- ]', '', text)
    return text.replace(' ', '-')


def anchors(path, cache={}):
    """The anchors the headings of a Markdown file make (code spans keep their text)."""
    if path in cache:
        return cache[path]
    seen, found, fenced = {}, set(), False
    with open(path, encoding='utf-8') as f:
        for line in f:
            if FENCE.match(line):
                fenced = not fenced
                continue
            m = None if fenced else HEADING.match(line.rstrip('\n'))
            if m:
                base = slug(m.group(2))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else '%s-%d' % (base, n))
    cache[path] = found
    return found


def check_link(root, page, number, target):
    if re.match(r'^[a-z][a-z0-9+.-]*:', target, re.I):  # http:, https:, mailto: ...
        return None
    path, _, anchor = target.partition('#')
    dest = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
    where = '%s:%d: link %s' % (os.path.relpath(page, root), number, target)
    if not os.path.exists(dest):
        return '%s: no file %s' % (where, os.path.relpath(dest, root))
    if anchor:
        if not dest.endswith('.md') or os.path.isdir(dest):
            return '%s: an anchor into a file that is not Markdown' % where
        if anchor not in anchors(dest):
            return '%s: %s has no heading with the anchor #%s' % (
                where, os.path.relpath(dest, root), anchor)
    return None


def embedded_blocks(page):
    """(line, path, text) of each fenced block announced by a `<!-- file: PATH -->` line."""
    lines = open(page, encoding='utf-8').read().split('\n')
    for i, line in enumerate(lines):
        m = EMBED.match(line)
        if not m:
            continue
        if i + 1 >= len(lines) or not FENCE.match(lines[i + 1]):
            yield i + 1, m.group(1), None
            continue
        end = next((j for j in range(i + 2, len(lines)) if FENCE.match(lines[j])), len(lines))
        yield i + 1, m.group(1), '\n'.join(lines[i + 2:end]) + '\n'


def check_embedded(root, page):
    for number, path, text in embedded_blocks(page):
        where = '%s:%d: code block of %s' % (os.path.relpath(page, root), number, path)
        source = os.path.join(os.path.dirname(page), path)
        if text is None:
            yield '%s: no fenced block follows' % where
        elif not os.path.isfile(source):
            yield '%s: no such file' % where
        elif open(source, encoding='utf-8').read() != text:
            yield '%s: differs from the file (copy the file into the page)' % where


def pages(root):
    found = [os.path.join(root, 'README.md')]
    docs = os.path.join(root, 'docs')
    if os.path.isdir(docs):
        found += sorted(os.path.join(docs, n) for n in os.listdir(docs) if n.endswith('.md'))
    for base, _, names in sorted(os.walk(os.path.join(root, 'examples'))):
        found += [os.path.join(base, n) for n in sorted(names) if n == 'README.md']
    return [p for p in found if os.path.isfile(p)]


def readme_length(root, most):
    readme = os.path.join(root, 'README.md')
    if not os.path.isfile(readme):
        return ['README.md: missing']
    with open(readme, encoding='utf-8') as f:
        count = sum(1 for _ in f)
    if count > most:
        return ['README.md: %d lines, more than %d (move detail into docs/)' % (count, most)]
    return []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('root')
    ap.add_argument('--max-readme-lines', type=int, default=300)
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    problems, links = readme_length(root, args.max_readme_lines), 0
    for page in pages(root):
        for number, line in prose_lines(page):
            for m in LINK.finditer(line):
                links += 1
                problem = check_link(root, page, number, m.group(1))
                if problem:
                    problems.append(problem)
        problems.extend(check_embedded(root, page))
    for p in problems:
        print(p)
    print('docs: %d pages, %d links, %d problems' % (len(pages(root)), links, len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
