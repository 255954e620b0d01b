"""The memo behind the rules' and the matcher's kept answers (runtime/memo.py)."""

from __future__ import annotations

from jongg.runtime.memo import Memo


def test_an_answer_is_worked_out_once_and_none_is_an_answer_too() -> None:
    memo: Memo[str, int | None] = Memo(10)
    calls: list[str] = []

    def work(key: str, answer: int | None) -> int | None:
        calls.append(key)
        return answer

    assert memo.get("a", lambda: work("a", 1)) == 1
    assert memo.get("a", lambda: work("a", 2)) == 1  # kept, not worked out again
    assert memo.get("none", lambda: work("none", None)) is None
    assert memo.get("none", lambda: work("none", 3)) is None  # None was kept as the answer
    assert calls == ["a", "none"]
    assert "a" in memo and len(memo) == 2


def test_a_full_memo_forgets_everything_at_once() -> None:
    memo: Memo[int, int] = Memo(3)
    for k in range(3):
        memo.get(k, lambda k=k: k * 10)
    assert len(memo) == 3
    assert memo.get(3, lambda: 30) == 30  # the fourth: the three before are forgotten
    assert len(memo) == 1 and 0 not in memo
    memo.keep(3, 31)  # a key it holds is replaced, nothing forgotten
    assert memo.get(3, lambda: 0) == 31 and len(memo) == 1
