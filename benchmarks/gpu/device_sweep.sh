#!/usr/bin/env bash
# Runs on the GPU machine: every case prepare_sweep.py built from
# test/Integration's reference checks (DIR/sweep/sweep.txt: tab-separated
# library, function, rtol, atol, expected outputs, input specs) through
# tcc-run-lib, compared with the reference evaluator's outputs. Prints
# each failure with its message (or the signal that ended it) and the
# counts; exits 1 if any case fails.
#   bash benchmarks/gpu/device_sweep.sh [DIR]   (default build/gpu-check)
set -uo pipefail
DIR="${1:-$(dirname "${BASH_SOURCE[0]}")/../../build/gpu-check}"
cd "$DIR/sweep"
echo "== sweep: test/Integration on the GPU"
pass=0 fail=0
while IFS=$'\t' read -r lib fn rtol atol expected rest; do
  [ -z "$lib" ] && continue
  args=()
  IFS=$'\t' read -ra specs <<<"$rest"
  for s in "${specs[@]}"; do args+=("--input=$s"); done
  IFS=, read -ra exp <<<"$expected"
  for e in "${exp[@]}"; do args+=("--expected_output=@$e"); done
  out=$(../tcc-run-lib "./$lib" --function="$fn" --rtol="$rtol" \
        --atol="$atol" "${args[@]}" 2>&1)
  rc=$?
  if [ $rc = 0 ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    why=$(echo "$out" | grep -v SUCCESS | head -4 | tr '\n' ' ')
    [ $rc -gt 128 ] && why="killed by signal $((rc - 128)); $why"
    echo "FAIL $lib $fn (exit $rc): $why"
  fi
done < sweep.txt
echo "sweep: $pass passed, $fail failed, $(grep -c . skipped.txt) skipped (sweep/skipped.txt)"
[ $fail = 0 ]
