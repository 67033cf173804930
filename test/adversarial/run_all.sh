#!/bin/bash
# run_all.sh: runs run_one.sh on every program NN_* of this folder (sequentially), one result line each.
cd "$(dirname "$0")"
for p in [0-9][0-9]_*; do
  ./run_one.sh "$p" 2>&1 | grep -m1 '^\(PASS\|FAIL\|NOTE\)' || echo "FAIL $p: run_one.sh printed nothing"
done
