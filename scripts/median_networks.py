#!/usr/bin/env python3
"""Generates the median kernels' min/max networks: kernels/median/median_blocks.clh (the `forgetful` rungs) and
kernels/median/median_sorted_columns.clh (the 5x5 network for sorted columns, used by the sorted_columns rung and by the
CPU fast path in core/families/median/Median.cpp).

A work-item computes BW outputs across x 2 rows down per step (and slides down by 2 rows). The work is
shared at every level where neighbouring outputs see the same inputs:

  vertical    the 2 output rows y, y+1 share the window rows y-1 .. y+R-1+1; those rows are sorted once per
              column (5x5: the sorted pair of rows y-1, y carried over from the step above, merged with the
              new pair y+1, y+2), then each output row merges in its own extra row -> one sorted column of
              N values per column and output row.
  horizontal  the outputs x, x+1 share N-1 columns: their merged "core" is only computed for the ranks that
              can still be the median once the one missing column comes in (forgetful selection: the
              values that are certainly below or above the median are dropped, and only their count is
              kept), and the 5x5 cores are built from merged column pairs that are shared by two cores.
  final       the median of (core ranks, sorted extra column) is one rank of two sorted lists:
              min over i of max(A_i, B_{k-i}).

Every network is a straight-line program of min and max (no branches, exact), checked here with the
0-1 principle (every 0-1 input of each output's window, bit-sliced) and with random small-alphabet
inputs.

The sorted-columns network is kernels/median/median.cl's 113-step FWB_MEDIAN25_NETWORK (read from that file)
pruned for inputs whose columns are already sorted: front to back, each step is dropped, else reduced to
its min or its max half, whenever the network still gives the median of every column-sorted 0-1 input
(all 6^5 of them: by the 0-1 principle that proves it for all inputs); then the steps that cannot reach
the middle output go. 76 steps.

Usage: scripts/median_networks.py --write   checks every network, rewrites both files in kernels/median/ and
                                            records the proof (median_networks.proved)
       scripts/median_networks.py --check   checks that the committed files are what this script writes (a
                                            ctest test: median_networks), and every network: the exhaustive
                                            0-1 checks of the 5x5 ones (about a minute of one core) only when
                                            this script or those files differ from what was last proved
       scripts/median_networks.py --check --full   every check, whatever was proved
       scripts/median_networks.py           prints median_blocks.clh
"""
import hashlib
import itertools
import os
import random
import re
import sys

KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, 'kernels', 'median')
# SHA-256 of this script and the generated files the last time every check passed on them (--write, or --check
# with the checks run): a network can change only through one of them, so an unchanged pair needs no new proof.
PROVED = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'median_networks.proved')


def proof_key(files):
    h = hashlib.sha256(open(os.path.abspath(__file__), 'rb').read())
    for name in sorted(files):
        h.update(name.encode() + b'\0' + files[name].encode())
    return h.hexdigest()


def check_all(exhaustive):
    check_sorted_columns(sorted_columns_network())
    print('checked the sorted-columns network', file=sys.stderr)
    for N, BW in ((3, 2), (3, 4), (3, 8), (3, 16), (5, 2), (5, 4), (5, 8), (5, 16)):
        if N == 5 and not exhaustive:
            print('N=%d BW=%d: proved before (%s), not checked again' % (N, BW, os.path.basename(PROVED)),
                  file=sys.stderr)
            continue
        check(N, BW)
        print('checked N=%d BW=%d' % (N, BW), file=sys.stderr)

NEG, POS = -1, -2  # constants: -inf, +inf
PAETH3 = True  # 3x3: Paeth's formula on the sorted columns (15 min/max per output) instead of a core merge (16.6)


