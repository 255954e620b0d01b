"""The card editor's tools: `card show --json` and its joker marks, `card
diff` against a card or an expansion from elsewhere, and `card render`,
checked by a screenshot in headless Chromium."""

from __future__ import annotations

import json
import re
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from .conftest import run_cli

CARD = """card: t
deck: american-152
year: 2026
lines:
  - {{id: kongs, section: Like Numbers, value: 25, hand: "FFFF nnnna nnnnb 11c ; n in 2..3"}}
  - {{id: sums, section: Addition, value: {sums_value}, hand: "{sums}"}}
{extra}"""
OLD = CARD.format(sums_value=25, sums="FFFF (4444a 9999b|5555a 8888b) 13c",
                  extra='  - {id: gone, value: 50, concealed: true, hand: "NN EE WW SS 11a 22a '
                        '33a"}\n')
NEW = CARD.format(sums_value=30, sums="FFFF (4444a 9999b|5555a 8888b|6666a 7777b) 13c",
                  extra='  - {id: fresh, value: 25, hand: "FF 2026a 2026b 2026c"}\n')


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_show_json_lists_every_variation_and_its_joker_groups(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "old.yaml", OLD)
    status, out, _ = run_cli(capsys, "card", "show", path, "--json")
    assert status == 0
    data = json.loads(out)
    assert [line["id"] for line in data["lines"]] == ["kongs", "sums", "gone"]
    kongs = data["lines"][0]
    assert kongs["hand"] == "FFFF nnnna nnnnb 11c ; n in 2..3"
    assert len(kongs["variations"]) == 2 * 3  # like kongs in two suits, the pair in the third
    first = kongs["variations"][0]["groups"]
    assert first == [{"tiles": ["F"] * 4, "jokers": True}, {"tiles": ["2B"] * 4, "jokers": True},
                     {"tiles": ["2C"] * 4, "jokers": True}, {"tiles": ["1D", "1D"],
                                                             "jokers": False}]
    status, out, _ = run_cli(capsys, "card", "show", path, "--json", "--line", "gone")
    (gone,) = json.loads(out)["lines"]
    assert gone["concealed"] is True
    assert all(not g["jokers"] for v in gone["variations"] for g in v["groups"])


def test_show_marks_the_groups_jokers_may_fill(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "old.yaml", OLD)
    _, out, _ = run_cli(capsys, "card", "show", path, "--line", "kongs")
    lines = out.splitlines()
    assert lines[1] == "    1  F F F F (J) | 2B 2B 2B 2B (J) | 2C 2C 2C 2C (J) | 1D 1D"
    assert lines[-1] == "  (J) after a group: jokers may stand in it"


