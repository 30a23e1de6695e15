"""tsume: a tsume-shogi (shogi mate problem) solver, from Rust.

    >>> import tsume
    >>> r = tsume.solve("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1")
    >>> r.result, r.moves
    ('mate', ['G*5b'])

solve / solve_many / solve_lines / verify / generate and Position; see __init__.pyi for
the signatures and the fields of each result. Searches run with the GIL
released. Bad input raises ParseError (a ValueError) with the message and
column the command line gives.
"""

from typing import Optional


class Error(Exception):
    """A problem that cannot be asked (a table the system refuses, a
    defender problem not in check, ...). `column` is None."""

    def __init__(self, message: str, column: Optional[int] = None):
        super().__init__(message)
        self.message = message
        self.column = column


class ParseError(Error, ValueError):
    """Bad input: an SFEN, a move, an option value. `column` is the
    1-based character column of the error in the text given, when known."""


from ._tsume import (  # noqa: E402
    Finding,
    Position,
    Puzzle,
    PuzzleIterator,
    SolveResult,
    VerifyReport,
    default_jobs,
    generate,
    solve,
    solve_lines,
    solve_many,
    verify,
)

__all__ = [
    "Error",
    "Finding",
    "ParseError",
    "Position",
    "Puzzle",
    "PuzzleIterator",
    "SolveResult",
    "VerifyReport",
    "default_jobs",
    "generate",
    "solve",
    "solve_lines",
    "solve_many",
    "verify",
]
