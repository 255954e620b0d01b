"""Every relative link of README.md and docs/*.md names a file that exists,
and a `#` link a heading of that file (as GitHub names headings)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def outside_code(text: str) -> str:
    """The text without fenced blocks and inline code, where brackets are not links."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def anchors(page: Path) -> set[str]:
    """GitHub's names for a page's headings: lower case, punctuation dropped,
    spaces to hyphens."""
    names = set()
    for heading in re.findall(r"^#+ (.+)$", outside_code(page.read_text(encoding="utf-8")),
                              re.M):
        names.add(re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-"))
    return names


def links(page: Path) -> list[str]:
    return LINK.findall(outside_code(page.read_text(encoding="utf-8")))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_relative_links_resolve(page: Path) -> None:
    broken = []
    for target in links(page):
        if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{target}: no heading '{anchor}' in {file.name}")
    assert not broken, f"{page.relative_to(ROOT)}: {broken}"


def test_the_check_finds_a_broken_link(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Top\n\n[gone](gone.md) [here](#top) [there](#nowhere) `[no](x)`\n")
    assert links(page) == ["gone.md", "#top", "#nowhere"]
    assert anchors(page) == {"top"}


def test_every_doc_is_linked_from_the_readme_or_another_doc() -> None:
    """A page no link leads to is lost to a reader."""
    reached = {(page.parent / t.partition("#")[0]).resolve()
               for page in PAGES for t in links(page) if not re.match(r"[a-z]+:", t)}
    lost = [p.name for p in PAGES[1:] if p.resolve() not in reached]
    assert not lost
