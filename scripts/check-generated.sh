#!/usr/bin/env bash
# Regenerate into a temporary folder and compare with generated/kimi_raw.
# Any difference means a spec changed without `make generate`, or someone
# edited generated code by hand.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$here/scripts/generate.sh" "$tmp/kimi_raw"
if ! diff -r -q -x __pycache__ "$tmp/kimi_raw" "$here/generated/kimi_raw"; then
  echo "generated/kimi_raw is out of date: run 'make generate' and commit the result." >&2
  diff -r -u -x __pycache__ "$here/generated/kimi_raw" "$tmp/kimi_raw" | head -n 60 >&2 || true
  exit 1
fi
echo "generated/kimi_raw matches openapi/*.yaml"
