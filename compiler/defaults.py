"""A variant's defaults: every default the variant schema documents, filled
in where unset (step 3 of compiler/variant.py), so a resolved variant says
everything (`jongg variant show NAME --resolved`)."""

from __future__ import annotations

import copy
from typing import Any

from .schema import schema


def fill_defaults(data: dict[str, Any]) -> dict[str, Any]:
    """Every default the variant schema documents, filled in where unset."""
    root = schema("variant")
    defs = root["$defs"]

    def fill(node: dict[str, Any], value: Any) -> Any:
        if "$ref" in node:
            node = defs[node["$ref"].rsplit("/", 1)[-1]]
        if isinstance(value, dict) and "properties" in node:
            for key, sub in node["properties"].items():
                if key not in value:
                    target = defs[sub["$ref"].rsplit("/", 1)[-1]] if "$ref" in sub else sub
                    if "default" in sub:
                        value[key] = copy.deepcopy(sub["default"])
                    elif target.get("type") == "object" and "properties" in target \
                            and "required" not in target and node is root:
                        value[key] = {}
                if key in value:
                    value[key] = fill(sub, value[key])
        elif isinstance(value, list) and "items" in node:
            return [fill(node["items"], item) for item in value]
        return value

    out: dict[str, Any] = fill(root, copy.deepcopy(data))
    return out
