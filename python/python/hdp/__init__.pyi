from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple

__version__: str

Record = Dict[str, Any]

class Result:
    """A result: the JSON record's fields as attributes, ``text``, and a picture in Jupyter."""
    @property
    def text(self) -> str: ...
    def to_dict(self) -> Record: ...
    def __getattr__(self, name: str) -> Any: ...
    def _repr_svg_(self) -> Optional[str]: ...
    def _repr_html_(self) -> str: ...

class Puzzle:
    line: str
    label: Optional[str]
    def __init__(self, text: str) -> None: ...
    @property
    def givens(self) -> int: ...
    def _repr_svg_(self) -> str: ...
    def _repr_html_(self) -> str: ...

def classify_iter(
    puzzles: Iterable[Any],
    *,
    jobs: Optional[int] = ...,
    te: bool = ...,
    timing: bool = ...,
    max_depth: Optional[int] = ...,
    decisions: Optional[str] = ...,
    schedule: Optional[str] = ...,
    profile: Optional[str] = ...,
    proof: Optional[str] = ...,
    walk: Optional[str] = ...,
    budget: Optional[int] = ...,
    timeout: Optional[float] = ...,
) -> Iterator[Record]: ...
def classify(
    puzzles: Iterable[Any],
    *,
    jobs: Optional[int] = ...,
    te: bool = ...,
    timing: bool = ...,
    max_depth: Optional[int] = ...,
    decisions: Optional[str] = ...,
    schedule: Optional[str] = ...,
    profile: Optional[str] = ...,
    proof: Optional[str] = ...,
    walk: Optional[str] = ...,
    budget: Optional[int] = ...,
    timeout: Optional[float] = ...,
) -> List[Record]: ...
def classify_frame(data: Any, column: Optional[str] = ..., **options: Any) -> Any: ...
def chain(
    puzzle: Any,
    *,
    given: Optional[str] = ...,
    steps: bool = ...,
    max_depth: Optional[int] = ...,
    decisions: Optional[str] = ...,
    schedule: Optional[str] = ...,
    profile: Optional[str] = ...,
    proof: Optional[str] = ...,
    walk: Optional[str] = ...,
    budget: Optional[int] = ...,
    timeout: Optional[float] = ...,
) -> Result: ...
def tree(puzzle: Any, *, given: Optional[str] = ..., **settings: Any) -> Any: ...
def minimal(puzzle: Any, **settings: Any) -> Result: ...
def solve(puzzle: Any, *, timeout: Optional[float] = ...) -> Result: ...
def propagate(puzzle: Any, *, profile: Optional[str] = ...) -> Result: ...
def canon(puzzle: Any) -> Result: ...
def hint(
    puzzle: Any,
    *,
    given: Optional[str] = ...,
    reveal: str = ...,
    max_depth: Optional[int] = ...,
    decisions: Optional[str] = ...,
    schedule: Optional[str] = ...,
    profile: Optional[str] = ...,
    proof: Optional[str] = ...,
    walk: Optional[str] = ...,
    budget: Optional[int] = ...,
    timeout: Optional[float] = ...,
) -> Result: ...

class GenerateRun(Iterator[Result]):
    """The puzzles of ``generate`` as they are found; ``shortfall`` says why a run ended early."""
    def __iter__(self) -> "GenerateRun": ...
    def __next__(self) -> Result: ...
    @property
    def shortfall(self) -> Optional[str]: ...

def generate(
    *,
    level: Optional[str] = ...,
    depth: Optional[int] = ...,
    te: Optional[int] = ...,
    count: int = ...,
    minimal: bool = ...,
    symmetry: str = ...,
    givens: Optional[Tuple[int, int]] = ...,
    seed: int = ...,
    jobs: Optional[int] = ...,
    timeout: Optional[float] = ...,
    budget: Optional[int] = ...,
    seeds: Optional[Iterable[Any]] = ...,
    steps: Optional[int] = ...,
    proof: bool = ...,
) -> GenerateRun: ...
