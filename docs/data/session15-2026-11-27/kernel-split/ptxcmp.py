# Compares the PTX of two program-cache folders: the multiset of (.entry name, body) over every file.
import glob, hashlib, re, sys, collections
import os
dump = sys.argv[3] if len(sys.argv) > 3 else None
def entries(d):
    c = collections.Counter()
    tag = 'old' if d == sys.argv[1] else 'new'
    for p in glob.glob(d + '/**/*', recursive=True):
        try: t = open(p, 'rb').read().decode('latin1')
        except IsADirectoryError: continue
        for m in re.finditer(r'\.entry\s+(\w+)\s*\((.*?)\n}\n', t, re.S):
            body = re.sub(r'//.*', '', m.group(2))
            body = re.sub(r'\.loc\s.*', '', body)
            h = hashlib.sha1(body.encode()).hexdigest()[:12]
            c[(m.group(1), h)] += 1
            if dump and m.group(1).startswith('iir_blocked'):
                os.makedirs(dump, exist_ok=True)
                open(f"{dump}/{tag}-{m.group(1)}-{h}.ptx", 'w').write(m.group(0))
                open(f"{dump}/{tag}-{m.group(1)}-{h}.module.txt", 'w').write(t[:m.start()][-3000:])
    return c
a, b = entries(sys.argv[1]), entries(sys.argv[2])
print(f"old: {sum(a.values())} entry bodies, new: {sum(b.values())}")
na = collections.Counter(); nb = collections.Counter()
for (n, h), k in a.items(): na[n] += k
for (n, h), k in b.items(): nb[n] += k
for n in sorted(set(na) | set(nb)):
    sa = {h for (m, h) in a if m == n}; sb = {h for (m, h) in b if m == n}
    print(f"{n:40s} old {na[n]:3d} new {nb[n]:3d} {'SAME' if sa == sb else 'DIFFERENT (' + str(len(sa - sb)) + ' old bodies not in new)'}")
