"""Claims tables: the paper's statement against our measurement, with a verdict we derive.

A :class:`Claim` never takes a verdict. It takes what was measured, what it is compared with
(the paper's value, or our own derivation) and a :class:`Tolerance` built by one of
:func:`exact`, :func:`absolute`, :func:`relative`, :func:`at_most`, :func:`at_least` or
:func:`predicate`; the verdict follows from those three, and the table prints the tolerance in its
own column, so a reader sees the band a row was judged by.

Each row has a kind:

``"reproduction"``
    The paper states something and we measure it. The row agrees or disagrees; a disagreeing row
    says why (finite size, a different protocol).
``"consistency"``
    A check of our own code against itself (a set equals the intersection it is defined by, two
    routes to one number agree). It can only fail through a bug, so its tolerance is exact or at
    numerical precision, and a failing one raises :class:`ConsistencyError` instead of printing.
``"paper error"``
    The paper's statement is wrong and the measurement shows it: the row must disagree under its
    tolerance, or it raises ``ValueError``. Later pages gather these rows by their kind.

The table renders reproductions first, then the paper errors and the consistency checks, each
under its own heading; every row carries ``data-kind``, ``data-rule`` and ``data-tolerance``
attributes so that a test (or an errata page) can read them back from the built HTML.
"""

from __future__ import annotations

import html
import math
import numbers
import re
from collections.abc import Callable, Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import Any

import numpy as np

from assocmem._validation import (
    as_real_vector,
    check_bool,
    check_option,
    check_positive_float,
    check_positive_int,
)

from ._checks import check_results

__all__ = [
    "KINDS",
    "NUMERICAL_PRECISION",
    "Claim",
    "ClaimsTable",
    "ConsistencyError",
    "Tolerance",
    "absolute",
    "at_least",
    "at_most",
    "check_row",
    "claims_table",
    "exact",
    "predicate",
    "relative",
    "spread",
]

#: The kinds of row, in the order a table renders them.
KINDS = ("reproduction", "paper error", "consistency")
#: Largest tolerance (absolute, or relative to the reference) a consistency check may use.
NUMERICAL_PRECISION = 1e-6
#: Largest relative tolerance a reproduction may use: beyond it "agree" says nothing.
MAX_RELATIVE = 0.5
#: Largest relative band that the word "near-exact" (or "nearly exact") in a claim allows.
NEAR_EXACT = 0.05
_RULES = ("exact", "absolute", "relative", "at_most", "at_least", "predicate")
_HEADINGS = {
    "reproduction": "",
    "paper error": "Where the paper is wrong",
    "consistency": "Consistency checks of our code (these can only fail through a bug)",
}
_VERDICTS = {
    ("reproduction", True): "agree",
    ("reproduction", False): "disagree",
    ("paper error", False): "paper wrong",
    ("consistency", True): "holds",
}
_MAX_SHOWN = 6  # entries of an array shown in a default "ours" cell
# Inline styles, so a table reads the same in JupyterLab and in the book (no stylesheet to load):
# rules between rows, top-aligned cells, and a verdict colour that is not the only cue (the
# word is printed too). The colours pass WCAG AA contrast on white.
_TABLE_STYLE = "border-collapse:collapse;width:100%;table-layout:fixed"
# Fixed layout with these shares of the column (the header row sets them): the table never
# grows past the column, and a word breaks only when it is longer than its column is wide.
_COLUMN_WIDTHS = ("24%", "14%", "19%", "15%", "12%", "16%")
_CELL_STYLE = (
    "padding:4px 6px;vertical-align:top;text-align:left;border-bottom:1px solid #d0d7de;"
    "overflow-wrap:break-word"  # only a word longer than its column breaks
)
_HEAD_STYLE = "border-bottom:2px solid #57606a"
_GROUP_STYLE = "background:#f6f8fa;font-style:italic;font-weight:600"
_VERDICT_STYLE = {
    "agree": "color:#1a7f37;font-weight:600",
    "disagree": "color:#9a6700;font-weight:600",
    "paper wrong": "color:#cf222e;font-weight:600",
    "holds": "color:#57606a",
}


