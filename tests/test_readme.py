"""The README and docs/ run as written: every example command (a line that
starts with `$ ` in a fenced block) runs, each file's in order, in a folder of
its own that sees the checkout's rulesets/, docs/ and tests/, and what it
prints matches the sample shown under it. A `...` on a line of its own stands
for any lines, `...` within a line for any text; times, rates and cache keys
are not compared. Examples that take more than a few seconds run as written
under @slow, and with a small count in the default suite, where only the
shape of what they print is compared (the same lines, numbers aside)."""

from __future__ import annotations

import difflib
import json
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = [README, *sorted((ROOT / "docs").glob("*.md"))]

# The project's contract: the README's two commands, word for word (.ci/run
# runs the second)
MAIN_JOB = ("pip install . && jongg card check rulesets/cards/*.yaml && jongg variant check "
            "rulesets/variants/*.yaml && jongg simulate nymj --games 20 --agents greedy")
TEST_COMMAND = 'pip install -e ".[test]" && python -m pytest -q'

# Examples that take more than a few seconds -> the same with a small count
SLOW = {
    "jongg card report sample --jobs 2":
        "jongg card report sample --rounds 10 --agents greedy --committed 0",
    "jongg card report sample --rounds 500,0 --committed 100,10 --jobs 2 -o committed":
        "jongg card report sample --rounds 10 --agents greedy --committed 0 -o committed",
    "jongg card report sample --agents greedy --committed 0 --rounds 2000 --jobs 2":
        "jongg card report sample --agents greedy --committed 0 --rounds 10",
    "jongg simulate siamese --games 20 --seed 1 --agents greedy,random":
        "jongg simulate siamese --games 2 --seed 1 --agents greedy,random",
    "jongg simulate royale-siamese --players 3 --games 5 --agents greedy":
        "jongg simulate royale-siamese --players 3 --games 1 --agents greedy",
    MAIN_JOB.removeprefix("pip install . && "):
        MAIN_JOB.removeprefix("pip install . && ").replace("--games 20", "--games 2"),
}

VOLATILE = [  # what differs from run to run, in the samples and in what is printed
    (re.compile(r"\(\d+(?:\.\d+)? rounds/s\)"), "(<rate>)"),
    (re.compile(r"\b\d+(?:\.\d+)? (?:ms|s|µs|min)\b"), "<time>"),
    (re.compile(r"\b[0-9a-f]{20}\b"), "<key>"),
]


@dataclass(frozen=True)
class Example:
    doc: Path
    line: int
    command: str
    sample: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.doc.relative_to(ROOT)}:{self.line}: $ {self.command}"


def examples(doc: Path) -> list[Example]:
    """The `$ ` commands of a file's fenced blocks, each with the lines
    printed under it (up to the next command or the block's end)."""
    found: list[Example] = []
    fenced = False
    current: tuple[int, str, list[str]] | None = None

    def close() -> None:
        nonlocal current
        if current is not None:
            sample = current[2]
            while sample and not sample[-1].strip():  # a blank line between examples
                sample.pop()
            found.append(Example(doc, current[0], current[1], tuple(sample)))
        current = None

    for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("```"):
            close()
            fenced = not fenced
        elif fenced and line.startswith("$ "):
            close()
            current = (number, line[2:], [])
        elif current is not None:
            current[2].append(line)
    return found


def main_job_sample() -> tuple[str, ...]:
    """The block the README shows under its first command: what it prints."""
    text = README.read_text(encoding="utf-8")
    after = text[text.index(MAIN_JOB) + len(MAIN_JOB):]
    after = after[after.index("```\n") + 4:]  # past the command's own block
    block = re.search(r"```\n(.*?)```", after, re.S)
    assert block is not None, "the README shows no output under its first command"
    return tuple(block.group(1).splitlines())


def normal(line: str) -> str:
    for pattern, stands in VOLATILE:
        line = pattern.sub(stands, line)
    return line.rstrip()


def shape(line: str) -> str:
    return re.sub(r"\d+(?:[.,]\d+)*", "N", line)


def agrees(sample: tuple[str, ...], printed: str, form: Callable[[str], str] = normal) -> bool:
    """Whether the printed text is the sample: every line, in order, a `...`
    line standing for any lines and a `...` within a line for any text."""
    parts = []
    for line in sample:
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(re.escape(form(normal(line))).replace(r"\.\.\.", "[^\n]*?") + r"\n")
    text = "".join(form(normal(line)) + "\n" for line in printed.rstrip("\n").split("\n"))
    return re.fullmatch("".join(parts), text) is not None


