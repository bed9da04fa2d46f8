#!/usr/bin/env bash
# Scripted check: `durak run --backend dask` gives the JSON of `--threads 2` (timing and output
# folder aside), also when one worker process is killed with SIGKILL in the middle of the run.
#   DURAK_CACHE_DIR=... research/check_dask_kill.sh [GAMES]
set -euo pipefail
GAMES=${1:-2000000}
DURAK=${DURAK:-$(dirname "$0")/../.venv/bin/durak}
W=$(mktemp -d)
strip() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); [d.pop(k) for k in ("seconds","out")]; print(json.dumps(d, sort_keys=True))' "$1"; }

"$DURAK" run --games "$GAMES" --seed 1 --json --quiet --threads 2 --no-save > "$W/threads.json"
"$DURAK" run --games "$GAMES" --seed 1 --json --quiet --backend dask --threads 2 --no-save > "$W/dask.json"

# the same on a local cluster, with one worker process killed once 10 chunks of the run are saved
"$DURAK" run --games "$GAMES" --seed 1 --json --quiet --backend dask --threads 2 --out "$W/run" > "$W/killed.json" &
MAIN=$!
while [ "$(ls "$W/run/chunks" 2>/dev/null | grep -c 'npz$' || true)" -lt 10 ]; do sleep 0.2; done
# the worker processes are the client's children started by multiprocessing's spawn (the nannies live in the client)
WORKERS=$(pgrep -P "$MAIN" -f spawn_main || true)
VICTIM=$(echo "$WORKERS" | head -1)
SAVED=$(ls "$W/run/chunks" | grep -c 'npz$')
kill -9 "$VICTIM"
echo "killed worker pid $VICTIM (workers were: $(echo $WORKERS)) after $SAVED of $(( (GAMES + 16383) / 16384 )) chunks"
sleep 3
echo "worker processes now: $(pgrep -P "$MAIN" -f spawn_main | tr '\n' ' ')(the nanny restarted the killed one)"
wait "$MAIN"

[ "$(strip "$W/threads.json")" = "$(strip "$W/dask.json")" ] && echo "dask JSON == threads JSON" || { echo "dask JSON DIFFERS"; exit 1; }
[ "$(strip "$W/threads.json")" = "$(strip "$W/killed.json")" ] && echo "dask with a killed worker JSON == threads JSON" || { echo "killed-run JSON DIFFERS"; exit 1; }
grep -h '"seconds"' "$W"/threads.json "$W"/dask.json "$W"/killed.json | tr -s ' ' | paste -sd' '
rm -rf "$W"