class ConsistencyError(AssertionError):
    """A consistency check of our own code failed: a bug, never a finding."""


@dataclass(frozen=True)
class Tolerance:
    """How a measured value is compared with its reference; build one with the factories.

    Parameters
    ----------
    rule : str
        One of ``"exact"``, ``"absolute"``, ``"relative"``, ``"at_most"``, ``"at_least"``,
        ``"predicate"``.
    value : float
        The band of ``"absolute"`` and ``"relative"`` (0 otherwise).
    strict : bool
        For ``"at_most"``/``"at_least"``: a strict inequality.
    name : str
        For ``"predicate"``: what the predicate asserts, as the table prints it.
    fn : callable or None
        For ``"predicate"``: a function of the measured value returning a bool.
    """

    rule: str
    value: float = 0.0
    strict: bool = False
    name: str = ""
    fn: Callable[[Any], Any] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        check_option(self.rule, "rule", _RULES)
        check_bool(self.strict, "strict")
        if self.rule in ("absolute", "relative"):
            check_positive_float(self.value, "value")
        elif self.value != 0:
            raise ValueError(f"value must be 0 for a {self.rule} tolerance, got {self.value!r}")
        if self.rule == "predicate":
            if not isinstance(self.name, str) or not self.name.strip():
                raise TypeError(f"name must be a non-empty string, got {self.name!r:.80}")
            if not callable(self.fn):
                raise TypeError(f"fn must be a callable of the measured value, got {self.fn!r:.80}")
        elif self.name != "" or self.fn is not None:
            raise ValueError(f"name and fn belong to a predicate tolerance, not a {self.rule} one")

    def holds(self, measured: Any, reference: Any) -> bool:
        """Whether ``measured`` lies within this tolerance of ``reference`` (every entry)."""
        if self.rule == "predicate":
            return _predicate_verdict(self, measured)
        if self.rule == "exact":
            return _equal(measured, reference)
        m, r = _numeric(measured, "measured"), _numeric(reference, "reference")
        if self.rule == "at_most":
            return bool(np.all(m < r if self.strict else m <= r))
        if self.rule == "at_least":
            return bool(np.all(m > r if self.strict else m >= r))
        with np.errstate(invalid="ignore"):
            gap = np.where(m == r, 0.0, np.abs(m - r))
        band = self.value * (np.abs(r) if self.rule == "relative" else 1.0)
        return bool(np.all(gap <= band))

    def relative_band(self, reference: Any) -> float:
        """The band as a fraction of the reference's magnitude (0 for exact).

        For an array the magnitude is its largest entry's (a curve that crosses zero is judged
        against its scale, not against its smallest value); an absolute band around a reference
        of 0 is taken as is. One-sided and predicate tolerances have no band and return ``inf``.
        """
        if self.rule == "exact":
            return 0.0
        if self.rule == "relative":
            return self.value
        if self.rule == "absolute":
            scale = float(np.max(np.abs(_numeric(reference, "reference"))))
            return self.value / (scale if scale > 0 else 1.0)
        return math.inf

    def describe(self, reference: Any) -> str:
        """The tolerance as the table's column prints it, e.g. ``0.476 ± 5 %`` or ``≤ 5``."""
        scalar = _is_scalar(reference)
        ref = _format_value(reference) if scalar else ""
        each = "" if scalar else "each "
        if self.rule == "predicate":
            return self.name
        if self.rule == "exact":
            return f"= {ref}" if scalar and ref else "equal, entry by entry"
        if self.rule in ("at_most", "at_least"):
            sign = {"at_most": ("≤", "<"), "at_least": ("≥", ">")}[self.rule][self.strict]
            return f"{each}{sign} {ref or 'reference'}".strip()
        band = f"{self.value:.3g}" if self.rule == "absolute" else _percent(self.value)
        return f"{ref} ± {band}" if scalar else f"each ± {band}"


def exact() -> Tolerance:
    """Equality: numbers, arrays (same shape, same entries; a scalar against every entry), strings.

    Examples
    --------
    >>> exact().holds([1, 3, 3], [1, 3, 3])
    True
    """
    return Tolerance("exact")


