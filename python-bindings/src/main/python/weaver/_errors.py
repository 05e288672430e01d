"""The exceptions of :class:`weaver.Workspace` (both backends raise them)."""

from __future__ import annotations

from typing import Any, Dict, List

__all__ = ["WeaverError", "CheckError", "LoadError"]

Result = Dict[str, Any]


class WeaverError(Exception):
    """The engine refused a request (unknown Table, a Table not built, bad arguments...)."""


class CheckError(WeaverError):
    """Check found errors in the workspace; ``findings`` lists them (dicts, as ``check()``)."""

    def __init__(self, message: str, findings: List[Result]) -> None:
        super().__init__(message)
        self.findings = findings


class LoadError(WeaverError):
    """A load failed or was refused (``load(..., raise_on_failure=True)``); ``results`` has all rows."""

    def __init__(self, message: str, results: List[Result]) -> None:
        super().__init__(message)
        self.results = results


def check_error(path: str, findings: List[Result]) -> CheckError:
    """The :class:`CheckError` of a workspace whose Check found errors."""
    errors = [f for f in findings if f["severity"] == "error"]
    text = "\n  ".join(
        f"{f['path']}:{f['line']}:{f['column']}: {f['message']} [{f['rule']}]" for f in errors[:10]
    )
    return CheckError(
        f"Check found {len(errors)} error(s) in {path}; fix them first:\n  {text}", findings
    )
