"""Compiled matchers as files and in the cache; batch forms; per-suit tables."""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from jongg.cli import main
from jongg.compiler import cache
from jongg.compiler.game import load_game
from jongg.compiler.matcher import build_tables, compile_matcher
from jongg.compiler.variant import load_variant
from jongg.runtime.card import Card
from jongg.runtime.hand import Hand
from jongg.runtime.matching import artifact, folding, store
from jongg.runtime.matching.matcher import Matcher
from jongg.runtime.matching.reference import match_line
from jongg.runtime.matching.samples import sample_hands
from jongg.runtime.matching.tables import component_keys

from .conftest import card, card_from_lines


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("JONGG_CACHE_DIR", str(folder))
    return folder


def _answers(m: artifact.Matcher, hands: list[Hand]) -> list[list[tuple[str, int, int]]]:
    return [[(x.line.id, x.tiles_away, x.variation) for x in m.tiles_away(h)] for h in hands]


# -- files -------------------------------------------------------------------------
def test_a_saved_matcher_answers_as_the_compiled_one(tmp_path: Path) -> None:
    c = card("mjcg-advanced")
    path = tmp_path / "m.npz"
    artifact.save(path, c, build_tables(c), key="k")
    loaded = artifact.load(path, key="k")
    hands = sample_hands(c, random.Random("file"), 60)
    assert loaded.card == c
    assert _answers(loaded, hands) == _answers(compile_matcher(c), hands)


def _rewrite(path: Path, name: str, data: bytes) -> None:
    with zipfile.ZipFile(path) as old:
        entries = {i.filename: old.read(i.filename) for i in old.infolist()}
    entries[name] = data
    with zipfile.ZipFile(path, "w") as new:
        for entry, content in entries.items():
            new.writestr(entry, content)


def test_a_damaged_file_is_refused_with_a_reason(tmp_path: Path) -> None:
    c = card("nymj")
    path = tmp_path / "m.npz"
    artifact.save(path, c, build_tables(c))
    raw = np.load(path)["meta"].tobytes().replace(b'"three-sets', b'"threX-sets')
    np.save(tmp_path / "meta.npy", np.frombuffer(raw, dtype=np.uint8))
    _rewrite(path, "meta.npy", (tmp_path / "meta.npy").read_bytes())
    with pytest.raises(artifact.ArtifactError, match="checksum mismatch"):
        artifact.load(path)
    path.write_bytes(b"not a zip at all")
    with pytest.raises(artifact.ArtifactError, match="not a compiled jongg matcher"):
        artifact.load(path)


def test_another_format_version_or_other_sources_are_refused(tmp_path: Path) -> None:
    c = card("nymj")
    path = tmp_path / "m.npz"
    artifact.save(path, c, build_tables(c), key="old")
    with pytest.raises(artifact.ArtifactError, match="stale"):
        artifact.load(path, key="new")
    header = json.loads(np.load(path)["header"].tobytes())
    header["version"] = artifact.VERSION + 1
    np.save(tmp_path / "header.npy", np.frombuffer(json.dumps(header).encode(), dtype=np.uint8))
    _rewrite(path, "header.npy", (tmp_path / "header.npy").read_bytes())
    with pytest.raises(artifact.ArtifactError, match=f"format {artifact.VERSION + 1}"):
        artifact.load(path)


# -- the cache -----------------------------------------------------------------------
def test_the_second_load_comes_from_the_cache(own_cache: Path) -> None:
    first = cache.matcher("sample")
    second = cache.matcher("sample")
    assert not first.from_cache and second.from_cache
    assert first.path == second.path and first.path.parent == own_cache
    assert second.matcher.card == first.matcher.card


def test_a_damaged_cache_entry_is_rebuilt_and_said(own_cache: Path) -> None:
    first = cache.matcher("nymj")
    first.path.write_bytes(first.path.read_bytes()[:-100])
    again = cache.matcher("nymj")
    assert not again.from_cache and "rebuilt" in again.note
    assert cache.matcher("nymj").from_cache


def test_a_changed_card_gets_a_new_key(tmp_path: Path) -> None:
    source = Path(__file__).parents[1] / "rulesets" / "cards" / "nymj.yaml"
    mine = tmp_path / "mine.yaml"
    mine.write_text(source.read_text())
    key = cache.source_key(str(mine))
    mine.write_text(source.read_text().replace("title: Not Your Ma's Jong", "title: Mine"))
    assert cache.source_key(str(mine)) != key