def absolute(tol: Any) -> Tolerance:
    """``|measured - reference| <= tol`` for every entry; ``tol`` a finite number > 0.

    Examples
    --------
    >>> absolute(0.01).holds(0.505, 0.5)
    True
    """
    return Tolerance("absolute", check_positive_float(tol, "tol"))


def relative(tol: Any) -> Tolerance:
    """``|measured - reference| <= tol * |reference|`` for every entry; ``0 < tol <= 1``.

    Examples
    --------
    >>> relative(0.05).holds(0.379, 0.476)
    False
    """
    value = check_positive_float(tol, "tol")
    if value > 1:
        raise ValueError(f"tol must lie in (0, 1] (a fraction of the reference), got {value!r}")
    return Tolerance("relative", value)


def at_most(strict: bool = False) -> Tolerance:
    """One-sided: every entry of ``measured <= reference`` (``<`` if ``strict``).

    Examples
    --------
    >>> at_most().holds([2, 3, 1], 3)
    True
    """
    return Tolerance("at_most", strict=check_bool(strict, "strict"))


def at_least(strict: bool = False) -> Tolerance:
    """One-sided: every entry of ``measured >= reference`` (``>`` if ``strict``).

    Examples
    --------
    >>> at_least(strict=True).holds(7, 5)
    True
    """
    return Tolerance("at_least", strict=check_bool(strict, "strict"))


def predicate(name: Any, fn: Any) -> Tolerance:
    """A named test of the measured value, for claims that are not a band around a number.

    Parameters
    ----------
    name : str
        What the predicate asserts, printed in the tolerance column ("strictly increasing").
    fn : callable
        ``fn(measured)`` returns a bool (Python or NumPy).

    Examples
    --------
    >>> rising = predicate("strictly increasing", lambda v: bool(np.all(np.diff(v) > 0)))
    >>> rising.holds([0.1, 0.2, 0.4], None)
    True
    """
    return Tolerance("predicate", name=name.strip() if isinstance(name, str) else name, fn=fn)


