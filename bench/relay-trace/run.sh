#!/bin/bash
# usage: run.sh LABEL BINDIR [perf]
label=$1; bindir=$2; perf=$3
out=/tmp/pgp99/$label; mkdir -p $out; rm -f $out/trace.*
before=$(ls -d /tmp/drawtogether-pg* 2>/dev/null | sort)
uptime > $out/uptime
DT_RELAY_TRACE=$out/trace DT_BENCH_PG_ONLY=1 $bindir/drawtogether-bench --only relay --relay-clients ${CLIENTS:-1000} > $out/bench.json 2> $out/bench.err &
bench=$!
# wait for two relay children
for i in $(seq 1 600); do
  worker=$(pgrep -P $bench | head -1)
  kids=$([ -n "$worker" ] && pgrep -P $worker -x drawtogether | tr '\n' ' ')
  [ $(echo $kids | wc -w) -ge 2 ] && break; sleep 0.1
done
echo "relays: $kids" > $out/pids
pgdir=$(comm -13 <(echo "$before") <(ls -d /tmp/drawtogether-pg* 2>/dev/null | sort) | head -1)
echo "pgdir: $pgdir" >> $out/pids
# wait until drawing starts: connect ramp + idle; poll relay CPU jump is complex; just sleep
sleep 3.5
pgpids=$(for p in $(pgrep -x postgres); do grep -q "$pgdir" /proc/$p/cmdline 2>/dev/null && echo $p; done)
post=$(for m in $pgpids; do pgrep -P $m; done | tr '\n' ' ')
echo "postgres: $pgpids children: $post" >> $out/pids
cpu() { for p in "$@"; do awk '{print $14+$15}' /proc/$p/stat 2>/dev/null; done | paste -sd+ | bc; }
c0=$(cpu $post); r0=$(cpu $kids)
if [ -n "$perf" ]; then
  perf record -g -o $out/perf.data -p $(echo $kids | tr ' ' ',') -- sleep 5 2> $out/perf.err
else
  sleep 5
fi
c1=$(cpu $post); r1=$(cpu $kids)
echo "postgres ticks in 5s: $((c1-c0)) relays ticks: $((r1-r0)) (100/s)" >> $out/pids
wait $bench
uptime >> $out/uptime
grep -E '"relay.pg.(fanout|cpu|commit)' $out/bench.json
cat $out/pids
