#!/usr/bin/env python3
"""The loops and large basic blocks of a kernel's SASS (cuobjdump -sass) with their opcode mix.

  scripts/tools/sass-loops.py FILE.sass                 every loop (a backward branch): its span, size, opcodes
  scripts/tools/sass-loops.py FILE.sass --blocks LO HI  basic blocks of >= 40 instructions between hex addresses

Static counts: a loop's instructions include every path through it (edge paths too). Used for issue 27's
evidence (docs/data/session23-2026-11-28/c2, c3: tiled_half2's row and column passes per task).
"""
import collections
import re
import sys


def instructions(path):
    out = []
    for line in open(path):
        m = re.match(r'\s+/\*([0-9a-f]{4,})\*/\s+(.*?);', line)
        if m:
            out.append((int(m.group(1), 16), m.group(2)))
    return out


def opcode(text):
    return re.sub(r'^@!?U?P\w+\s+', '', text).split()[0].split('.')[0]


def target(text):
    m = re.search(r'BRA\s+(?:!?U?P\w+,\s*)?0x([0-9a-f]+)', text)
    return int(m.group(1), 16) if m else None


def mix(body, n=14):
    return dict(collections.Counter(opcode(t) for _, t in body).most_common(n))


def loops(ins):
    print('instructions', len(ins))
    for a, t in ins:
        tgt = target(t)
        if tgt is not None and tgt <= a:
            body = [x for x in ins if tgt <= x[0] <= a]
            print(hex(tgt), hex(a), len(body), mix(body))


def blocks(ins, lo, hi):
    starts = {target(t) for _, t in ins} - {None}
    cur, found = [], []
    for a, t in ins:
        if not lo <= a <= hi:
            continue
        if a in starts and cur:
            found.append(cur)
            cur = []
        cur.append((a, t))
        if 'BRA' in t or 'EXIT' in t:
            found.append(cur)
            cur = []
    if cur:
        found.append(cur)
    for b in found:
        if len(b) >= 40:
            print(hex(b[0][0]), len(b), mix(b, 12))


if __name__ == '__main__':
    ins = instructions(sys.argv[1])
    if len(sys.argv) > 2 and sys.argv[2] == '--blocks':
        blocks(ins, int(sys.argv[3], 16), int(sys.argv[4], 16))
    else:
        loops(ins)