@dataclass(frozen=True)
class Claim:
    """One row of a claims table; the verdict is derived, never given.

    Parameters
    ----------
    claim : str
        The statement, with its place in the paper ("Thm 1", "Fig. 3 left").
    paper : str, optional
        The paper's value or wording as printed; default: the reference, formatted.
    measured : number, array-like or str
        What we measured or computed. Not a bool: pass the values compared, not a verdict.
    reference : number, array-like or str, optional
        What ``measured`` is compared with (the paper's value, or our derivation). Required
        unless ``test`` is a :func:`predicate`.
    test : Tolerance
        From :func:`exact`, :func:`absolute`, :func:`relative`, :func:`at_most`,
        :func:`at_least` or :func:`predicate`.
    ours : str, optional
        Our value as the table prints it; default: ``measured``, formatted.
    reason : str
        Why the verdict is what it is (finite size, the correction that applies). Required
        when a reproduction disagrees and for a paper error.
    kind : str
        ``"reproduction"`` (default), ``"consistency"`` or ``"paper error"``.
    protocol : str
        Where our protocol differs from the paper's, said in the row.

    Attributes
    ----------
    agree : bool
        Whether ``measured`` lies within ``test`` of ``reference``.
    verdict : str
        ``"agree"``/``"disagree"`` (reproduction), ``"holds"`` (consistency) or ``"paper wrong"``.

    Raises
    ------
    TypeError
        If a text field is not a string, ``test`` is not a :class:`Tolerance`, or ``measured``
        or ``reference`` is a bool (a verdict in disguise).
    ValueError
        If ``kind`` is unknown, a value is NaN or empty, ``reference`` is missing, the tolerance
        does not fit the kind (see :func:`check_row`), a reproduction disagrees without a reason,
        or a paper-error row agrees with the paper.
    ConsistencyError
        If a consistency check fails.

    Examples
    --------
    >>> row = Claim("two points: 3 minima (Sec. 3)", paper="3", measured=3, reference=3,
    ...             test=exact(), reason="exact enumeration")
    >>> row.verdict
    'agree'
    """

    claim: str
    _: KW_ONLY
    measured: Any
    test: Tolerance
    reference: Any = None
    paper: str | None = None
    ours: str | None = None
    reason: str = ""
    kind: str = "reproduction"
    protocol: str = ""
    agree: bool = field(init=False)

    def __post_init__(self) -> None:
        for name in ("claim", "paper", "ours", "reason", "protocol"):
            value = getattr(self, name)
            if not isinstance(value, str) and not (value is None and name in ("paper", "ours")):
                raise TypeError(f"{name} must be a string, got {value!r:.80}")
        if not isinstance(self.test, Tolerance):
            raise TypeError(
                "test must be a Tolerance from exact(), absolute(), relative(), at_most(), "
                f"at_least() or predicate(), got {self.test!r:.80}"
            )
        check_option(self.kind, "kind", KINDS)
        _check_value(self.measured, "measured")
        if self.test.rule != "predicate":
            if self.reference is None:
                raise ValueError(f"reference is required with a {self.test.rule} tolerance")
            _check_value(self.reference, "reference")
            _check_shapes(self.measured, self.reference, self.test.rule)
        try:
            check_row(self.kind, self.test.rule, self.band, f"{self.claim} {self.reason}")
        except ValueError as err:
            raise ValueError(
                f"test {self.tolerance_text!r} of claim {self.claim!r:.80}: {err}"
            ) from None
        object.__setattr__(self, "agree", self.test.holds(self.measured, self.reference))
        self._check_verdict()

    def _check_verdict(self) -> None:
        where = f"claim {self.claim!r:.120}"
        if self.kind == "consistency" and not self.agree:
            raise ConsistencyError(
                f"{where}: consistency check failed (measured {_format_value(self.measured)}, "
                f"required {self.tolerance_text}); this is a bug in our code"
            )
        if self.kind == "paper error" and self.agree:
            raise ValueError(
                f"{where}: kind 'paper error' but the measurement agrees with the reference "
                f"within {self.tolerance_text}; the paper is not shown wrong by this row"
            )
        if self.kind != "consistency" and not self.agree and not self.reason.strip():
            raise ValueError(f"{where}: reason must say why the row disagrees, got ''")

    @property
    def band(self) -> float:
        """The tolerance as a fraction of the reference (0 exact, ``inf`` one-sided/predicate)."""
        return self.test.relative_band(self.reference)

    @property
    def verdict(self) -> str:
        """The derived verdict as the table prints it."""
        return _VERDICTS[(self.kind, self.agree)]

    @property
    def tolerance_text(self) -> str:
        """The tolerance as the table prints it."""
        return self.test.describe(self.reference)

    def cells(self) -> tuple[str, str, str, str, str, str]:
        """The six printed cells: claim, paper, ours, tolerance, verdict, why."""
        paper = self.paper if self.paper is not None else _format_value(self.reference)
        ours = self.ours if self.ours is not None else _format_value(self.measured)
        why = self.reason
        if self.protocol:
            stop = "" if not why or why.rstrip().endswith((".", ";", ":", "!", "?")) else "."
            why = f"{why.rstrip()}{stop} Our protocol differs: {self.protocol}".strip()
        return (self.claim, paper, ours, self.tolerance_text, self.verdict, why)

    def record(self) -> dict[str, Any]:
        """The row as a plain dict (kind, rule, band, verdict and the printed cells)."""
        keys = ("claim", "paper", "ours", "tolerance", "verdict", "why")
        return {
            **dict(zip(keys, self.cells(), strict=True)),
            "kind": self.kind,
            "rule": self.test.rule,
            "band": self.band,
            "agree": self.agree,
        }


