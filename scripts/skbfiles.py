"""Reading an skbdir/1 directory's files from the robustness scripts
(robust_freeframes.py, robust_mframes.py, robust_wnframes.py): the node and edge files may be
stored plain or zstd-compressed."""
import os
import subprocess
import sys


def lines(path):
    """The lines of path, decompressed with zstdcat when it ends in .zst."""
    if path.endswith(".zst"):
        return subprocess.run(["zstdcat", path], check=True, capture_output=True, text=True).stdout.splitlines()
    return open(path).read().splitlines()


def first(d, *names, prog="skbfiles"):
    """The path of the first of names present in directory d; exits naming
    prog otherwise."""
    for n in names:
        if os.path.exists(os.path.join(d, n)):
            return os.path.join(d, n)
    sys.exit(f"{prog}: none of {names} in {d}")


def load_graph(d, prog="skbfiles"):
    """The nodes of SKB directory d by id (their JSON records) and its edges
    both ways: out_e[(source, relation)] and in_e[(destination, relation)],
    sets of node ids."""
    import collections
    import json
    nodes = {}
    for l in lines(first(d, "nodes.jsonl.zst", "nodes.jsonl", prog=prog)):
        r = json.loads(l)
        nodes[r["id"]] = r
    out_e, in_e = collections.defaultdict(set), collections.defaultdict(set)
    for l in lines(first(d, "edges.tsv.zst", "edges.tsv", prog=prog)):
        a, rel, b = l.split("\t")
        out_e[(int(a), rel)].add(int(b))
        in_e[(int(b), rel)].add(int(a))
    return nodes, out_e, in_e