class Sandbox:
    """A folder of its own for a file's examples: rulesets/, docs/ and tests/
    of the checkout, a `jongg` on PATH that is this Python's, and a cache of
    its own."""

    def __init__(self, folder: Path):
        self.folder = folder
        for name in ("rulesets", "docs", "tests"):
            (folder / name).symlink_to(ROOT / name)
        bin_dir = folder / ".bin"
        bin_dir.mkdir()
        shim = bin_dir / "jongg"
        shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m jongg "$@"\n')
        shim.chmod(0o755)
        self.cache = folder / ".cache"
        import os

        self.env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}",
                    "JONGG_CACHE_DIR": str(self.cache), "NO_COLOR": "1", "COLUMNS": "100",
                    "PYTHONUNBUFFERED": "1"}
        self.env.pop("FORCE_COLOR", None)

    def run(self, command: str) -> tuple[int, str]:
        done = subprocess.run(["bash", "-c", command], cwd=self.folder, env=self.env,
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=900)
        printed = done.stdout.replace(str(self.cache), "~/.cache/jongg/matchers")
        return done.returncode, printed.replace(str(self.folder), ".")


def damage(folder: Path) -> None:
    """damaged.npz: sample.npz with one of its arrays changed, its checksum not."""
    import numpy as np

    with np.load(folder / "sample.npz") as held:
        arrays = {name: held[name] for name in held.files}
    name = max((n for n, a in arrays.items() if a.dtype.kind in "iu"),
               key=lambda n: arrays[n].size)
    arrays[name] = arrays[name].copy()
    arrays[name].flat[0] += 1
    np.savez(folder / "damaged.npz", **arrays)


SETUP: dict[str, Callable[[Path], None]] = {
    'jongg match --matcher damaged.npz --hand "1B"': damage,
}


_SMALL: dict[str, tuple[int, str]] = {}  # small forms already run, by command


def check(example: Example, sandbox: Sandbox, command: str | None = None,
          form: Callable[[str], str] = normal) -> None:
    if example.command in SETUP:
        SETUP[example.command](sandbox.folder)
    if command is not None:  # a long example's small form: the same in every file
        if command not in _SMALL:
            _SMALL[command] = sandbox.run(command)
        code, printed = _SMALL[command]
    else:
        code, printed = sandbox.run(example.command)
    assert "Traceback" not in printed, f"{example}\n{printed}"
    failing = any("error:" in line for line in example.sample)
    assert (code != 0) == failing, f"{example}: exit {code}\n{printed}"
    if example.sample and not agrees(example.sample, printed, form):
        diff = "\n".join(difflib.unified_diff(
            [form(normal(x)) for x in example.sample],
            [form(normal(x)) for x in printed.splitlines()], "shown", "printed", lineterm=""))
        pytest.fail(f"{example}: prints something else now\n{diff}")


WITH_EXAMPLES = [doc for doc in DOCS if examples(doc)]


@pytest.mark.parametrize("doc", WITH_EXAMPLES, ids=lambda d: d.name)
def test_every_example_prints_what_is_shown(doc: Path, tmp_path: Path) -> None:
    """A file's examples in order (one may make a file the next reads); one
    that takes long runs with a small count, its output's shape compared."""
    sandbox = Sandbox(tmp_path)
    for example in examples(doc):
        if example.command in SLOW:
            check(example, sandbox, SLOW[example.command], form=shape)
        else:
            check(example, sandbox)


@pytest.mark.slow
@pytest.mark.parametrize("doc", WITH_EXAMPLES, ids=lambda d: d.name)
def test_the_long_examples_print_what_is_shown(doc: Path, tmp_path: Path) -> None:
    """The examples the default suite runs small, as written. The card
    report's is checked against its paragraph of figures, too."""
    sandbox = Sandbox(tmp_path)
    for example in examples(doc):
        if example.command in SLOW:
            check(example, sandbox)
    if doc.name == "card-report.md":
        report_paragraph_holds(tmp_path / "sample-report" / "report.json")


def test_the_slow_list_names_examples_that_are_there() -> None:
    """So a long example renamed in the docs cannot slip into the default
    suite at full size, nor the list keep a command no file shows."""
    shown = {e.command for doc in DOCS for e in examples(doc)}
    shown.add(MAIN_JOB.removeprefix("pip install . && "))
    assert set(SLOW) <= shown, set(SLOW) - shown
    cli = {e.command for e in examples(ROOT / "docs" / "cli.md")}
    assert len(cli) >= 15  # every command of the CLI tour has its example


def test_the_two_commands_are_the_contract() -> None:
    """The README shows the two commands word for word, each in a block of
    its own, and .ci/run runs the second's test command."""
    blocks = re.findall(r"```sh\n(.*?)\n```", README.read_text(encoding="utf-8"), re.S)
    assert blocks[:2] == [MAIN_JOB, TEST_COMMAND]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == TEST_COMMAND.split(" && ")[1]
    assert 'pip install --quiet -e ".[test]"' in "\n".join(ci)


def test_the_main_job_prints_what_the_readme_shows(tmp_path: Path) -> None:
    """The first command (its jongg part: the install aside), with 2 matches
    for 20; every shipped card and variant is listed ok."""
    job = MAIN_JOB.removeprefix("pip install . && ")
    example = Example(README, 0, job, main_job_sample())
    sandbox = Sandbox(tmp_path)
    check(example, sandbox, SLOW[job], form=shape)
    _, printed = _SMALL[SLOW[job]]
    listed = [line.split(":")[0] for line in printed.splitlines() if ": ok: " in line]
    shipped = sorted(str(p.relative_to(ROOT)) for kind in ("cards", "variants")
                     for p in (ROOT / "rulesets" / kind).glob("*.yaml"))
    assert sorted(listed) == shipped