class Net:
    def __init__(self):
        self.nodes = []  # (op, a, b) or ('in', name, None)
        self.cse = {}

    def inp(self, name):
        self.nodes.append(('in', name, None))
        return len(self.nodes) - 1

    def _op(self, op, a, b):
        if a == b:
            return a
        # min: -inf absorbs, +inf is the identity; max the other way round
        absorbing, identity = (NEG, POS) if op == 'min' else (POS, NEG)
        if a == absorbing or b == absorbing:
            return absorbing
        if a == identity:
            return b
        if b == identity:
            return a
        key = (op, min(a, b), max(a, b))
        if key not in self.cse:
            self.nodes.append(key)
            self.cse[key] = len(self.nodes) - 1
        return self.cse[key]

    def mn(self, a, b):
        return self._op('min', a, b)

    def mx(self, a, b):
        return self._op('max', a, b)

    # ---- sorted lists -------------------------------------------------------------------------------
    def merge(self, A, B):
        """Batcher's odd-even merge of two sorted lists (any lengths)."""
        A, B = list(A), list(B)
        if not A:
            return B
        if not B:
            return A
        if len(A) == 1 and len(B) == 1:
            return [self.mn(A[0], B[0]), self.mx(A[0], B[0])]
        E = self.merge(A[0::2], B[0::2])
        O = self.merge(A[1::2], B[1::2])
        z = []
        for i in range(max(len(E), len(O))):
            if i < len(E):
                z.append(E[i])
            if i < len(O):
                z.append(O[i])
        # z = E0 O0 E1 O1 ...: exchange (O_i, E_{i+1}) = (z[2i+1], z[2i+2])
        for i in range(1, len(z) - 1, 2):
            a, b = z[i], z[i + 1]
            z[i], z[i + 1] = self.mn(a, b), self.mx(a, b)
        return z

    def select(self, A, B, r, s):
        """Ranks r..s (1-based, inclusive) of the union of sorted A and B, sorted. Values certainly
        below rank r or above rank s are dropped before merging (forgetful)."""
        la, lb = len(A), len(B)
        a0 = max(1, r - lb) - 1
        b0 = max(1, r - la) - 1
        A2 = A[a0:min(la, s)]
        B2 = B[b0:min(lb, s)]
        d = a0 + b0
        m = self.merge(A2, B2)
        return m[r - 1 - d:s - d]

    def select_one(self, A, B, k):
        """k-th smallest (1-based) of sorted A and B: min over i of max(A_i, B_{k-i})."""
        terms = []
        for i in range(0, len(A) + 1):
            j = k - i
            if j < 0 or j > len(B):
                continue
            a = A[i - 1] if i > 0 else NEG
            b = B[j - 1] if j > 0 else NEG
            terms.append(self.mx(a, b))
        out = terms[0]
        for t in terms[1:]:
            out = self.mn(out, t)
        return out

    def live(self, outputs):
        seen = set()
        stack = [o for o in outputs if o >= 0]
        while stack:
            n = stack.pop()
            if n in seen:
                continue
            seen.add(n)
            op, a, b = self.nodes[n]
            if op != 'in':
                for c in (a, b):
                    if c >= 0:
                        stack.append(c)
        return seen

    def count(self, outputs):
        return sum(1 for n in self.live(outputs) if self.nodes[n][0] != 'in')


def sort2(net, a, b):
    return [net.mn(a, b), net.mx(a, b)]


def build(N, BW):
    """One step of a work-item: BW outputs across, rows y and y+1. Inputs: raw rows r0 .. r{N} (rows
    y-R .. y+R+1, columns x0-R .. x0+BW+R-1) and, for 5x5, the carried sorted pair (rows y-1, y) as
    pl/ph. Returns (net, inputs dict, outputs [row][x], carried-out list)."""
    R = N // 2
    net = Net()
    C = BW + 2 * R
    raw = {}
    for r in range(N + 1):
        for c in range(C):
            raw[(r, c)] = net.inp('r%d[%d]' % (r, c))
    cols = [[None] * C for _ in range(2)]
    carried_in, carried_out = [], []
    for c in range(C):
        if N == 3:
            # rows y-1, y, y+1, y+2: the shared pair (y, y+1) sorted once, then each row's extra row
            P = sort2(net, raw[(1, c)], raw[(2, c)])
            cols[0][c] = net.merge([raw[(0, c)]], P)
            cols[1][c] = net.merge(P, [raw[(3, c)]])
        else:
            # rows y-2 .. y+3: pair (y-1, y) carried sorted, pair (y+1, y+2) sorted here (carried on)
            pl = net.inp('pl[%d]' % c)
            ph = net.inp('ph[%d]' % c)
            carried_in.append((pl, ph))
            P2 = sort2(net, raw[(3, c)], raw[(4, c)])
            carried_out.append(P2)
            S = net.merge([pl, ph], P2)
            cols[0][c] = net.merge([raw[(0, c)]], S)
            cols[1][c] = net.merge(S, [raw[(5, c)]])
    M = (N * N + 1) // 2
    outs = [[None] * BW for _ in range(2)]
    for row in range(2):
        col = cols[row]
        pairs = {}

        def pair(c):
            if c not in pairs:
                pairs[c] = net.merge(col[c], col[c + 1])
            return pairs[c]

        for x in range(0, BW, 2):
            # output x uses columns x .. x+N-1 (in c units), output x+1 columns x+1 .. x+N
            if N == 3 and PAETH3:
                # Paeth's median of (largest low, median of middles, smallest high), the pair's shared
                # columns x+1, x+2 reduced once: max of their lows, min of their highs, their middles sorted
                lo = net.mx(col[x + 1][0], col[x + 2][0])
                hi = net.mn(col[x + 1][2], col[x + 2][2])
                ms = sort2(net, col[x + 1][1], col[x + 2][1])
                for o, e in ((x, x), (x + 1, x + 3)):
                    a = net.mx(lo, col[e][0])
                    c = net.mn(hi, col[e][2])
                    b = net.mx(ms[0], net.mn(ms[1], col[e][1]))
                    outs[row][o] = net.mx(net.mn(a, b), net.mn(net.mx(a, b), c))
                continue
            if N == 3:
                core = net.select(col[x + 1], col[x + 2], M - N, M)
            else:
                core = net.select(pair(x + 1), pair(x + 3), M - N, M)
            k = M - (M - N - 1)
            outs[row][x] = net.select_one(core, col[x], k)
            outs[row][x + 1] = net.select_one(core, col[x + N], k)
    return net, raw, carried_in, carried_out, outs