# -- the command line ------------------------------------------------------------------
def test_compile_writes_a_file_that_match_reads(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sample.npz"
    assert main(["compile", "sample", "-o", str(out)]) == 0
    assert "card 'sample': 62 lines" in capsys.readouterr().out
    c = card("sample")
    tiles = [t for g in c.lines[0].variations[0].groups for t in g.tiles][:-1]
    assert main(["match", "--matcher", str(out), "--hand", " ".join(c.deck.codes(tiles)),
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["nearest"][0]["tiles_away"] == 1


def test_match_refuses_a_damaged_matcher_file(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"garbage")
    assert main(["match", "--matcher", str(bad), "--hand", "1B"]) == 1
    err = capsys.readouterr().err
    assert "--matcher" in err and "bad.npz" in err and "Traceback" not in err


def test_compile_names_what_it_does_not_know(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compile", "no-such-thing"]) == 1
    err = capsys.readouterr().err
    assert "no variant or card named 'no-such-thing'" in err and "sample" in err


def test_compile_reports_the_per_suit_tables(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compile", "nymj"]) == 0
    assert "per-suit tables of the structural lines: built in" in capsys.readouterr().out
    assert main(["compile", "nymj"]) == 0
    out = capsys.readouterr().out
    assert "loaded from the cache" in out and "tables of the structural lines: loaded" in out


# -- batch forms ----------------------------------------------------------------------
@pytest.mark.parametrize("name,tables", [("sample", False), ("nymj", True), ("classic", False)])
def test_count_vectors_answer_as_hands_do(name: str, tables: bool) -> None:
    c = card(name)
    m = compile_matcher(c)
    if tables:
        m.prepare(cache.tables_dir())  # built once a session, then read
    hands = [h for h in sample_hands(c, random.Random(f"counts:{name}"), 200) if not h.exposures]
    counts, jokers = m.counts_of(hands)
    away, which = m.tiles_away_counts(counts, jokers)
    lines, variations = m.complete_counts(counts, jokers)
    for i, h in enumerate(hands):
        one = {x.line.id: (x.tiles_away, x.variation) for x in m.tiles_away(h)}
        assert one == {line.id: (int(away[i, li]), int(which[i, li]))
                       for li, line in enumerate(c.lines)}
        best = m.is_complete(h)
        got = (c.lines[lines[i]].id, int(variations[i])) if lines[i] >= 0 else None
        assert got == ((best.line.id, best.variation) if best else None)


# -- per-suit tables -----------------------------------------------------------------------
def _single_suit(c_name: str | Card, suit: str, size: int) -> list[Hand]:
    """Every hand of `size` tiles from one suit (each kind at most its copies)."""
    c = card(c_name) if isinstance(c_name, str) else c_name
    kinds = [k for k in c.deck.kinds if k.suit == suit]
    hands = []
    for counts in itertools.product(*(range(k.copies + 1) for k in kinds)):
        if sum(counts) == size:
            hands.append(Hand(tuple(k.index for k, n in zip(kinds, counts, strict=True)
                                    for _ in range(n))))
    return hands


def _exhaustive(c_name: str | Card, line_id: str, hands: list[Hand]) -> None:
    c = card(c_name) if isinstance(c_name, str) else c_name
    m = compile_matcher(c)
    m.prepare(cache.tables_dir())  # built once a session, then read
    line = c.line(line_id)
    li = c.lines.index(line)
    away, _ = m.tiles_away_counts(*m.counts_of(hands))
    for i, h in enumerate(hands):
        ref = match_line(line, h, c.deck)
        assert ref is not None
        assert int(away[i, li]) == ref.tiles_away, \
            f"{' '.join(c.deck.codes(h.concealed))}: tables {away[i, li]}, reference " \
            f"{ref.tiles_away}"


@pytest.mark.clause("NYMJ-08")
def test_nymj_tables_over_every_single_suit_hand() -> None:
    """Three sets and a pair, 11 cards of one suit: every count vector."""
    _exhaustive("nymj", "three-sets-and-a-pair", _single_suit("nymj", "R", 11))


@pytest.mark.parametrize("size", [5, pytest.param(6, marks=pytest.mark.slow),
                                  pytest.param(7, marks=pytest.mark.slow),
                                  pytest.param(8, marks=pytest.mark.slow)])
def test_tables_over_every_single_suit_hand_of_two_sets_and_a_pair(size: int) -> None:
    """The classic suit (nine numbers, four copies), a smaller hand: every
    count vector of 5 tiles (1,278 hands, three short), and in the slow suite
    of 6, 7 and 8 (two and one short, and whole)."""
    c = card_from_lines('{id: two, hand: "2[set] [pair]", value: 25}', deck="classic-136",
                        size=8)
    _exhaustive(c, "two", _single_suit(c, "C", size))


@pytest.mark.slow
def test_classic_tables_over_every_single_suit_hand() -> None:
    """Four sets and a pair and seven pairs over all 118,800 single-suit
    14-tile count vectors, and all 13-tile ones."""
    for size in (14, 13):
        hands = _single_suit("classic", "B", size)
        _exhaustive("classic", "four-sets-and-a-pair", hands)
        _exhaustive("classic", "seven-pairs", hands)


def test_a_hand_the_deck_cannot_hold_is_refused() -> None:
    c = card("sample")
    m = compile_matcher(c)
    five = Hand((0, 0, 0, 0, 0))
    with pytest.raises(ValueError, match="hand holds 5 1B, but american-152 holds 4"):
        m.tiles_away(five)
    with pytest.raises(ValueError, match="5 1B"):
        m.tiles_away_many([Hand((1, 2)), five])
    with pytest.raises(ValueError, match="has not"):
        m.tiles_away(Hand((999,)))


def test_no_writable_cache_still_matches(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("JONGG_CACHE_DIR", str(blocker / "cache"))
    assert main(["match", "--card", "nymj", "--hand", "R1 R2 R3"]) == 0
    captured = capsys.readouterr()
    assert "not cached" in captured.err and "JONGG_CACHE_DIR" in captured.err
    assert "card nymj" in captured.out


def test_compile_to_an_unwritable_place_says_so(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    assert main(["compile", "nymj", "-o", str(blocker / "x.npz")]) == 1
    assert "-o: cannot write" in capsys.readouterr().err


def test_the_runtime_matches_from_a_file_without_the_compiler(tmp_path: Path) -> None:
    """docs/design.md: the runtime never imports the compiler, nor re-parses notation."""
    path = tmp_path / "sample.npz"
    c = card("sample")
    artifact.save(path, c, build_tables(c))
    tiles = [t for g in c.lines[0].variations[0].groups for t in g.tiles]
    script = (
        "import sys\n"
        "from jongg.runtime.matching import artifact\n"
        "from jongg.runtime.hand import Hand\n"
        f"m = artifact.load({str(path)!r})\n"
        f"print(m.is_complete(Hand({tuple(tiles)!r})).line.id)\n"
        "print(sorted(n for n in sys.modules if n.startswith(('jongg.compiler', 'lark'))))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout.split("\n")
    assert out[0] == c.lines[0].id
    assert out[1] == "[]"


def test_match_uses_the_tables_compile_kept(own_cache: Path) -> None:
    """Without `build`, prepare() loads only what is kept: a match never waits
    for tables, and finds them once 'jongg compile' built them."""
    m = cache.matcher("nymj").matcher
    assert m.prepare(cache.tables_dir(), build=False) == 0.0
    assert not m.programme.shape_tables
    assert main(["compile", "nymj"]) == 0
    again = cache.matcher("nymj").matcher
    again.prepare(cache.tables_dir(), build=False)
    assert again.programme.shape_tables


def test_tables_score_a_pool_longer_than_a_hand_as_the_reference_does() -> None:
    """Racks share a pool of 27 tiles or more, so one suit may hold more
    tiles than a hand: the tables cover every count vector, not only those
    a hand of the card's size can hold."""
    c = card("classic")
    kinds = [k for k in c.deck.kinds if k.suit == "B"]
    rng = random.Random("long pools")
    hands = []
    for size in (15, 18, 24):
        for _ in range(20):
            wall = [k.index for k in kinds for _ in range(k.copies)]
            hands.append(Hand(tuple(sorted(rng.sample(wall, size)))))
    _exhaustive("classic", "four-sets-and-a-pair", hands)
    m = compile_matcher(c)
    m.prepare(cache.tables_dir())  # built once a session, then read
    li = [line.id for line in c.lines].index("four-sets-and-a-pair")
    for h in hands[:10]:
        ref = match_line(c.lines[li], h, c.deck)
        assert ref is not None
        assert dict((x.line.id, x.tiles_away) for x in m.tiles_away(h))[c.lines[li].id] == \
            ref.tiles_away


def test_a_damaged_kept_table_is_built_again(own_cache: Path) -> None:
    m = cache.matcher("nymj").matcher
    assert m.prepare(cache.tables_dir()) > 0
    kept = sorted(cache.tables_dir().iterdir())
    assert kept
    for path in kept:
        path.write_bytes(b"not a table")
    again = cache.matcher("nymj").matcher
    assert again.prepare(cache.tables_dir(), build=False) == 0.0
    assert not again.programme.shape_tables  # a damaged table is not read
    assert again.prepare(cache.tables_dir()) > 0
    hands = [h for h in sample_hands(card("nymj"), random.Random("damaged"), 100)
             if not h.exposures]
    assert _answers(again, hands) == _answers(compile_matcher(card("nymj")), hands)


def test_the_prepared_build_reports_its_progress() -> None:
    m = compile_matcher(card("classic"))
    heard: list[tuple[int, int]] = []
    m.prepare(None, progress=lambda done, total: heard.append((done, total)))
    assert heard and heard[-1][0] == heard[-1][1]
    assert [d for d, _ in heard] == sorted(d for d, _ in heard)


# -- the lookups (one hand in plain Python, many as arrays) ---------------------------------
def _classic_hands(count: int, seed: str) -> list[Hand]:
    """Near four sets and a pair, seven pairs and thirteen orphans, and random."""
    c = card("classic")
    rng = random.Random(seed)
    hands = [h for h in sample_hands(c, rng, count) if not h.exposures]
    wall = c.deck.wall()
    hands += [Hand(tuple(rng.sample(wall, 14))) for _ in range(count // 4)]
    hands += [Hand(tuple(rng.sample(wall, 13))) for _ in range(count // 8)]
    return hands


def test_the_lookups_answer_as_the_long_way() -> None:
    """A card whose every line is tabled (the classic card: two lines of
    free groups, thirteen orphans concrete) answers one hand and many by
    lookups alone, as the tables and columns do."""
    c = card("classic")
    m = compile_matcher(c)
    m.prepare(cache.tables_dir())  # built once a session, then read
    quick = folding.build(c, m.columns, m.programme)
    assert quick is not None
    hands = _classic_hands(500, "lookups")
    for h in hands:
        assert quick.scores(h.concealed) == m.scores(h)
        nearest = quick.nearest(h.concealed, lambda t: t)
        assert [(a, li, v) for _, a, v, li in [(x[0], x[1], x[2], c.lines.index(x[0]))
                                                 for x in nearest]] == \
            [(x.tiles_away, c.lines.index(x.line), x.variation) for x in m.tiles_away(h)]
        if len(h.concealed) == 14:
            best = m.is_complete(h)
            assert quick.complete(h.concealed) == \
                ((c.lines.index(best.line), best.variation) if best else None)
    counts, jokers = m.counts_of(hands)
    keys = component_keys(m.programme.table_components, counts)
    best_scores, which = quick.scores_counts(keys)
    for i, h in enumerate(hands):
        assert [(li, int(best_scores[i, li]), int(which[i, li])) for li in range(3)] == \
            m.scores(h)
    full = [i for i, h in enumerate(hands) if len(h.concealed) == 14]
    lines, variations = quick.complete_counts([k[full] for k in keys])
    for j, i in enumerate(full):
        assert quick.complete(hands[i].concealed) == \
            ((int(lines[j]), int(variations[j])) if lines[j] >= 0 else None)


def test_the_lookups_leave_a_hand_they_cannot_answer_to_the_long_way() -> None:
    c = card("classic")
    m = compile_matcher(c)
    m.prepare(cache.tables_dir())  # built once a session, then read
    quick = folding.build(c, m.columns, m.programme)
    assert quick is not None
    five = Hand((0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9))  # five of a kind carry a digit
    assert quick.scores(five.concealed) is None and quick.complete(five.concealed) is False
    assert quick.scores((999,)) is None and quick.complete((999,)) is False
    assert quick.scores((-1,)) is None
    for h in _classic_hands(300, "warm"):  # the matcher builds its lookups as it goes
        m.tiles_away(h)
    assert m._lookup is not None
    with pytest.raises(ValueError, match="holds 5"):
        m.tiles_away(five)
    with pytest.raises(ValueError, match="holds 5"):
        m.is_complete(five)
    with pytest.raises(ValueError, match="has not"):
        m.scores(Hand((999,)))


def test_a_card_with_a_line_too_wide_to_table_has_no_lookups() -> None:
    c = card("sample")
    m = compile_matcher(c)
    assert folding.build(c, m.columns, m.programme) is None


# -- a cache that is whole and sound, or rebuilt ----------------------------------------
def _jokerless(name: str, count: int) -> list[Hand]:
    c = card(name)
    return [h for h in sample_hands(c, random.Random(f"kept:{name}"), count)
            if not h.exposures and c.deck.joker not in h.concealed]


def test_a_damaged_table_is_not_used_then_rebuilt_and_answers_right(
        own_cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The per-suit tables answer for many hands at once: a table whose data
    was zeroed on disk (the file keeps its size) must never answer."""
    assert main(["compile", "nymj"]) == 0
    tables = sorted(cache.tables_dir().iterdir())
    assert tables
    for path in tables:
        data = bytearray(path.read_bytes())
        data[200:] = bytes(len(data) - 200)
        path.write_bytes(bytes(data))
    capsys.readouterr()
    hands = _jokerless("nymj", 300)
    right, _ = compile_matcher(card("nymj")).tiles_away_many(hands)  # no tables: the programme
    kept = cache.matcher("nymj").matcher
    kept.prepare(cache.tables_dir(), build=False)
    assert not kept.programme.shape_tables  # the damaged tables are not used
    assert "damaged (checksum mismatch); not used" in capsys.readouterr().err
    assert main(["compile", "nymj"]) == 0
    assert "building it again" in capsys.readouterr().err
    again = cache.matcher("nymj").matcher
    again.prepare(cache.tables_dir(), build=False)
    assert again.programme.shape_tables
    away, _ = again.tiles_away_many(hands)
    assert (away == right).all()


def test_an_empty_cache_file_is_rebuilt_with_a_note(
        own_cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """What a power loss leaves when a write was not made durable: a file of
    zero bytes, matcher or table."""
    assert main(["compile", "nymj"]) == 0
    for path in [*own_cache.glob("*.npz"), *cache.tables_dir().iterdir()]:
        path.write_bytes(b"")
    capsys.readouterr()
    assert main(["match", "--variant", "nymj", "--hand", "R1 R1 R1 B2 B2 B2 G3 G3 G3 S4 S4"]) == 0
    out, err = capsys.readouterr()
    assert "complete:\n  three-sets-and-a-pair" in out
    assert "an empty file" in err and "rebuilt" in err
    assert main(["compile", "nymj"]) == 0
    err = capsys.readouterr().err
    assert "an empty file; building it again" in err
    assert main(["compile", "nymj"]) == 0
    assert capsys.readouterr().err == ""  # sound again: nothing to say


def test_processes_compiling_the_same_card_at_once_leave_a_sound_cache(own_cache: Path) -> None:
    """Each writer writes a temporary file of its own and renames it whole:
    none fails, and what is left verifies."""
    env = dict(os.environ, JONGG_CACHE_DIR=str(own_cache))
    runs = [subprocess.Popen([sys.executable, "-m", "jongg", "compile", "nymj"], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(4)]
    for run in runs:
        out, err = run.communicate(timeout=600)
        assert run.returncode == 0, err
        assert "per-suit tables" in out and "internal error" not in err
    assert not [p for p in own_cache.rglob("*") if p.name.endswith(".tmp")]
    variant = load_variant("nymj")  # as the command compiled it: the lines nymj plays
    key = cache.source_key(variant.card_source, variant.deck_source, flags=variant.flags)
    kept = cache.matcher(variant.card_source, variant.deck_source, flags=variant.flags)
    assert kept.from_cache and kept.key == key and kept.note == ""
    for path in cache.tables_dir().iterdir():
        store.load_arrays(path, "index", "rows")  # raises when damaged


def test_matcher_refuses_what_is_not_a_regular_file(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """A FIFO would block the read forever."""
    fifo = tmp_path / "pipe.npz"
    os.mkfifo(fifo)
    assert main(["match", "--matcher", str(fifo), "--hand", "1B"]) == 1
    err = capsys.readouterr().err
    assert f"--matcher: {fifo}: not a regular file" in err


def test_cards_the_lookups_cannot_serve_are_told_without_building() -> None:
    """A deck of many copies (Imperial Siamese: a key per count vector would
    be billions) and a yearly card whose lines spread over every suit are
    refused before anything is allocated or built."""
    for variant, players in (("imperial-siamese", 4), ("mjcg-card", 4)):
        m = load_game(variant, players).matcher
        assert isinstance(m, Matcher)
        assert folding.build(m.card, m.columns, m.programme) is None


def test_no_hands_at_once_is_no_answers() -> None:
    """A batch where no hand could complete a column (or no hand at all)
    answers nothing instead of failing to join no chunks."""
    c = card("classic")
    m = compile_matcher(c)
    none = np.zeros((0, len(c.deck.kinds)), dtype=np.int64)
    lines, variations = m.complete_counts(none)
    assert lines.shape == variations.shape == (0,)
    away, which = m.tiles_away_counts(none)
    assert away.shape == which.shape == (0, len(c.lines))
    seven = Hand((0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7))  # no column takes it
    counts, jokers = m.counts_of([seven])
    lines, _ = m.complete_counts(counts, jokers)
    assert lines.tolist() == [-1]
