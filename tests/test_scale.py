"""jongg.runs.scale, the chunk runner: the same answer in one process, in a pool or
on Ray; a journal that keeps every finished chunk and lets a stopped run go
on where it stopped; a journal of another run refused, a torn line dropped."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pytest

from jongg.compiler.errors import JonggError
from jongg.runs.scale import Journal, LostChunk, gather, run, spans


def digits(seeds: range) -> Counter[int]:
    """A stand-in job: the last digit of each seed's square, counted."""
    return Counter(s * s % 10 for s in seeds)


def add(a: Counter[int], b: Counter[int]) -> Counter[int]:
    return a + b


def counter_journal(path: Path, seeds: range, key: object = "digits") -> Journal[Counter[int]]:
    return Journal(path, key, seeds, lambda c: sorted(c.items()),
                   lambda items: Counter({int(k): int(v) for k, v in items}))


class StopAt:
    """A job that is interrupted (as by Ctrl-C) when it reaches `seed`."""

    def __init__(self, seed: int):
        self.seed = seed

    def __call__(self, seeds: range) -> Counter[int]:
        if self.seed in seeds:
            raise KeyboardInterrupt
        return digits(seeds)


class DieOnce:
    """A job whose worker dies (as by the OOM killer) the first time it
    reaches `seed`, or every time when `always`; a file remembers."""

    def __init__(self, seed: int, marker: Path, always: bool = False):
        self.seed, self.marker, self.always = seed, marker, always

    def __call__(self, seeds: range) -> Counter[int]:
        if self.seed in seeds and (self.always or not self.marker.exists()):
            self.marker.touch()
            os._exit(9)
        return digits(seeds)


def test_a_chunk_whose_worker_dies_is_run_again(tmp_path: Path) -> None:
    outcome = gather(DieOnce(37, tmp_path / "died"), range(0, 80), add, jobs=2, size=4)
    assert (tmp_path / "died").exists()  # a worker did die
    assert outcome.result == digits(range(0, 80)) and not outcome.partial


def test_a_chunk_that_kills_every_worker_stops_the_run_saying_which(tmp_path: Path) -> None:
    with pytest.raises(LostChunk) as error:
        gather(DieOnce(37, tmp_path / "died", always=True), range(0, 80), add, jobs=2, size=4)
    assert "the worker playing them died 3 times" in str(error.value)
    assert "seeds 36..39" in str(error.value)


def test_chunks_cover_the_seeds_in_order_once() -> None:
    parts = list(spans([range(3, 10), range(12, 15)], 4))
    assert parts == [range(3, 7), range(7, 10), range(12, 15)]


def test_one_process_and_a_pool_give_the_same_answer_in_chunk_order() -> None:
    seeds = range(100, 400)
    alone = list(run(digits, seeds))
    pooled = list(run(digits, seeds, jobs=2, size=7))
    assert [p.start for p, _ in pooled] == sorted(p.start for p, _ in pooled)
    assert sum((c for _, c in pooled), Counter()) == sum((c for _, c in alone), Counter())
    assert sum(len(p) for p, _ in pooled) == len(seeds)


def test_progress_is_told_every_seed() -> None:
    told: list[int] = []
    outcome = gather(digits, range(0, 90), add, jobs=2, size=5, progress=told.append)
    assert sum(told) == 90 and outcome.done == 90 and not outcome.partial


def test_a_stopped_run_keeps_its_chunks_and_a_second_run_plays_only_the_rest(
        tmp_path: Path) -> None:
    seeds = range(0, 50)
    path = tmp_path / "run.jsonl"
    first = gather(StopAt(31), seeds, add, journal=counter_journal(path, seeds))
    assert first.partial and first.done == 31
    assert first.result == digits(range(0, 31))
    played: list[int] = []
    second = gather(digits, seeds, add, progress=played.append,
                    journal=counter_journal(path, seeds))
    assert second.resumed == 31 and second.done == 50 and not second.partial
    assert second.result == digits(seeds)
    assert sum(played) == 50  # the journal's seeds are told first, then the rest
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + 50  # the header, then a chunk a seed (one process)
    third = gather(StopAt(0), seeds, add, journal=counter_journal(path, seeds))
    assert third.result == digits(seeds) and third.resumed == 50  # nothing left to play


