"""hdp: why is this Sudoku hard?

Python bindings of the hdp library: HDP (hypothesis, disproof, proof) chains, classification
by reduction depth, minimal proofs, exact solving, propagation, and pictures that show
themselves in Jupyter.

Puzzles are strings in any format the ``hdp`` command reads: an 81-character line (``.`` or
``0`` for empty cells, optionally followed by a comment), a 9-line grid, or a pencil-mark grid.
Cells are named by column letter then row digit: ``G8`` is column G, row 8.

Engine settings are keyword arguments with the names and values of the command-line flags
(``max_depth=3``, ``decisions="pairs"``, ``profile="singles"``, ``proof="contradiction"``,
``schedule="sequential"``, ``walk="depth-first"``, ``budget=100000``, ``timeout=2.5``); they are
checked as the command line checks them, and a bad value raises ``ValueError``.

>>> import hdp
>>> r = hdp.classify(["8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."])
>>> r[0]["level"], r[0]["depth_pairs"]
('hard', 2)
"""

from __future__ import annotations

import html as _html
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple

from . import _hdp

__all__ = [
    "Puzzle",
    "Result",
    "canon",
    "chain",
    "classify",
    "classify_frame",
    "classify_iter",
    "generate",
    "hint",
    "minimal",
    "propagate",
    "solve",
    "tree",
]

__version__ = _hdp.__version__

_ENGINE_KEYS = ("max_depth", "decisions", "schedule", "profile", "proof", "walk", "budget", "timeout")


def _engine(**settings: Any) -> Dict[str, Any]:
    return {k: v for k, v in settings.items() if v is not None}


class Result:
    """A result: the fields of the command's JSON record as attributes (and ``to_dict()``),
    ``text`` as the command prints it, and a picture in Jupyter when it has one."""

    def __init__(self, kind: str, fields: Dict[str, Any], text: str, svg: Optional[str] = None):
        self._kind = kind
        self._fields = fields
        self._text = text
        self._svg = svg

    @property
    def text(self) -> str:
        """The result as the ``hdp`` command prints it."""
        return self._text

    def to_dict(self) -> Dict[str, Any]:
        """The fields of the JSON record, as a dict (a copy)."""
        return dict(self._fields)

    def __getattr__(self, name: str) -> Any:
        fields = self.__dict__.get("_fields", {})
        if name in fields:
            return fields[name]
        raise AttributeError(f"{self.__dict__.get('_kind', 'result')} has no field {name!r}")

    def __dir__(self) -> List[str]:
        return sorted(set(super().__dir__()) | set(self._fields))

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={self._fields[k]!r}" for k in list(self._fields)[:4])
        return f"<hdp {self._kind}: {shown}>"

    def __str__(self) -> str:
        return self._text

    def _repr_svg_(self) -> Optional[str]:
        return self._svg

    def _repr_html_(self) -> str:
        """The text as the command prints it (cells named A1..I9), under the picture if any."""
        picture = f"<div>{self._svg}</div>" if self._svg else ""
        return f'{picture}<pre class="hdp-{_html.escape(self._kind).replace(" ", "-")}">{_html.escape(self._text)}</pre>'


