"""Reading an skbdir/1 directory's files from the robustness scripts
(robust_freeframes.py, robust_wnframes.py): the node and edge files may be
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
