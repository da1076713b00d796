"""Sphinx extension: an author-year bibliography to match the author-year citations.

``bibtex_reference_style: author_year`` makes the text read "Hopfield (1982)", but pybtex's
``plain`` style labels the bibliography 1, 2, 3, ..., which the reader cannot match to the text.
This registers the pybtex formatting style ``assocmem_authoryear``: ``plain`` with labels such
as "Hopfield, 1982", "Krotov and Hopfield, 2016" and "Demircigil et al., 2017" ("n.d." when a
source gives no year; "a", "b", ... appended when two labels coincide).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from pybtex.plugin import register_plugin
from pybtex.style.formatting.plain import Style as PlainStyle
from pybtex.style.labels import BaseLabelStyle
from sphinx.application import Sphinx

__all__ = ["AuthorYearLabelStyle", "AuthorYearStyle", "setup"]

STYLE_NAME = "assocmem_authoryear"


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the label and formatting styles with pybtex (Sphinx entry point)."""
    register_plugin("pybtex.style.labels", STYLE_NAME, AuthorYearLabelStyle, force=True)
    register_plugin("pybtex.style.formatting", STYLE_NAME, AuthorYearStyle, force=True)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}


def _last_name(person: Any) -> str:
    """A person's last name(s) without BibTeX braces."""
    return " ".join(person.prelast_names + person.last_names).replace("{", "").replace("}", "")


def _label(entry: Any) -> str:
    persons = entry.persons.get("author") or entry.persons.get("editor") or []
    names = [_last_name(p) for p in persons]
    if not names:
        who = entry.fields.get("key", entry.key)
    elif len(names) == 1:
        who = names[0]
    elif len(names) == 2:
        who = f"{names[0]} and {names[1]}"
    else:
        who = f"{names[0]} et al."
    return f"{who}, {entry.fields.get('year', 'n.d.')}"


class AuthorYearLabelStyle(BaseLabelStyle):
    """Labels "Author, Year" with a letter suffix for repeated labels."""

    def format_labels(self, sorted_entries: Iterable[Any]) -> Iterator[str]:
        entries = list(sorted_entries)
        labels = [_label(e) for e in entries]
        counts = Counter(labels)
        seen: Counter[str] = Counter()
        for label in labels:
            if counts[label] > 1:
                yield f"{label}{chr(ord('a') + seen[label])}"
                seen[label] += 1
            else:
                yield label


class AuthorYearStyle(PlainStyle):
    """pybtex's ``plain`` style with :class:`AuthorYearLabelStyle` labels."""

    default_label_style = STYLE_NAME
