"""Located data problems, so a designer can find and fix every mistake in one pass."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a data file, with where it is."""

    file: str
    message: str
    line: int | None = None
    field: str | None = None
    value: Any = None

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        what = ""
        if self.field is not None:
            what = f" [{self.field}"
            if self.value is not None:
                what += f" = {self.value!r}"
            what += "]"
        return f"{where}:{what} {self.message}"


class DataError(Exception):
    """Raised with every problem found, never just the first."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))
