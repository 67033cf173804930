#!/bin/bash
# The runtime's layer rule holds where the build enforces it:
#   1. for each layer, an include of the next layer's headers above it does
#      not compile in its view (build/runtime/layers/LAYER): GCC's "No such
#      file", Clang's "file not found";
#   2. no source of runtime/src reaches around the views with "../";
#   3. every folder of runtime/src is a layer of the list.
# Usage: layers_test.sh CXX VIEWS_DIR RUNTIME_SRC LAYER...
set -u
cxx=$1 views=$2 src=$3
shift 3
layers=("$@")
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

for ((i = 0; i + 1 < ${#layers[@]}; i++)); do
  layer=${layers[i]}
  # The nearest layer above with a header (process has none).
  above_header=""
  for ((j = i + 1; j < ${#layers[@]}; j++)); do
    above_header=$(cd "$src" && find "${layers[j]}" -name '*.h' | sort | head -1)
    [ -n "$above_header" ] && break
  done
  [ -z "$above_header" ] && continue
  out=$(printf '#include "%s"\n' "$above_header" |
        "$cxx" -std=c++17 -fsyntax-only -I "$views/$layer" -x c++ - 2>&1)
  if [ $? -eq 0 ]; then
    fail "layer $layer can include $above_header, a header of a layer above it"
  elif ! grep -qE "$above_header: No such file|'$above_header' file not found" <<<"$out"; then
    fail "layer $layer including $above_header failed for another reason than its view: $out"
  else
    echo "ok: layer $layer cannot include $above_header"
  fi
  # And the view does hold the layer itself and the ones below.
  for ((k = 0; k <= i; k++)); do
    [ -e "$views/$layer/${layers[k]}" ] || fail "the view of $layer lacks ${layers[k]}"
  done
done

if grep -rnE '#[[:space:]]*include[[:space:]]*"\.\./' "$src"; then
  fail "an include above reaches around the layer views with \"../\""
fi

for dir in "$src"/*/; do
  name=$(basename "$dir")
  [[ " ${layers[*]} " == *" $name "* ]] || fail "runtime/src/$name is in no layer (runtime/CMakeLists.txt, TUCANA_LAYERS)"
done

[ $failures -eq 0 ] && echo "the runtime's layers are enforced (${#layers[@]} layers)"
exit $((failures > 0))
