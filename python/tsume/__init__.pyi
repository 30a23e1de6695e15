"""Type stubs of the tsume package (the extension module tsume._tsume)."""

from typing import Iterable, Iterator, Literal, Optional, Sequence, Union

__all__: list[str]

default_jobs: int
"""Worker threads by default: one per core."""

class Error(Exception):
    """A problem that cannot be asked. `column` is None."""

    message: str
    column: Optional[int]
    def __init__(self, message: str, column: Optional[int] = None) -> None: ...

class ParseError(Error, ValueError):
    """Bad input (an SFEN, a move, an option value), with the command
    line's message; `column` is the 1-based column of the error in the
    text given, when known."""

UselessRule = Literal["within-other-defences", "piece-unused", "checker-captures", "within-or-checker", "none"]
DefenceChoice = Literal["longest", "empty-hand-first"]
Convention = Literal["modern", "classical"]

class SolveResult:
    """The answer to one problem: the fields of `tsume solve --format json`
    (one record type in the library, which the CLI writes)."""

    line: Optional[int]
    """solve_lines: the row's line number; None from solve and solve_many."""
    sfen: str
    """The problem's position; for a row that cannot be read, its text as
    errors quote it."""
    result: Literal["mate", "nomate", "unknown", "error"]
    """"error" only from solve_lines, for a row that cannot be read or asked."""
    length: Optional[int]
    """Plies of the line for a mate, else None."""
    moves: list[str]
    """The mating line in USI notation (empty without a mate)."""
    exact: Optional[bool]
    """For a mate: whether the line is the proven tsume answer."""
    at_least: Optional[int]
    """For a mate not proven the answer: a length the answer reaches."""
    at_most: Optional[int]
    """For a mate not proven the answer: a length it does not exceed."""
    nodes: int
    millis: int
    limit: Optional[Literal["nodes", "time", "stopped", "depth"]]
    """For unknown: the limit that stopped the search."""
    error: Optional[str]
    """For result "error": what is wrong, naming the line (the CLI's
    message, with `relaxed=True` where it says `--relaxed`)."""
    japanese: str
    """The line in Japanese notation (`▲５二金打`); "" without a mate."""
    @property
    def is_mate(self) -> bool: ...
    def to_dict(self) -> dict[str, object]:
        """The JSON record of `tsume solve --format json`, the optional
        fields (`line`, `exact`, `at_least`, `at_most`, `limit`, `error`)
        only when present."""
    def kif(self) -> str:
        """The answer as a KIF record (as `--format kif`); kif, ki2 and csa
        raise Error for a row without an answer."""
    def ki2(self) -> str:
        """The answer as a KI2 record (as `--format ki2`)."""
    def csa(self) -> str:
        """The answer as a CSA record (as `--format csa`)."""

def solve(
    sfen: str,
    *,
    time: Optional[float] = None,
    nodes: Optional[int] = None,
    hash_mb: Optional[int] = None,
    threads: Optional[int] = None,
    useless_rule: UselessRule = "within-other-defences",
    defence: DefenceChoice = "longest",
    first_line: bool = False,
    defender: bool = False,
    relaxed: bool = False,
    rest_to_defender: bool = False,
) -> SolveResult:
    """Solves one problem (an SFEN, `sfen <SFEN>`, `startpos`, or `position
    ... moves ...`) as `tsume solve` does, with the GIL released. `time` in
    seconds and `nodes` are limits; `hash_mb` the table's most memory
    (default: half the machine's, at most 4096 MB); `threads` (1 to 256,
    default 1) search the problem together over that table, as `--threads`.
    Raises ParseError for bad input, Error for a problem that cannot be
    asked."""

def solve_many(
    sfens: Iterable[str],
    *,
    jobs: Optional[int] = None,
    time: Optional[float] = None,
    nodes: Optional[int] = None,
    hash_mb: Optional[int] = None,
    threads: Optional[int] = None,
    useless_rule: UselessRule = "within-other-defences",
    defence: DefenceChoice = "longest",
    first_line: bool = False,
    defender: bool = False,
    relaxed: bool = False,
    rest_to_defender: bool = False,
) -> list[SolveResult]:
    """Solves problems on `jobs` workers (default: the cores divided by
    `threads`, the threads of each problem's search, default 1) with the
    GIL released; the answers in input order, each the same as solve's
    (each problem starts from an empty table). Every SFEN is read first: a
    bad one raises ParseError naming it (`problem 3: ...`) before any
    search. `time` and `nodes` apply to each problem."""

def solve_lines(
    data: Union[str, bytes],
    *,
    start_line: int = 1,
    jobs: Optional[int] = None,
    time: Optional[float] = None,
    nodes: Optional[int] = None,
    hash_mb: Optional[int] = None,
    threads: Optional[int] = None,
    useless_rule: UselessRule = "within-other-defences",
    defence: DefenceChoice = "longest",
    first_line: bool = False,
    defender: bool = False,
    relaxed: bool = False,
    rest_to_defender: bool = False,
) -> list[SolveResult]:
    """Solves the rows of a problem file (its text, or part of it) as
    `tsume solve --file` does: the position in the first TAB-separated
    column, blank and `#` lines skipped, lines numbered from `start_line`
    (for a shard of a larger file). A row that cannot be read or asked is
    a SolveResult with result "error" in its place, not an exception; its
    to_dict() is the CLI's JSON record. Rows naming record files are read
    as positions (only the CLI opens record files)."""

