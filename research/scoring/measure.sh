#!/bin/bash
# The runs of results/scoring/README.md: both scoring variants, every family, 2 and 4 players, 100,000 games each.
cd "$(dirname "$0")/../.."
mkdir -p results/scoring/json
run() {  # variant family players strategy-args...
  v=$1 f=$2 n=$3; shift 3
  .venv/bin/durak run --rules $f --players $n --toggle variant=$v "$@" --games 100000 --threads 1 --no-save --json \
    > results/scoring/json/$v-$f-${n}p-$(echo "$@" | sed 's/--strategy //g; s/ /+/g').json
}
for v in pogonny ochkovy; do for f in prostoy_5 prostoy_6 podkidnoy perevodnoy; do
  for n in 2 4; do for s in greedy expert random; do run $v $f $n --strategy $s; done; done
  run $v $f 2 --strategy greedy --strategy expert
done; done