def test_more_seeds_extend_a_journal_and_fewer_read_only_theirs(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    gather(digits, range(0, 10), add, jobs=2, size=3, journal=counter_journal(path, range(0, 10)))
    more = gather(digits, range(0, 25), add, journal=counter_journal(path, range(0, 25)))
    assert more.resumed == 10 and more.result == digits(range(0, 25))
    fewer = gather(StopAt(0), range(0, 7), add, journal=counter_journal(path, range(0, 7)))
    assert fewer.done == fewer.resumed == 7 and fewer.result == digits(range(0, 7))


def test_ctrl_c_after_a_chunk_is_written_keeps_exactly_what_the_journal_holds(
        tmp_path: Path) -> None:
    """Ctrl-C between writing a chunk and adding it in: the outcome is the
    journal's, so the report and the file agree on the seeds covered."""
    calls = []

    def merge_then_stop(a: Counter[int], b: Counter[int]) -> Counter[int]:
        calls.append(1)
        if len(calls) == 5:
            raise KeyboardInterrupt
        return a + b

    seeds = range(0, 20)
    path = tmp_path / "run.jsonl"
    outcome = gather(digits, seeds, merge_then_stop, journal=counter_journal(path, seeds))
    assert outcome.partial and outcome.done == 6 == len(path.read_text().splitlines()) - 1
    assert outcome.result == digits(range(0, 6))


def test_a_torn_last_line_is_dropped_and_the_run_goes_on(tmp_path: Path) -> None:
    seeds = range(0, 20)
    path = tmp_path / "run.jsonl"
    gather(StopAt(10), seeds, add, journal=counter_journal(path, seeds))
    with open(path, "ab") as file:  # killed halfway through writing a line
        file.write(b'{"seeds":[10,11],"res')
    outcome = gather(digits, seeds, add, journal=counter_journal(path, seeds))
    assert outcome.resumed == 10 and outcome.result == digits(seeds)
    assert all(json.loads(line) for line in path.read_text().splitlines())


def test_the_journal_of_another_run_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    gather(digits, range(0, 5), add, journal=counter_journal(path, range(0, 5)))
    before = path.read_bytes()
    for key, seeds in [("other", range(0, 5)), ("digits", range(1, 5))]:
        with pytest.raises(JonggError) as error:
            gather(digits, seeds, add, journal=counter_journal(path, seeds, key))
        assert "journal of another run" in str(error.value)
    assert path.read_bytes() == before


def test_a_file_that_is_no_journal_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("my notes\n")
    with pytest.raises(JonggError) as error:
        gather(digits, range(0, 5), add, journal=counter_journal(path, range(0, 5)))
    assert "line 1 is not JSON" in str(error.value)
    assert path.read_text() == "my notes\n"


def test_a_run_shortened_then_extended_counts_each_seed_once(tmp_path: Path) -> None:
    """80 seeds in chunks of 10, then 75 (the chunk 70..79 is not within:
    70..74 are played and written, a seed a chunk), then 80 again: the
    journal holds 70..79 and 70..74, and the run counts those once."""
    path = tmp_path / "journal.jsonl"
    whole = gather(digits, range(0, 80), add, size=10, jobs=2,
                   journal=counter_journal(path, range(0, 80)))
    shorter = gather(digits, range(0, 75), add, size=10,
                     journal=counter_journal(path, range(0, 75)))
    assert shorter.result == digits(range(0, 75)) and shorter.resumed == 70
    again = gather(digits, range(0, 80), add, size=10,
                   journal=counter_journal(path, range(0, 80)))
    assert len(path.read_text().splitlines()) == 1 + 8 + 5
    assert again.result == whole.result == digits(range(0, 80))
    assert again.resumed == 80 and not again.partial