class Finding:
    """A finding of verify (`tsume verify --json`'s findings)."""

    kind: str
    japanese: str
    minor: bool
    ply: int
    moves: list[str]
    moves_japanese: str
    """The moves in Japanese notation (同 where the first goes where the
    move before went)."""
    length: Optional[int]
    main_length: Optional[int]
    note: str
    longer_by: Optional[str]
    """For a departure at a shorter given defence, or a longer side line
    by the classical convention: by which rules the longer defence
    outlasts it (`every-looser-rule`, `some-drops`, ...)."""
    longer_leaves_pieces: bool
    """For such a departure: the longer defence leaves the attacker pieces
    in hand where the given one uses them up."""

class VerifyReport:
    """The report of verify (the fields of `tsume verify --json`)."""

    sfen: str
    verdict: Literal["sound", "flawed", "no mate", "unknown"]
    solution_is_answer: Optional[bool]
    solution_note: Optional[str]
    length: int
    exact: bool
    main_line: list[str]
    main_line_japanese: str
    findings: list[Finding]
    nodes: int
    millis: int
    def to_dict(self) -> dict[str, object]:
        """The JSON record of `tsume verify --json` (without `origin`)."""

def verify(
    sfen: str,
    *,
    solution: Union[str, Sequence[str], None] = None,
    length: Optional[int] = None,
    nodes: Optional[int] = None,
    time: Optional[float] = None,
    hash_mb: Optional[int] = None,
    threads: Optional[int] = None,
    useless_rule: Optional[UselessRule] = None,
    defence: DefenceChoice = "longest",
    convention: Convention = "modern",
    relaxed: bool = False,
    rest_to_defender: bool = False,
) -> VerifyReport:
    """Checks a composed problem as `tsume verify` does: unique solution,
    no shorter mate, no pieces left, side lines. `solution` (USI moves, a
    string or a list) and `length` (odd) are the composer's; `nodes` is
    the limit of each search of an alternative (default 2,000,000);
    `threads` search each answer verify reads, as `--threads`;
    `convention="classical"` (`--convention classical`) accepts a given
    defence shorter than another that is no interposition and outlasts it
    however drops count: a minor `longer-side-line` (変長), the given line
    staying the main line. `useless_rule` defaults to the convention's:
    `"within-other-defences"`, or `"within-or-checker"` for `"classical"`."""

class Puzzle:
    """A generated puzzle: the fields of `tsume generate --json`."""

    sfen: str
    plies: int
    solution_usi: list[str]
    solution_japanese: str
    nodes: int
    checks: int
    defences: int
    score: float
    tags: list[str]
    seed: int
    index: int

class PuzzleIterator(Iterator[Puzzle]):
    """The puzzles of generate, found one by one (GIL released)."""

    @property
    def candidates(self) -> int:
        """Candidate positions tried so far."""
    def __iter__(self) -> "PuzzleIterator": ...
    def __next__(self) -> Puzzle: ...

def generate(
    plies: int = 3,
    count: Optional[int] = None,
    *,
    seed: int = 1,
    jobs: Optional[int] = None,
    nodes: Optional[int] = None,
    max_candidates: Optional[int] = None,
    defender_holds_rest: bool = True,
) -> PuzzleIterator:
    """Puzzles with a unique solution of exactly `plies` plies (odd, 1 to
    31), as `tsume generate` makes them: the same `seed` gives the same
    puzzles whatever `jobs`. `count` stops after so many (None: as many as
    asked for, or until `max_candidates`)."""

class Position:
    """A shogi position."""

    def __init__(self, sfen: str = "startpos", *, relaxed: bool = False) -> None:
        """An SFEN, `sfen <SFEN>`, `startpos`, or `position ... moves ...`
        (the position after the moves). Raises ParseError."""
    def sfen(self) -> str: ...
    @property
    def side_to_move(self) -> Literal["b", "w"]: ...
    def diagram(self) -> str: ...
    def legal_moves(self) -> list[str]:
        """Every legal move in USI notation."""
    def checks(self) -> list[str]:
        """The legal moves that give check."""
    def evasions(self) -> list[str]:
        """The legal replies to a check (empty when not in check)."""
    def is_check(self) -> bool: ...
    def is_mate(self) -> bool:
        """Whether the side to move is checkmated."""
    def is_legal(self, move: str) -> bool: ...
    def push(self, move: str) -> None:
        """Plays a legal USI move; ParseError for a bad or illegal one."""
    def japanese(self, move: str) -> str:
        """The move in Japanese notation (`▲５二金打`)."""
    def japanese_line(self, moves: Union[str, Sequence[str]]) -> str:
        """Moves played one after the other, in Japanese notation."""
    def copy(self) -> "Position": ...
    def __copy__(self) -> "Position": ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
