#!/usr/bin/env bash
# GRASP plan execution: strata (in memory, CSR) versus the same plans as SQL
# in PostgreSQL on loopback, over one generated mag graph (NODES nodes,
# default 1,000,000). PostgreSQL comes from the Debian package (initdb,
# pg_ctl, psql on the PATH); when run as root it runs as user postgres.
# Both sides answer the same queries; the script checks that every query's
# result count agrees, then reports per-query medians and their ratio.
set -euo pipefail
nodes=${NODES:-1000000}
port=${PGPORT_BENCH:-54329}
work=$(mktemp -d /tmp/strata-pgbench.XXXXXX)
chmod 755 "$work"
echo "strata: generating $nodes nodes and timing plan execution" >&2
STRATA_BENCH_NODES=$nodes STRATA_PG_DIR="$work/data" \
  go test ./graphops -run '^$' -bench '^BenchmarkGraspExecution$' -benchtime 3x -timeout 60m | grep Benchmark
chmod -R a+rX "$work/data"
as=()
if [ "$(id -u)" = 0 ]; then as=(runuser -u postgres --); fi
mkdir -p "$work/pg" && chmod 777 "$work"
[ "$(id -u)" = 0 ] && chown postgres "$work/pg"
"${as[@]}" initdb -D "$work/pg" -U strata -A trust >/dev/null
"${as[@]}" pg_ctl -D "$work/pg" -l "$work/pg.log" -w \
  -o "-p $port -k $work -c listen_addresses=127.0.0.1 -c shared_buffers=2GB -c work_mem=64MB -c max_parallel_workers_per_gather=2" start >/dev/null
trap '"${as[@]}" pg_ctl -D "$work/pg" stop -m fast >/dev/null; rm -rf "$work"' EXIT
psql=(psql -h 127.0.0.1 -p "$port" -U strata -d postgres -v ON_ERROR_STOP=1 -q -X)
echo "postgres: loading the graph" >&2
t0=$(date +%s)
"${psql[@]}" -c "CREATE UNLOGGED TABLE nodes(id int PRIMARY KEY, type smallint); CREATE UNLOGGED TABLE adj(src int, rel smallint, dst int);"
"${psql[@]}" -c "\\copy nodes FROM '$work/data/nodes.csv' CSV"
"${psql[@]}" -c "\\copy adj FROM '$work/data/adj.csv' CSV"
"${psql[@]}" -c "CREATE INDEX adj_src ON adj(src, rel, dst);"
"${psql[@]}" -c "VACUUM ANALYZE;"
echo "postgres: loaded and indexed in $(( $(date +%s) - t0 )) s" >&2
# One warm-up pass, then the timed pass.
"${psql[@]}" -f "$work/data/queries.sql" >/dev/null
{ echo '\timing on'; cat "$work/data/queries.sql"; } | "${psql[@]}" -A -t > "$work/pg.out"
python3 - "$work/data/go.json" "$work/pg.out" <<'PY'
import json, re, statistics, sys
go = json.load(open(sys.argv[1]))
rows, times = [], []
for line in open(sys.argv[2]):
    m = re.match(r"Time: ([0-9.]+) ms", line)
    if m:
        times.append(float(m.group(1)))
    elif "|" in line:
        rows.append(int(line.split("|")[0]))
assert len(rows) == len(go["counts"]) == len(times), (len(rows), len(go["counts"]), len(times))
bad = sum(1 for a, b in zip(rows, go["counts"]) if a != b)
if bad:
    sys.exit(f"{bad} queries disagree on their result count")
g50, p50 = statistics.median(go["ms"]), statistics.median(times)
g95, p95 = sorted(go["ms"])[len(times)*95//100], sorted(times)[len(times)*95//100]
print(f"{len(times)} plans on {go['nodes']:,} nodes ({go['entries']:,} adjacency entries); every result count agrees")
print(f"strata  p50 {g50:.3f} ms  p95 {g95:.3f} ms")
print(f"postgres p50 {p50:.3f} ms  p95 {p95:.3f} ms")
print(f"ratio (postgres / strata): p50 {p50/g50:.0f}x, p95 {p95/g95:.0f}x")
PY
