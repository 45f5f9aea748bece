"""Compile openapi/mfjs.yaml (the MFJS rules table) into _contract/mfjs.json (run by generate.sh).

    python scripts/derive_mfjs.py openapi/mfjs.yaml OUT_DIR/_contract/mfjs.json

The output is the `x-kimi-mfjs` table as plain JSON (sorted keys, deterministic), which
kimi_ext/_core/contract/mfjs.py reads; the YAML is never read at run time. The script checks
the table's shape, so a typo in the YAML fails `make generate` rather than a request.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

_LEVELS = {"lite", "strict", "ultra", "service"}
_AT_STRICT = {"refuse", "warn"}
_AT = {"schema", "keyword", "root"}


def _plain(node: Any) -> Any:
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    if isinstance(node, bool | int | float | str) or node is None:
        return node
    return str(node)


def derive(path: Path) -> dict[str, Any]:
    """The checked table of ``path``."""
    doc = _plain(YAML(typ="safe").load(path.read_text(encoding="utf-8")))
    table = doc["x-kimi-mfjs"]
    if sorted(table["types"]) != sorted(
        ["array", "boolean", "integer", "null", "number", "object", "string"]
    ):
        raise SystemExit(f"{path}: types must be the seven JSON types")
    fixes = set(table["normalizations"]) | {"refuse", "none"}
    for rule_id, rule in table["rules"].items():
        problems = []
        if rule.get("from") not in _LEVELS:
            problems.append(f"from must be one of {sorted(_LEVELS)}")
        if rule.get("at-strict") not in _AT_STRICT:
            problems.append(f"at-strict must be one of {sorted(_AT_STRICT)}")
        if rule.get("at") not in _AT:
            problems.append(f"at must be one of {sorted(_AT)}")
        if not isinstance(rule.get("message"), str):
            problems.append("message must be a string")
        if rule.get("fix") not in fixes:
            problems.append(f"fix must be one of {sorted(fixes)}")
        if problems:
            raise SystemExit(f"{path}: rule {rule_id}: " + "; ".join(problems))
    for role, spec in table["roles"].items():
        unknown = [r for r in spec["rules"] if r not in table["rules"]]
        if unknown:
            raise SystemExit(f"{path}: role {role} names unknown rules {unknown}")
    return table


def main(argv: list[str]) -> int:
    spec_path, out_path = Path(argv[1]), Path(argv[2])
    out_path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(derive(spec_path), indent=1, sort_keys=True, ensure_ascii=False)
    out_path.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
