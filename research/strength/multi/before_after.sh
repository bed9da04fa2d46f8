#!/bin/sh
# expert as main had it (this round's knobs off: xp) against expert now, paired on the same deals, 4-6 players
# usage: PATH=.venv/bin:$PATH sh research/strength/multi/before_after.sh SEED GAMES
cd "$(dirname "$0")/../../.."
for f in podkidnoy perevodnoy prostoy_5 prostoy_6; do for n in 4 5 6; do
  OLD="xp:i0=49,v0=6,i1=44,v1=99"
  if [ $f = podkidnoy ]; then OLD="$OLD,i2=27,v2=7"; fi
  python -m research.strength.multi.cmp $f $n $2 $1 "$OLD" expert 2>&1 | grep -v Warn
done; done
