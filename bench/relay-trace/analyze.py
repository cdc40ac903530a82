import sys, glob, bisect
base = sys.argv[1]
marks = {}  # (pid, stage, peer) -> sorted list of (counter, time) by time
for f in glob.glob(base + ".*"):
    if f.endswith(".driver"): continue
    pid = f.rsplit(".",1)[1]
    for line in open(f):
        st, peer, counter, t = line.split()
        if st == "stmt": continue
        marks.setdefault((pid, st, int(peer)), []).append((int(t), int(counter)))
for v in marks.values(): v.sort()
pids = sorted({k[0] for k in marks})
home = {}
for (pid, st, peer) in marks:
    if st == "recv": home[peer] = pid
def first(pid, st, peer, c):
    for t, cc in marks.get((pid, st, peer), []):
        if cc >= c: return t
    return None
rows = []
for line in open(base + ".driver"):
    _, peer, c, sent, same, other = line.split()
    peer, c = int(peer), int(c)
    A = home.get(peer)
    if A is None: continue
    B = [p for p in pids if p != A][0]
    r = dict(sent=int(sent), sameLast=int(same) or None, otherLast=int(other) or None)
    for st in ["recv","queued","wire","done","committed"]: r[st] = first(A, st, peer, c)
    # the report/pushed after commit on A
    for st, dst in [("report","reportA"),("pushed","pushedA")]:
        r[dst] = next((t for t, cc in marks.get((A, st, peer), []) if cc >= c and r["committed"] and t >= r["committed"]), None)
    r["notice"] = first(B, "notice", peer, c)
    for st, dst in [("report","reportB"),("pushed","pushedB")]:
        r[dst] = next((t for t, cc in marks.get((B, st, peer), []) if cc >= c and r["notice"] and t >= r["notice"]), None)
    rows.append(r)
def pct(xs, q): return xs[min(len(xs)-1, int(len(xs)*q))]
def show(seq, label):
    print(label)
    for a, b in zip(seq, seq[1:]):
        xs = sorted((r[b]-r[a])/1e6 for r in rows if r[a] and r[b])
        if not xs: print(f"  {a:>9} -> {b:<9} n=0"); continue
        print(f"  {a:>9} -> {b:<9} n={len(xs):5d} p50={pct(xs,.5):7.2f} p90={pct(xs,.9):7.2f} p99={pct(xs,.99):7.2f} ms")
show(["sent","recv","queued","wire","done","committed","reportA","pushedA","sameLast"], "relay A (the drawer's relay)")
show(["done","notice","reportB","pushedB","otherLast"], "relay B (the other relay)")
for lab, key in [("A's watchers all have it", "sameLast"), ("B's watchers all have it", "otherLast")]:
    xs = sorted((r[key]-r["sent"])/1e6 for r in rows if r[key])
    print(f"  sent -> {lab}: p50={pct(xs,.5):.2f} p90={pct(xs,.9):.2f} p99={pct(xs,.99):.2f}")
xs = sorted((max(r["sameLast"] or 0, r["otherLast"] or 0) - r["sent"])/1e6 for r in rows)
print(f"  total n={len(xs)} p50={pct(xs,.5):.2f} p99={pct(xs,.99):.2f}")