def test_diff_of_two_cards(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old, new = _write(tmp_path, "old.yaml", OLD), _write(tmp_path, "new.yaml", NEW)
    status, out, _ = run_cli(capsys, "card", "diff", old, new)
    assert status == 0
    assert out.splitlines() == [
        f"--- {old}",
        f"+++ {new}",
        "added: fresh: FF 2026a 2026b 2026c (1 variation)",
        "removed: gone: NN EE WW SS 11a 22a 33a (3 variations)",
        "changed: sums: hand 'FFFF (4444a 9999b|5555a 8888b) 13c' -> "
        "'FFFF (4444a 9999b|5555a 8888b|6666a 7777b) 13c'; value 25 -> 30",
        "  gained 6 variations:",
        "    F F F F | 6B 6B 6B 6B | 7C 7C 7C 7C | 1D 3D",
        "    F F F F | 6B 6B 6B 6B | 7D 7D 7D 7D | 1C 3C",
        "    F F F F | 6C 6C 6C 6C | 7B 7B 7B 7B | 1D 3D",
        "    F F F F | 6C 6C 6C 6C | 7D 7D 7D 7D | 1B 3B",
        "    F F F F | 6D 6D 6D 6D | 7B 7B 7B 7B | 1C 3C",
        "    ... and 1 more",
        "1 line the same, 1 added, 1 removed, 1 changed",
    ]
    assert run_cli(capsys, "card", "diff", old, new, "--check")[0] == 1
    assert run_cli(capsys, "card", "diff", old, old, "--check")[0] == 0


def test_diff_against_its_own_json_finds_nothing(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    old = _write(tmp_path, "old.yaml", OLD)
    _, out, _ = run_cli(capsys, "card", "show", old, "--json")
    exported = _write(tmp_path, "old.json", out)
    status, out, _ = run_cli(capsys, "card", "diff", old, exported, "--check")
    assert status == 0
    assert out.splitlines()[-1] == "3 lines the same, 0 added, 0 removed, 0 changed"


def test_diff_against_tile_lists_from_another_source(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A transcription checked against an expansion listed elsewhere, tiles in
    any order: one variation is missing from the transcription."""
    kongs = [[f"{n}{s}" for s in suits for _ in range(4)] + ["1" + third] * 2 + ["F"] * 4
             for n in (2, 3, 4) for suits, third in (("BC", "D"), ("BD", "C"), ("CD", "B"))]
    listed = _write(tmp_path, "listed.json", json.dumps({"kongs": kongs}))
    old = _write(tmp_path, "old.yaml", OLD)
    status, out, _ = run_cli(capsys, "card", "diff", old, listed)
    assert status == 0
    lines = out.splitlines()
    assert lines[2] == "removed: sums: FFFF (4444a 9999b|5555a 8888b) 13c (12 variations)"
    assert lines[4:6] == ["changed: kongs", "  gained 3 variations:"]
    assert lines[6].startswith("    4B 4B 4B 4B 4C 4C 4C 4C 1D 1D F F F F")


@pytest.mark.parametrize(("content", "message"), [
    ("[1, 2]", "$: expected an object"),
    ('{"kongs": [["1B", 2]]}', "$.kongs[0]: expected a list of tile codes"),
    ('{"lines": [{"variations": []}]}', "$.lines[0]: a line needs an 'id'"),
    ("{not json", "not JSON"),
])
def test_diff_refuses_a_bad_expansion_with_its_place(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str) -> None:
    bad = _write(tmp_path, "bad.json", content)
    status, out, err = run_cli(capsys, "card", "diff", "sample", bad)
    assert status == 1
    assert out == ""
    assert err.startswith(f"error: {bad}: {message}")


# -- render ----------------------------------------------------------------------------
COLOURS = {"a": (0x11, 0x80, 0x4A), "b": (0xC8, 0x10, 0x2E), "c": (0x1D, 0x4F, 0xC4)}


def test_render_writes_sections_lines_colours_values(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "card.html"
    status, printed, _ = run_cli(capsys, "card", "render", "sample", "-o", str(out))
    assert status == 0 and printed.strip() == f"card 'sample': 62 lines -> {out}"
    html = out.read_text()
    assert "<h2>2026</h2>" in html and "<h2>Consecutive Run</h2>" in html
    assert html.count("<tr id=") == 62
    year_1 = html[html.index('<tr id="year-1">'):].split("</tr>")[0]
    assert 'style="color: #11804a">2026</span>' in year_1  # {year}a, in the first colour
    assert '<td class="value">25</td><td class="cx">X</td>' in year_1
    assert run_cli(capsys, "card", "render", "sample", "-o", str(out))[0] == 1  # never overwritten


def test_render_prints_the_signs_inside_a_choice(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    card = CARD.format(sums_value=25, sums="FFFF (3333a + 9999b|4444a + 8888b) = 12c", extra="")
    out = tmp_path / "card.html"
    status, _, err = run_cli(capsys, "card", "render", _write(tmp_path, "t.yaml", card),
                             "-o", str(out))
    assert status == 0, err
    sums = out.read_text().split('<tr id="sums">')[1].split("</tr>")[0]
    options = re.findall(r'<span class="option">(.*?)</span>(?=\)|<span class="or">)', sums)
    assert [re.sub(r"<[^>]+>", " ", o).split() for o in options] == [
        ["3333", "+", "9999"], ["4444", "+", "8888"]]
    assert sums.count('<span class="sign">') == 3  # the two in the choice, and "="


def test_render_refuses_to_replace_a_file(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "card.html"
    out.write_text("mine")
    status, _, err = run_cli(capsys, "card", "render", "sample", "-o", str(out))
    assert status == 1 and "exists; give --force" in err
    assert out.read_text() == "mine"


def _png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and rows (RGB or RGBA bytes) of an 8-bit PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks, header = 8, b"", b""
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks += body
        at += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour in (2, 6)
    size = 3 if colour == 2 else 4
    raw, rows, previous = zlib.decompress(chunks), [], bytearray(width * size)
    stride = width * size
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) *
                                                          (stride + 1)])
        for x in range(stride):
            left = line[x - size] if x >= size else 0
            up, corner = previous[x], previous[x - size] if x >= size else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                guess = left + up - corner
                pa, pb, pc = abs(guess - left), abs(guess - up), abs(guess - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc
                                      else corner)) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, [bytes(r[i:i + 3]) for r in rows for i in range(0, stride, size)]


@pytest.mark.skipif(not Path("/usr/bin/chromium").exists(),
                    reason="/usr/bin/chromium is missing (Debian's 'chromium' package)")
def test_render_looks_like_a_card_in_a_browser(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """A screenshot of the page in headless Chromium shows the three suit
    colours, and black for the honours."""
    page = tmp_path / "card.html"
    run_cli(capsys, "card", "render", "sample", "-o", str(page))
    shot = tmp_path / "card.png"
    subprocess.run(
        ["/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}",
         f"--screenshot={shot}", "--window-size=900,700", page.as_uri()],
        check=True, capture_output=True, timeout=120)
    width, height, pixels = _png_pixels(shot.read_bytes())
    assert (width, height) == (900, 700)
    seen = set(pixels)
    for letter, colour in COLOURS.items():
        assert bytes(colour) in seen, f"no text in the colour of suit letter {letter}"
    assert any(max(p) < 0x30 for p in seen)  # black ink: honours, values
