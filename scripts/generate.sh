#!/usr/bin/env bash
# Regenerate kimi_raw.<format> packages from openapi/<format>.yaml.
#
#   scripts/generate.sh [OUT_DIR] [FORMAT ...]
#
# OUT_DIR defaults to generated/kimi_raw; FORMAT defaults to all three;
# OPENAPI_DIR (default openapi/) is where the specs are read from.
# Each target folder is removed first: --overwrite alone keeps stale files
# at the package root. --fail-on-warning stops on anything the generator
# would otherwise skip silently. Beside each package, scripts/derive_contract.py
# writes _contract/<format>.json: the request rules as data; scripts/derive_types.py
# writes <format>/typeddicts.py: the TypedDicts of the request and of what comes back;
# scripts/derive_fast.py writes _contract/<format>_fast_<mode>.py: the fast check of a request body;
# scripts/derive_mfjs.py writes _contract/mfjs.json: the schema rules of openapi/mfjs.yaml.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$here/generated/kimi_raw}
shift || true
formats=("$@")
[ ${#formats[@]} -gt 0 ] || formats=(chat messages responses)
specs=${OPENAPI_DIR:-$here/openapi}
bin=${VENV_BIN:-$here/.venv/bin}
export PATH="$bin:$PATH"
mkdir -p "$out"
for fmt in "${formats[@]}"; do
  work=$(mktemp -d)
  (cd "$work" && openapi-python-client generate \
      --path "$specs/$fmt.yaml" \
      --config "$here/scripts/openapi-generator.yaml" \
      --meta none --fail-on-warning --output-path "$work/$fmt" >/dev/null)
  # The ruff post-hooks leave a cache whose file names change on every run.
  rm -rf "$work/$fmt/.ruff_cache"
  rm -rf "${out:?}/$fmt"
  mv "$work/$fmt" "$out/$fmt"
  rm -rf "$work"
  # The request contract kimi_ext and the stand-in read (field sets, models, rules).
  "$bin/python" "$here/scripts/derive_contract.py" "$specs/$fmt.yaml" "$out/_contract/$fmt.json"
  # The fast yes/no check of a request body, as plain Python (kimi_ext imports it).
  "$bin/python" "$here/scripts/derive_fast.py" "$out/_contract/$fmt.json"
  # The TypedDicts type checkers read (types.py is the generator's own module).
  "$bin/python" "$here/scripts/derive_types.py" "$specs/$fmt.yaml" "$out/$fmt/typeddicts.py"
done
"$bin/python" "$here/scripts/derive_contract.py" --loader "$out/_contract/__init__.py"
# The schema rules every format shares (Moonshot Flavored JSON Schema), as data.
"$bin/python" "$here/scripts/derive_mfjs.py" "$specs/mfjs.yaml" "$out/_contract/mfjs.json"
[ -f "$out/__init__.py" ] || printf '"""Raw clients generated from openapi/*.yaml. Do not edit: run `make generate`."""\n' > "$out/__init__.py"
[ -f "$out/py.typed" ] || : > "$out/py.typed"