class ClaimsTable:
    """An HTML table of :class:`Claim` rows, grouped by kind, for JupyterLab and the book."""

    def __init__(self, claims: Sequence[Claim]) -> None:
        self.claims = tuple(check_results(claims, "claims", Claim, single=False))

    @property
    def all_agree(self) -> bool:
        """Whether every reproduction row agrees (paper errors disagree by definition)."""
        return all(c.agree for c in self.claims if c.kind == "reproduction")

    def records(self) -> list[dict[str, Any]]:
        """Every row as :meth:`Claim.record` returns it, in table order."""
        return [c.record() for c in self._ordered()]

    def _ordered(self) -> list[Claim]:
        return sorted(self.claims, key=lambda c: KINDS.index(c.kind))

    def _repr_html_(self) -> str:
        head = ("Claim", "Paper", "Ours", "Tolerance", "Verdict", "Why")
        out = [f"<table class='assocmem-claims' style='{_TABLE_STYLE}'><thead><tr>"]
        out += [
            f"<th style='{_CELL_STYLE};{_HEAD_STYLE};width:{w}'>{h}</th>"
            for h, w in zip(head, _COLUMN_WIDTHS, strict=True)
        ]
        out.append("</tr></thead>")
        for kind in KINDS:
            rows = [c for c in self.claims if c.kind == kind]
            if not rows:
                continue
            out.append(f"<tbody class='claims-{kind.replace(' ', '-')}'>")
            if _HEADINGS[kind]:
                out.append(
                    f"<tr class='claims-group'><th colspan='6' style='{_CELL_STYLE};"
                    f"{_GROUP_STYLE}'>{_HEADINGS[kind]}</th></tr>"
                )
            out += [_row_html(c) for c in rows]
            out.append("</tbody>")
        out.append("</table>")
        return "".join(out)


def claims_table(claims: Sequence[Claim]) -> ClaimsTable:
    """Return a displayable table of claims (the last cell of each reproducing section).

    Examples
    --------
    >>> t = claims_table([Claim("two points: 3 minima (Sec. 3)", measured=3, reference=3,
    ...                         test=exact())])
    >>> t.all_agree
    True
    """
    return ClaimsTable(claims)


def check_row(kind: Any, rule: Any, band: Any, claim: Any = "") -> None:
    """Raise ``ValueError`` if a tolerance does not fit its row's kind or its claim's wording.

    Parameters
    ----------
    kind : str
        One of :data:`KINDS`.
    rule : str
        The tolerance's rule (``Tolerance.rule``).
    band : float
        The tolerance as a fraction of the reference (``Tolerance.relative_band``): 0 for exact,
        ``inf`` for one-sided and predicate tolerances.
    claim : str
        The claim's text, whose wording the band must fit.

    Notes
    -----
    - A consistency check is exact, one-sided or a predicate, or its band is at most
      ``NUMERICAL_PRECISION``.
    - A reproduction's band is at most ``MAX_RELATIVE``.
    - A claim (or its reason) that says "near-exact" is judged within ``NEAR_EXACT``; one that
      says "exact agreement" or "matches exactly" within ``NUMERICAL_PRECISION``.

    The table writes each row's kind, rule and band into the built HTML, and the book's tests
    apply this function to every row there.
    """
    check_option(kind, "kind", KINDS)
    check_option(rule, "rule", _RULES)
    if isinstance(band, bool) or not isinstance(band, numbers.Real) or math.isnan(band):
        raise TypeError(f"band must be a number >= 0, got {band!r:.80}")
    if not isinstance(claim, str):
        raise TypeError(f"claim must be a string, got {claim!r:.80}")
    banded = rule in ("absolute", "relative")
    if kind == "consistency" and banded:
        _limit_band(band, NUMERICAL_PRECISION, "a consistency check")
    if kind == "reproduction" and banded:
        _limit_band(band, MAX_RELATIVE, "a reproduction")
    text = claim.lower()
    if re.search(r"near[- ]?exact|(nearly|almost) exact", text):
        _limit_band(band, NEAR_EXACT, 'a claim of "near-exact" agreement')
    elif re.search(r"exact(ly)? (agreement|match)|(agrees?|match(es)?) exactly", text):
        _limit_band(band, NUMERICAL_PRECISION, 'a claim of "exact" agreement')


def spread(values: Any, digits: int = 3) -> str:
    """``mean ± std (n = …, range lo–hi)`` of many instances, for a row's "ours" cell.

    ``values`` is a 1-D array of finite numbers; ``digits`` (1 to 10) the significant digits of
    the mean and range.

    Examples
    --------
    >>> spread([1.0, 2.0, 3.0], digits=2)
    '2 ± 0.82 (n = 3, range 1–3)'
    """
    v = as_real_vector(values, "values")
    digits = check_positive_int(digits, "digits", maximum=10)
    g = f".{digits}g"
    with np.errstate(over="ignore"):  # entries near the float limit: the spread is inf
        mean, std = v.mean(), v.std()
    return f"{mean:{g}} ± {std:.2g} (n = {v.size}, range {v.min():{g}}–{v.max():{g}})"


