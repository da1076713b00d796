"""The one helper the benchmark scripts share: write a table between markers of README.md."""

from __future__ import annotations

from pathlib import Path


def write_section(name: str, table: str) -> None:
    """Replace the section between ``<!-- name:start -->`` and ``<!-- name:end -->`` of
    benchmarks/README.md with ``table`` (the markers are appended if missing)."""
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    path = Path(__file__).with_name("README.md")
    text = path.read_text() if path.exists() else "# Benchmarks\n"
    block = f"{start}\n{table}\n{end}"
    if start in text and end in text:
        head, rest = text.split(start, 1)
        text = head + block + rest.split(end, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    path.write_text(text)