@pytest.mark.slow
def test_the_main_job_as_written(tmp_path: Path) -> None:
    job = MAIN_JOB.removeprefix("pip install . && ")
    check(Example(README, 0, job, main_job_sample()), Sandbox(tmp_path))


def test_the_readme_python_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """The README's "From Python" teaches the front door, and runs."""
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks and all("import jongg\n" in b for b in blocks)
    assert not any(re.search(r"from jongg\.(compiler|runtime)", b) for b in blocks)
    for block in blocks:
        exec(compile(block, str(README), "exec"), {})  # noqa: S102 - our own README
    assert "year-" in capsys.readouterr().out


def report_paragraph_holds(report: Path) -> None:
    """The card report's paragraph on the sample card, against report.json."""
    table = json.loads(report.read_text())["tables"][0]
    lines = {line["line"]: line for line in table["lines"]}
    sections = {s["section"]: s for s in table["sections"]}
    text = " ".join((ROOT / "docs" / "card-report.md").read_text(encoding="utf-8").split())

    def printed(share: float) -> str:  # as report.html prints a share
        return f"{100 * share:.1f}%"

    assert f"takes {printed(sections['Consecutive Run']['share_of_wins'])} of the wins" in text
    won_most = sorted(lines.values(), key=lambda line: -line["wins"])[:2]
    assert [line["line"] for line in won_most] == ["run-4", "run-6"]
    shown = re.search(r"won most \(([\d.]+%) and ([\d.]+%) of", text)
    assert shown is not None
    assert [printed(line["share_of_rounds"]) for line in won_most] == list(shown.groups())
    assert all("drift" in lines[x]["flags"] for x in ("run-4", "run-6", "quint-5"))
    assert f"is won in {printed(lines['quint-5']['share_of_rounds'])} of rounds" in text
    never = {x for x, line in lines.items() if line["wins"] == 0}
    assert never == {"year-6", "honor-1", "honor-7", "quint-4", "sextet-1", "sextet-3",
                     "sextet-4"}
    assert all(lines[x]["never_won_bound95"] < 0.0015 for x in ("year-6", "honor-1",
                                                                 "honor-7"))
    assert {"quint-4", "sextet-1", "sextet-2", "sextet-3", "sextet-4"} <= \
        set(table["jokers_only"])
    assert table["dominated"] == []


def test_the_report_paragraph_gives_the_printed_values() -> None:
    """Each `line` (N) of the card report's paragraph is the line's value on
    the sample card."""
    from jongg.compiler.card import load_card

    text = (ROOT / "docs" / "card-report.md").read_text(encoding="utf-8")
    paragraph = text[text.index("What free play found on the sample card"):]
    paragraph = paragraph[:paragraph.index("\n\n")]
    named = re.findall(r"`([a-z]+-\d+)` \((\d+)\)", paragraph)
    assert len(named) >= 3
    card = load_card("sample")
    assert {line: card.line(line).value for line, _ in named} == \
        {line: int(value) for line, value in named}


def test_a_game_log_takes_the_name_the_docs_give(tmp_path: Path) -> None:
    """`jongg play` writes jongg-VARIANT-SEED.jsonl here, then -2 beside it."""
    terminal = (ROOT / "docs" / "terminal.md").read_text(encoding="utf-8")
    assert "`jongg-VARIANT-SEED.jsonl`" in terminal and "`-2`, `-3`" in terminal
    sandbox = Sandbox(tmp_path)
    for _ in range(2):
        code, printed = sandbox.run("jongg play mjcg-card --seed 214551 --fast")
        assert code == 0, printed
    assert sorted(p.name for p in tmp_path.glob("jongg-*.jsonl")) == \
        ["jongg-mjcg-card-214551-2.jsonl", "jongg-mjcg-card-214551.jsonl"]
    _, helped = sandbox.run("jongg play --help")
    helped = re.sub(r"-\n\s+", "-", helped)  # a name wrapped at its hyphen
    assert "jongg-VARIANT-SEED.jsonl" in " ".join(helped.split())


def test_rs_says_why_a_test_was_skipped(tmp_path: Path) -> None:
    """The README's advice: -q alone does not say why a test was skipped,
    -rs does."""
    assert "-rs" in README.read_text(encoding="utf-8")
    (tmp_path / "test_skips.py").write_text(
        "import pytest\n\n@pytest.mark.skip(reason='no browser here')\n"
        "def test_one():\n    pass\n")
    said = {}
    for flags in (["-q"], ["-q", "-rs"]):
        done = subprocess.run([sys.executable, "-m", "pytest", *flags, "-p", "no:cacheprovider",
                               "-p", "no:xdist", "test_skips.py"], cwd=tmp_path,
                              capture_output=True, text=True)
        said[" ".join(flags)] = done.stdout
    assert "no browser here" not in said["-q"]
    assert "SKIPPED" in said["-q -rs"] and "no browser here" in said["-q -rs"]