def _row_html(c: Claim) -> str:
    band = c.band
    attrs = (
        f"class='claim-{c.verdict.replace(' ', '-')}' data-kind='{c.kind}' "
        f"data-rule='{c.test.rule}' data-band='{band:.6g}'"
    )
    texts = c.cells()
    styles = [_CELL_STYLE] * 4 + [f"{_CELL_STYLE};{_VERDICT_STYLE[c.verdict]}", _CELL_STYLE]
    cells = "".join(
        f"<td style='{st}'>{html.escape(v)}</td>" for v, st in zip(texts, styles, strict=True)
    )
    return f"<tr {attrs}>{cells}</tr>"


def _limit_band(band: float, limit: float, what: str) -> None:
    if band > limit:
        raise ValueError(
            f"the tolerance is too loose for {what}: its band is {_percent(band)} of the "
            f"reference, allowed at most {_percent(limit)}"
        )


def _predicate_verdict(test: Tolerance, measured: Any) -> bool:
    out = test.fn(measured) if test.fn is not None else None
    if not isinstance(out, bool | np.bool_):
        raise TypeError(f"predicate {test.name!r} must return a bool, got {out!r:.80}")
    return bool(out)


def _equal(measured: Any, reference: Any) -> bool:
    if isinstance(measured, str) or isinstance(reference, str):
        return measured == reference
    m, r = np.asarray(measured), np.asarray(reference)
    if m.shape != r.shape and (m.ndim == 0 or r.ndim == 0):
        return bool(np.all(m == r))  # a scalar against every entry
    return bool(np.array_equal(m, r))


def _numeric(value: Any, name: str) -> np.ndarray:
    try:
        out = np.asarray(value, dtype=float)
    except (TypeError, ValueError) as err:
        raise TypeError(
            f"{name} must be a number or an array of numbers, got {value!r:.80}"
        ) from err
    return out


def _check_value(value: Any, name: str) -> None:
    if value is None:
        raise TypeError(f"{name} must be a number, an array of numbers or a string, got None")
    if isinstance(value, bool | np.bool_):
        raise TypeError(
            f"{name} must be the value compared, not a verdict: got the bool {value!r}; pass the "
            "numbers (or arrays) and let the tolerance decide"
        )
    if isinstance(value, str):
        return
    arr = np.asarray(value)
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty, got {value!r:.80}")
    if arr.dtype.kind == "c":
        raise TypeError(f"{name} must be real, got {value!r:.80}")
    if arr.dtype.kind == "O":
        raise TypeError(
            f"{name} must be a number, an array of numbers or a string, got {value!r:.80}"
        )
    if arr.dtype.kind == "f" and np.any(np.isnan(arr)):
        raise ValueError(f"{name} must not contain NaN, got {value!r:.80}")


def _check_shapes(measured: Any, reference: Any, rule: str) -> None:
    if rule == "exact" or isinstance(measured, str) or isinstance(reference, str):
        return
    try:
        np.broadcast_shapes(np.shape(measured), np.shape(reference))
    except ValueError:
        raise ValueError(
            f"measured (shape {np.shape(measured)}) and reference (shape {np.shape(reference)}) "
            "must have the same shape, or one must be a scalar"
        ) from None


def _is_scalar(value: Any) -> bool:
    return value is not None and (isinstance(value, str) or np.ndim(value) == 0)


def _percent(fraction: float) -> str:
    return "∞" if math.isinf(fraction) else f"{100 * fraction:.3g} %"


def _format_value(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    arr = np.asarray(value)
    if arr.ndim == 0:
        item = arr.item()
        return f"{item:.4g}" if isinstance(item, float) else str(item)
    flat = [_format_value(v) for v in arr.ravel()[:_MAX_SHOWN]]
    more = ", …" if arr.size > _MAX_SHOWN else ""
    return f"[{', '.join(flat)}{more}]"