def evaluate(net, values, ops):
    """values: dict node -> value (inputs); ops: (min, max) functions; returns list of node values."""
    mn, mx = ops
    v = [None] * len(net.nodes)
    for i, (op, a, b) in enumerate(net.nodes):
        if op == 'in':
            v[i] = values[i]
        else:
            x, y = v[a], v[b]
            v[i] = mn(x, y) if op == 'min' else mx(x, y)
    return v


def check(N, BW, trials=300):
    """Random small-alphabet inputs, then the 0-1 principle: every 0-1 assignment of each output's
    N x N window (bit-sliced into Python integers), the other inputs all 0 or all 1."""
    R = N // 2
    net, raw, cin, cout, outs = build(N, BW)
    C = BW + 2 * R
    rng = random.Random(1)

    def inputs_for(img):
        vals = {node: img[r][c] for (r, c), node in raw.items()}
        for c, (pl, ph) in enumerate(cin):
            vals[pl] = min(img[1][c], img[2][c])
            vals[ph] = max(img[1][c], img[2][c])
        return vals

    for alphabet in (2, 3, 5, 256):
        for _ in range(trials):
            img = [[rng.randrange(alphabet) for _ in range(C)] for _ in range(N + 1)]
            v = evaluate(net, inputs_for(img), (min, max))
            for row in range(2):
                for x in range(BW):
                    win = sorted(img[row + dy][x + dx] for dy in range(N) for dx in range(N))
                    assert v[outs[row][x]] == win[N * N // 2], (N, BW, alphabet, row, x)
            for c, (lo, hi) in enumerate(cout):
                assert v[lo] == min(img[3][c], img[4][c]) and v[hi] == max(img[3][c], img[4][c])
    nbits = N * N
    total = 1 << nbits
    ones = (1 << total) - 1

    def pattern(b):
        period = 1 << (b + 1)
        rep = ((1 << (1 << b)) - 1) << (1 << b)
        length = period
        while length < total:
            rep |= rep << length
            length *= 2
        return rep

    pats = [pattern(b) for b in range(nbits)]
    # majority: at least (nbits + 1) / 2 of the window bits set
    need = (nbits + 1) // 2
    atleast = [ones] + [0] * need
    for b in range(nbits):
        for k in range(need, 0, -1):
            atleast[k] |= atleast[k - 1] & pats[b]
    want = atleast[need]
    for row in range(2):
        for x in range(BW):
            live = net.live([outs[row][x]])
            for other in (0, ones):
                img = [[other] * C for _ in range(N + 1)]
                bit = 0
                for r in range(row, row + N):
                    for c in range(x, x + N):
                        img[r][c] = pats[bit]
                        bit += 1
                vals = {node: img[r][c] for (r, c), node in raw.items()}
                for c, (pl, ph) in enumerate(cin):
                    vals[pl] = img[1][c] & img[2][c]
                    vals[ph] = img[1][c] | img[2][c]
                v = {}
                for i in sorted(live):
                    op, a, b = net.nodes[i]
                    v[i] = vals[i] if op == 'in' else ((v[a] & v[b]) if op == 'min' else (v[a] | v[b]))
                assert v[outs[row][x]] == want, ('0-1', N, BW, row, x)
    return True


def emit(N, BW, out):
    net, raw, cin, cout, outs = build(N, BW)
    flat = [o for row in outs for o in row] + [n for p in cout for n in p]
    live = net.live(flat)
    nops = sum(1 for n in live if net.nodes[n][0] != 'in')
    per = nops / (2.0 * BW)
    name = 'MEDIAN%d_BLOCK%d' % (N, BW)
    out.append('// %dx%d, %d outputs across x 2 rows: %d min/max per step, %.2f per output.' % (N, N, BW, nops, per))
    out.append('#define %s_OPS %d' % (name, nops))
    out.append('#define %s(r0, r1, r2, r3, r4, r5, pl, ph, o0, o1) \\' % name)
    lines = []
    names = {}
    for i, (op, a, b) in enumerate(net.nodes):
        if i not in live:
            continue
        if op == 'in':
            names[i] = a
            continue
        names[i] = 't%d' % i
        lines.append('const mf_t t%d = %s(%s, %s);' % (i, 'MF_MIN' if op == 'min' else 'MF_MAX', names[a], names[b]))
    for row in range(2):
        for x in range(BW):
            lines.append('o%d[%d] = %s;' % (row, x, names[outs[row][x]]))
    for c, (lo, hi) in enumerate(cout):
        lines.append('pl[%d] = %s; ph[%d] = %s;' % (c, names[lo], c, names[hi]))
    body = ['    ' + l + ' \\' for l in lines]
    out.append('    { \\')
    out.extend(body)
    out.append('    }')
    out.append('')
    return nops, per


# ---- the 5x5 network for sorted columns ---------------------------------------------------------------
def median25_network():
    """kernels/median/median.cl's FWB_MEDIAN25_NETWORK as (op, a, b) steps, op one of X, LO, HI."""
    with open(os.path.join(KERNELS, 'median.cl')) as f:
        text = f.read()
    m = re.search(r'#define FWB_MEDIAN25_NETWORK \\\n((?:.*\\\n)*.*)\n', text)
    if not m:
        sys.exit('median_networks.py: no FWB_MEDIAN25_NETWORK in kernels/median/median.cl')
    return [(op, int(a), int(b)) for op, a, b in re.findall(r'\b(X|LO|HI)\((\d+),\s*(\d+)\)', m.group(1))]


def sorted_column_inputs():
    """Every column-sorted 0-1 window (p[dy * 5 + dx] = dy-th smallest of column dx), bit-sliced: one
    integer per window position, one bit per input; and the median of each, sliced the same way."""
    windows = []
    for zeros in itertools.product(range(6), repeat=5):
        windows.append([int(dy >= zeros[dx]) for dy in range(5) for dx in range(5)])
    p = [sum(w[k] << i for i, w in enumerate(windows)) for k in range(25)]
    median = sum(sorted(w)[12] << i for i, w in enumerate(windows))
    return p, median


def run_steps(steps, p):
    p = list(p)
    for op, a, b in steps:
        lo, hi = p[a] & p[b], p[a] | p[b]  # min and max of 0-1 values, bit-sliced
        if op in ('X', 'LO'):
            p[a] = lo
        if op in ('X', 'HI'):
            p[b] = hi
    return p


def sorted_columns_network():
    """FWB_MEDIAN25_NETWORK pruned for sorted columns (see the top of this file)."""
    p, median = sorted_column_inputs()
    steps = median25_network()
    assert run_steps(steps, p)[12] == median, 'FWB_MEDIAN25_NETWORK is not a median network'
    for i, (op, a, b) in enumerate(steps):
        for smaller in [None] + ([('LO', a, b), ('HI', a, b)] if op == 'X' else []):
            trial = steps[:i] + [smaller] + steps[i + 1:]
            if run_steps([s for s in trial if s], p)[12] == median:
                steps = trial
                break
    live, kept = {12}, []
    for step in reversed([s for s in steps if s]):
        op, a, b = step
        keep_a, keep_b = op in ('X', 'LO') and a in live, op in ('X', 'HI') and b in live
        if keep_a or keep_b:
            kept.append(('X' if keep_a and keep_b else 'LO' if keep_a else 'HI', a, b))
            live |= {a, b}
    return kept[::-1]


def check_sorted_columns(steps, trials=3000):
    p, median = sorted_column_inputs()
    assert run_steps(steps, p)[12] == median, '0-1 sorted columns'
    rng = random.Random(1)
    for alphabet in (3, 256):
        for _ in range(trials):
            columns = [sorted(rng.randrange(alphabet) for _ in range(5)) for _ in range(5)]
            v = [columns[k % 5][k // 5] for k in range(25)]
            want = sorted(v)[12]
            for op, a, b in steps:
                lo, hi = min(v[a], v[b]), max(v[a], v[b])
                if op in ('X', 'LO'):
                    v[a] = lo
                if op in ('X', 'HI'):
                    v[b] = hi
            assert v[12] == want, ('sorted columns', alphabet)


def sorted_columns_text(steps):
    out = ['// median_sorted_columns.clh: GENERATED by scripts/median_networks.py - do not edit by hand.',
           '// The 5x5 median network given column-sorted input, p[dy * 5 + dx] = dy-th smallest of column dx:',
           "// kernels/median/median.cl's FWB_MEDIAN25_NETWORK pruned for sorted columns (%d steps instead of %d; see"
           % (len(steps), len(median25_network())),
           '// that script). The median is p[12]. OpenCL C and C++ both: the sorted_columns rung (kernels/median/median.cl) and',
           '// the CPU fast path (core/families/median/Median.cpp) pass their own steps: X(a, b) p[a] = min, p[b] = max;',
           '// LO(a, b) p[a] = min only; HI(a, b) p[b] = max only.',
           '#ifndef FWB_MEDIAN_SORTED_COLUMNS_CLH', '#define FWB_MEDIAN_SORTED_COLUMNS_CLH', '',
           '#define FWB_MEDIAN25_SORTED_COLUMNS_STEPS %d' % len(steps),
           '#define FWB_MEDIAN25_SORTED_COLUMNS(X, LO, HI) \\']
    calls = ['%s(%d, %d)' % (op, a, b) for op, a, b in steps]
    line = '   '
    for call in calls:
        if len(line) + 1 + len(call) > 100 - 2:
            out.append(line + ' \\')
            line = '   '
        line += ' ' + call
    out.append(line)
    out += ['', '#endif // FWB_MEDIAN_SORTED_COLUMNS_CLH']
    return '\n'.join(out) + '\n'


def blocks_text():
    out = ['// median_blocks.clh: GENERATED by scripts/median_networks.py - do not edit by hand.',
           '// Straight-line min/max networks for the median `forgetful` rungs (see that script for the',
           '// construction; every network checked there with the 0-1 principle). Needs the value type mf_t and',
           '// MF_MIN / MF_MAX (kernels/median/median.cl: upix_t with min / max, or two pixels in the 16-bit halves of a uint).',
           '#ifndef FWB_MEDIAN_BLOCKS_CLH', '#define FWB_MEDIAN_BLOCKS_CLH', '']
    for N, BW in ((3, 4), (3, 8), (3, 16), (5, 4), (5, 8), (5, 16)):
        emit(N, BW, out)
    out.append('#endif // FWB_MEDIAN_BLOCKS_CLH')
    return '\n'.join(out) + '\n'


def generated_files():
    return {'median_blocks.clh': blocks_text(),
            'median_sorted_columns.clh': sorted_columns_text(sorted_columns_network())}


def main():
    args = sys.argv[1:]
    if '--count' in args:
        for N, BW in ((3, 2), (3, 4), (3, 8), (3, 16), (5, 2), (5, 4), (5, 8), (5, 16)):
            net, raw, cin, cout, outs = build(N, BW)
            flat = [o for row in outs for o in row] + [n for p in cout for n in p]
            n = net.count(flat)
            print('N=%d BW=%d: %d ops, %.2f per output' % (N, BW, n, n / (2.0 * BW)))
        return
    if '--write' in args:
        files = generated_files()
        check_all(True)
        for name, text in files.items():
            with open(os.path.join(KERNELS, name), 'w') as f:
                f.write(text)
            print('wrote kernels/median/%s' % name, file=sys.stderr)
        with open(PROVED, 'w') as f:
            f.write(proof_key(files) + '\n')
        return
    if '--check' in args:
        files = generated_files()
        stale = []
        for name, text in files.items():
            with open(os.path.join(KERNELS, name)) as f:
                if f.read() != text:
                    stale.append(name)
        for name in stale:
            print('kernels/median/%s differs from what scripts/median_networks.py writes (run it with --write)' % name,
                  file=sys.stderr)
        proved = os.path.exists(PROVED) and open(PROVED).read().strip() == proof_key(files)
        check_all('--full' in args or not proved or bool(stale))
        if not proved and not stale:
            print('every check passed; %s is not up to date (run --write to record it)' % os.path.basename(PROVED),
                  file=sys.stderr)
        sys.exit(1 if stale else 0)
    sys.stdout.write(blocks_text())


if __name__ == '__main__':
    main()