def _grid_html(line: str, caption: Optional[str] = None) -> str:
    """A labelled grid as an HTML table: columns A-I, rows 1-9, each cell titled with its name."""
    cols = "ABCDEFGHI"
    out = ['<table class="hdp-grid" style="border-collapse:collapse;font-family:monospace">']
    if caption:
        out.append(f"<caption>{_html.escape(caption)}</caption>")
    out.append("<tr><th></th>" + "".join(f"<th>{c}</th>" for c in cols) + "</tr>")
    for r in range(9):
        cells = []
        for c in range(9):
            v = line[r * 9 + c]
            style = "border:1px solid #999;width:1.6em;height:1.6em;text-align:center"
            if c % 3 == 0:
                style += ";border-left:2px solid #000"
            if r % 3 == 0:
                style += ";border-top:2px solid #000"
            name = f"{cols[c]}{r + 1}"
            cells.append(f'<td title="{name}" style="{style}">{v if v != "." else ""}</td>')
        out.append(f"<tr><th>{r + 1}</th>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return "".join(out)


class Puzzle:
    """A puzzle read from any format ``hdp`` reads; shows its grid in Jupyter.

    Raises ``ValueError`` naming the line and column of a bad character."""

    def __init__(self, text: str):
        self.line, self.label, self._svg = _hdp.read_puzzle(text)

    @property
    def givens(self) -> int:
        """How many cells are given."""
        return sum(c != "." for c in self.line)

    def __str__(self) -> str:
        return self.line

    def __repr__(self) -> str:
        return f"Puzzle({self.line!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Puzzle) and other.line == self.line

    def __hash__(self) -> int:
        return hash(self.line)

    def _repr_svg_(self) -> str:
        return self._svg

    def _repr_html_(self) -> str:
        """The grid as a labelled table: columns A-I, rows 1-9, each cell titled with its name."""
        return _grid_html(self.line, self.label)


def _text(puzzle: Any) -> str:
    return puzzle.line if isinstance(puzzle, Puzzle) else str(puzzle)


def classify_iter(
    puzzles: Iterable[Any],
    *,
    jobs: Optional[int] = None,
    te: bool = False,
    timing: bool = True,
    max_depth: Optional[int] = None,
    decisions: Optional[str] = None,
    schedule: Optional[str] = None,
    profile: Optional[str] = None,
    proof: Optional[str] = None,
    walk: Optional[str] = None,
    budget: Optional[int] = None,
    timeout: Optional[float] = None,
) -> Iterator[Dict[str, Any]]:
    """Classify puzzle lines, yielding one record (a dict) per puzzle in input order.

    Each item is one line, numbered from 1; blank items and ``#`` comments get no record, as in a
    file. A bad line gives a record with ``error`` set and the batch goes on. Records are the
    ones ``hdp classify --format jsonl`` writes, without ``schema`` and ``source``
    (``timing=False`` is ``--no-timing``). The work runs on ``jobs`` threads (default: every
    core) without the GIL, a chunk at a time, so memory stays flat on any input length. Ctrl-C
    raises ``KeyboardInterrupt`` once the puzzles being classified finish."""
    engine = _engine(
        max_depth=max_depth, decisions=decisions, schedule=schedule, profile=profile,
        proof=proof, walk=walk, budget=budget, timeout=timeout,
    )
    if isinstance(puzzles, (str, bytes)):
        raise TypeError("puzzles must be an iterable of puzzle strings, not one string (wrap it in a list)")
    items = (p.line if isinstance(p, Puzzle) else p for p in puzzles)
    return _hdp.classify_iter(items, jobs=jobs, te=te, timing=timing, engine=engine)


def classify(puzzles: Iterable[Any], **options: Any) -> List[Dict[str, Any]]:
    """Classify puzzle lines: a list of records in input order (see ``classify_iter`` for the
    options and the records). For a very long input prefer ``classify_iter``, which streams."""
    return list(classify_iter(puzzles, **options))


def classify_frame(data: Any, column: Optional[str] = None, **options: Any) -> Any:
    """Classify into a pandas DataFrame, one row per puzzle.

    ``data`` is a DataFrame (``column`` names its puzzle column; default ``puzzle``), a Series,
    or any iterable of puzzle lines. For a DataFrame the input's other columns are kept as
    columns of their own beside hdp's (hdp's names win; a clashing input column is renamed with
    an ``input_`` prefix). Rows with a blank puzzle are kept, with empty results."""
    import pandas as pd

    if isinstance(data, pd.DataFrame):
        column = column or "puzzle"
        if column not in data.columns:
            raise ValueError(f"no column {column!r} in the frame (columns: {list(data.columns)})")
        lines = data[column].tolist()
        others = data.drop(columns=[column]).reset_index(drop=True)
    else:
        lines = list(data.tolist() if hasattr(data, "tolist") else data)
        others = None
    # A blank item would get no record; keep every row by numbering records by line.
    records = classify(lines, **options)
    by_line = {r["line"]: r for r in records}
    rows = [by_line.get(i + 1, {"line": i + 1}) for i in range(len(lines))]
    frame = pd.DataFrame.from_records(rows)
    if others is not None:
        clash = {c: f"input_{c}" for c in others.columns if c in frame.columns}
        frame = pd.concat([frame, others.rename(columns=clash)], axis=1)
    return frame


def chain(
    puzzle: Any,
    *,
    given: Optional[str] = None,
    steps: bool = False,
    max_depth: Optional[int] = None,
    decisions: Optional[str] = None,
    schedule: Optional[str] = None,
    profile: Optional[str] = None,
    proof: Optional[str] = None,
    walk: Optional[str] = None,
    budget: Optional[int] = None,
    timeout: Optional[float] = None,
) -> Result:
    """The HDP chain of one puzzle (``hdp chain``): a ``Result`` with the fields of
    ``hdp chain --format json`` (``status``, ``depth``, ``summary``, ``facts``, ``counters``...),
    ``text`` as ``hdp chain`` prints it (``steps=True``: every step), and ``tree`` for its
    decision tree. ``given`` is a context such as ``"I8: 2,7 + G7: 3,9"``."""
    settings = dict(
        max_depth=max_depth, decisions=decisions, schedule=schedule, profile=profile,
        proof=proof, walk=walk, budget=budget, timeout=timeout,
    )
    record, text, _ = _hdp.chain(_text(puzzle), given=given, steps=steps, tree=False, engine=_engine(**settings))
    result = Result("chain", record, text)
    result.__dict__["tree"] = _LazyTree(_text(puzzle), given, settings)
    return result


class _LazyTree:
    """The decision tree of a chain, computed when first drawn."""

    def __init__(self, puzzle: str, given: Optional[str], settings: Dict[str, Any]):
        self._args = (puzzle, given, settings)
        self._svg: Optional[str] = None

    @property
    def svg(self) -> str:
        """The tree as SVG (the proof's path open)."""
        if self._svg is None:
            puzzle, given, settings = self._args
            self._svg = tree(puzzle, given=given, **settings).svg
        return self._svg

    def _repr_svg_(self) -> str:
        return self.svg

    def _repr_html_(self) -> str:
        return f'<div class="hdp-tree">{self.svg}</div>'

    def __repr__(self) -> str:
        return "<hdp tree (shown as a picture in Jupyter; .svg for the text)>"


def tree(puzzle: Any, *, given: Optional[str] = None, **settings: Any) -> Any:
    """The decision tree of one puzzle's analysis (``hdp render tree``), as an object with
    ``svg`` that Jupyter shows as a picture. Takes ``chain``'s engine settings."""
    unknown = set(settings) - set(_ENGINE_KEYS)
    if unknown:
        raise TypeError(f"unexpected keyword argument {sorted(unknown)[0]!r}")
    _, _, svg = _hdp.chain(_text(puzzle), given=given, steps=False, tree=True, engine=_engine(**settings))
    return _Svg("tree", svg or "")


class _Svg:
    def __init__(self, kind: str, svg: str):
        self._kind = kind
        self.svg = svg

    def _repr_svg_(self) -> str:
        return self.svg

    def _repr_html_(self) -> str:
        return f'<div class="hdp-{self._kind}">{self.svg}</div>'

    def __repr__(self) -> str:
        return f"<hdp {self._kind} picture, {len(self.svg)} characters of SVG>"


def minimal(puzzle: Any, **settings: Any) -> Result:
    """The minimal proof of one puzzle (``hdp chain --minimal``): ``lines``, ``status``,
    ``error`` when there is none, and ``text``. Takes ``chain``'s engine settings."""
    unknown = set(settings) - set(_ENGINE_KEYS)
    if unknown:
        raise TypeError(f"unexpected keyword argument {sorted(unknown)[0]!r}")
    record, text = _hdp.minimal(_text(puzzle), engine=_engine(**settings))
    return Result("minimal proof", record, text)


def solve(puzzle: Any, *, timeout: Optional[float] = None) -> Result:
    """Solve one puzzle exactly (``hdp solve --format json``): ``solutions`` (0, 1, or 2 for
    several; ``None`` with ``limit`` set when the time ran out) and ``solution`` when unique."""
    record = _hdp.solve(_text(puzzle), timeout=timeout)
    solution = record.get("solution")
    if solution:
        text = solution
    elif record.get("solutions") is None:
        text = f"unsolved: {record.get('limit')}"
    else:
        text = "no solution" if record["solutions"] == 0 else "multiple solutions"
    svg = Puzzle(solution)._svg if solution else None
    return Result("solution", record, text + "\n", svg)


def propagate(puzzle: Any, *, profile: Optional[str] = None) -> Result:
    """Propagate one puzzle (``hdp propagate --format json``): ``status``, ``pairs``, ``grid``
    (values and candidates), ``rules`` (how often each applied); shows the position in Jupyter."""
    record, svg = _hdp.propagate(_text(puzzle), profile=profile)
    return Result("position", record, record["status"] + "\n", svg)


def canon(puzzle: Any) -> Result:
    """The canonical (minlex) form of one puzzle (``hdp canon --format jsonl``): ``canonical``,
    the smallest of all its isomorphs as 81 characters with ``0`` for empty cells, and
    ``symmetry`` (``transposed``, ``rows``, ``columns``, ``digits``) that maps the puzzle to it.
    Isomorphs have the same form: ``{hdp.canon(p).canonical for p in puzzles}`` counts classes."""
    record = _hdp.canon(_text(puzzle))
    return Result("canonical form", record, record["canonical"] + "\n")


def hint(
    puzzle: Any,
    *,
    given: Optional[str] = None,
    reveal: str = "moves",
    max_depth: Optional[int] = None,
    decisions: Optional[str] = None,
    schedule: Optional[str] = None,
    profile: Optional[str] = None,
    proof: Optional[str] = None,
    walk: Optional[str] = None,
    budget: Optional[int] = None,
    timeout: Optional[float] = None,
) -> Result:
    """The next step from a position (``hdp hint``): a ``Result`` with the fields of
    ``hdp hint --format json`` (``where``, ``fact``, ``text``, ``lines``, ``explained``,
    ``proof_lines``, ``depth``; ``reveal`` leaves out what it does not show) and ``text`` as
    ``hdp hint`` prints it. ``reveal`` is ``"where"`` (the cell), ``"fact"`` or ``"moves"`` (the
    fact, its lines and their moves); ``given`` is the position reached so far, a context such as
    ``"I8: 2,7"``. Only contradictions prove unless ``proof="solution"``. A solved position, a
    puzzle without a unique solution or one not solved within the limits raises ``ValueError``."""
    engine = _engine(
        max_depth=max_depth, decisions=decisions, schedule=schedule, profile=profile,
        proof=proof, walk=walk, budget=budget, timeout=timeout,
    )
    record, text = _hdp.hint(_text(puzzle), given=given, reveal=reveal, engine=engine)
    return Result("hint", record, text)


class GenerateRun:
    """The puzzles of ``generate`` as they are found: an iterator of ``Result`` objects (the
    record of ``hdp generate --format jsonl`` without ``schema`` and ``source``, ``text`` the line
    ``hdp generate`` prints). When it ends short of ``count``, ``shortfall`` says why."""

    def __init__(self, native: Any):
        self._native = native

    def __iter__(self) -> "GenerateRun":
        return self

    def __next__(self) -> Result:
        item = next(self._native)
        record, text = item
        return Result("generated puzzle", record, text)

    @property
    def shortfall(self) -> Optional[str]:
        """Why the run ended before ``count`` puzzles (``None`` while running or when complete)."""
        return self._native.shortfall


def generate(
    *,
    level: Optional[str] = None,
    depth: Optional[int] = None,
    te: Optional[int] = None,
    count: int = 1,
    minimal: bool = False,
    symmetry: str = "none",
    givens: Optional[Tuple[int, int]] = None,
    seed: int = 0,
    jobs: Optional[int] = None,
    timeout: Optional[float] = None,
    budget: Optional[int] = None,
    seeds: Optional[Iterable[Any]] = None,
    steps: Optional[int] = None,
    proof: bool = False,
) -> GenerateRun:
    """Generate puzzles as ``hdp generate`` does: the same options give the same puzzles in the
    same order, whatever ``jobs``. One of ``level`` (``"trivial"`` .. ``"extreme"``, default
    medium), ``depth`` (0-4) or ``te`` (0-3); ``count`` puzzles; ``minimal`` ones only;
    ``symmetry`` of the givens (``"none"``, ``"central"``...); ``givens=(MIN, MAX)``; ``seed``;
    ``jobs`` threads (default: every core); ``timeout`` seconds and ``budget`` attempts for the
    whole run; ``seeds``, puzzles to search near for hard and above (default: the shipped set);
    ``steps`` of one vicinity walk; ``proof`` adds each puzzle's minimal proof by
    contradiction.

    Returns an iterator; the search runs in the background without the GIL. Ctrl-C while it
    waits raises ``KeyboardInterrupt`` and stops the run; so does dropping the iterator."""
    seed_lines = None if seeds is None else [_text(p) for p in seeds]
    native = _hdp.generate(
        level=level, depth=depth, te=te, count=count, minimal=minimal, symmetry=symmetry,
        givens=None if givens is None else tuple(givens), seed=seed, jobs=jobs, timeout=timeout,
        budget=budget, seeds=seed_lines, steps=steps, proof=proof,
    )
    return GenerateRun(native)
