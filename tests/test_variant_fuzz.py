"""Fuzzing variant files: every input ends in a result or in located errors.

Inputs are the shipped variants with random mutations (values deleted,
replaced, misspelt, swapped; keys added; bases changed) and random YAML and
bytes. Each is written to a file and checked as `jongg variant check` does,
and shown resolved as `jongg variant show --resolved` does when it checks:
never a traceback, never an "internal error", every error located in a file.
The default suite runs 350 inputs; the slow suite 20,000 (about an hour on one core).
"""

from __future__ import annotations

import contextlib
import copy
import io
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jongg.cli import main
from jongg.compiler.registry import shipped
from jongg.compiler.schema import schema
from jongg.compiler.variant import check_variant

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = {name: yaml.safe_load((ROOT / f"rulesets/variants/{name}.yaml")
                                .read_text(encoding="utf-8")) for name in shipped("variant")}
KEYS = sorted({*schema("variant")["properties"], "each", "dealer", "card", "flags", "end",
               "amount", "payer", "to", "phase", "count", "blind", "kinds", "priority"})
WORDS = ["across", "left", "right", "pass", "vote", "pledge", "each-opponent", "winner",
         "bank", "rounds >= players", "value * 2", "false", "sample", "nymj", "american-152",
         "atomic", "star", "../x.yaml", "/etc/passwd", "mjcg", "nymj.yaml", "-1",
         "d" * 3000 + ".yaml", "./v.yaml"]

scalars = st.one_of(
    st.none(), st.booleans(),
    st.integers(min_value=-10, max_value=60), st.integers(), st.sampled_from([10**30, -10**12]),
    st.sampled_from(WORDS), st.text(max_size=30),
    st.text(alphabet="()+-*<=>! abcdefghijklmnopqrstuvwxyz0123456789_", max_size=60))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.one_of(st.sampled_from(KEYS), st.text(max_size=8)), inner, max_size=4)),
    max_leaves=12)


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(node, dict):
        for key, item in node.items():
            found += _paths(item, (*path, key))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            found += _paths(item, (*path, i))
    return found


def _parent(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path[:-1]:
        data = data[part]
    return data


def _misspell(text: str, draw: st.DataObject) -> str:
    if not text:
        return "x"
    i = draw.draw(st.integers(0, len(text) - 1))
    how = draw.draw(st.sampled_from(["drop", "double", "swap", "upper"]))
    if how == "drop":
        return text[:i] + text[i + 1:]
    if how == "double":
        return text[:i] + text[i] + text[i:]
    if how == "swap" and i + 1 < len(text):
        return text[:i] + text[i + 1] + text[i] + text[i + 2:]
    return text.upper()


def _mutate(data: dict[str, Any], draw: st.DataObject) -> dict[str, Any]:
    """One random change at a random place of the variant's data."""
    paths = [p for p in _paths(data) if p]
    path = draw.draw(st.sampled_from(paths))
    parent, last = _parent(data, path), path[-1]
    how = draw.draw(st.sampled_from(["delete", "replace", "misspell", "swap", "add", "number",
                                     "extends"]))
    if how == "delete":
        del parent[last]
    elif how == "replace":
        parent[last] = draw.draw(values)
    elif how == "misspell" and isinstance(parent[last], str):
        parent[last] = _misspell(parent[last], draw)
    elif how == "misspell" and isinstance(parent, dict):
        parent[_misspell(str(last), draw)] = parent.pop(last)
    elif how == "swap":
        other = draw.draw(st.sampled_from(paths))
        with contextlib.suppress(KeyError, IndexError, TypeError):
            parent[last] = copy.deepcopy(_parent(data, other)[other[-1]])
    elif how == "add" and isinstance(parent[last], dict):
        parent[last][draw.draw(st.sampled_from(KEYS))] = draw.draw(values)
    elif how == "number" and isinstance(parent[last], int) and not isinstance(parent[last], bool):
        parent[last] = draw.draw(st.sampled_from([0, -1, parent[last] + 1, parent[last] * 1000,
                                                  10**12, 99]))
    elif how == "extends":
        data["extends"] = draw.draw(st.sampled_from([*SHIPPED, "v.yaml", "./v.yaml", "nope",
                                                     "x.yml", "d" * 3000 + ".yaml"]))
    return data


def _ends_well(path: Path) -> None:
    """`variant check` and `variant show --resolved`: a result or located errors."""
    problems = check_variant(str(path))
    for d in problems:
        assert d.location is not None, str(d)
        assert len(str(d)) < 1500, str(d)[:300]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["variant", "show", str(path), "--resolved"])
    printed = out.getvalue() + err.getvalue()
    assert "internal error" not in printed and "Traceback" not in printed, printed[-500:]
    # show compiles at the default player count only: a problem of another count
    # does not stop it, but with none at all it must show
    assert status in (0, 1)
    if not any(d.is_error for d in problems):
        assert status == 0, printed[-500:]


def _mutated(draw: st.DataObject) -> None:
    name = draw.draw(st.sampled_from(sorted(SHIPPED)))
    data = copy.deepcopy(SHIPPED[name])
    for _ in range(draw.draw(st.integers(1, 4))):
        if not isinstance(data, dict) or not data:
            break
        data = _mutate(data, draw)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "v.yaml"
        path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
        _ends_well(path)


def _random(content: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "v.yaml"
        path.write_bytes(content)
        _ends_well(path)


random_files = st.one_of(
    st.binary(max_size=200),
    st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")),
    values.map(lambda v: yaml.safe_dump(v, allow_unicode=True).encode("utf-8")),
    st.dictionaries(st.sampled_from(KEYS), values, max_size=6).map(
        lambda d: yaml.safe_dump({"variant": "v", **d}, allow_unicode=True).encode("utf-8")))

FUZZ = settings(deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


@settings(FUZZ, max_examples=60)
@given(st.data())
def test_mutated_shipped_variants_end_in_a_result_or_located_errors(draw: st.DataObject) -> None:
    _mutated(draw)


@settings(FUZZ, max_examples=120)
@given(random_files)
def test_random_files_end_in_located_errors(content: bytes) -> None:
    _random(content)


@pytest.mark.slow
@settings(FUZZ, max_examples=10_000)
@given(st.data())
def test_many_mutated_shipped_variants(draw: st.DataObject) -> None:
    _mutated(draw)


@pytest.mark.slow
@settings(FUZZ, max_examples=10_000)
@given(random_files)
def test_many_random_files(content: bytes) -> None:
    _random(content)
