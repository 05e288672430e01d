"""The exceptions of :class:`weaver.Workspace` (both backends raise them).

An error the engine raised keeps its error class (``WEAVER_...``, docs/errors.md) and SQLSTATE:
``error_class`` and ``sqlstate``.  Code recognises an error by its class, never by its text.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

__all__ = ["WeaverError", "CheckError", "LoadError"]

Result = Dict[str, Any]

CHECK_FAILED = "WEAVER_CHECK_FAILED"
"""The error class of a request refused because Check found errors in the workspace."""

SPARK_LINE_MISMATCH = ("WEAVER_SPARK_LINE_MISMATCH", "0A000")
"""The error class and SQLSTATE of a Weaver jar built for another Spark minor (_versions.py)."""

# The class and SQLSTATE of a load that ended without its data in the table, by status (as
# LoadStatus.errorClass() in the engine; WeaverErrorClassTest checks the SQLSTATEs).
_LOAD_CLASSES = {
    "failed": ("WEAVER_LOAD_FAILED", "55000"),
    "refused": ("WEAVER_LOAD_REFUSED", "22000"),
}


class WeaverError(Exception):
    """The engine refused a request (unknown Table, a Table not built, bad arguments...).

    ``error_class`` is the engine's error class (``WEAVER_TABLE_NOT_FOUND``...) and ``sqlstate``
    its SQLSTATE; both are None for an error found in this process before the engine was asked.
    """

    def __init__(
        self, message: str, error_class: Optional[str] = None, sqlstate: Optional[str] = None
    ) -> None:
        super().__init__(message)
        self.error_class = error_class
        self.sqlstate = sqlstate


class CheckError(WeaverError):
    """Check found errors in the workspace; ``findings`` lists them (dicts, as ``check()``).

    Its ``error_class`` is ``WEAVER_CHECK_FAILED``.
    """

    def __init__(
        self, message: str, findings: List[Result], sqlstate: Optional[str] = None
    ) -> None:
        super().__init__(message, CHECK_FAILED, sqlstate)
        self.findings = findings


class LoadError(WeaverError):
    """A load failed or was refused (``load(..., raise_on_failure=True)``); ``results`` has all rows.

    Its ``error_class`` is the first such load's: ``WEAVER_LOAD_FAILED`` or ``WEAVER_LOAD_REFUSED``.
    """

    def __init__(self, message: str, results: List[Result]) -> None:
        error_class, sqlstate = next(
            (_LOAD_CLASSES[r["status"]] for r in results if r.get("status") in _LOAD_CLASSES),
            (None, None),
        )
        super().__init__(message, error_class, sqlstate)
        self.results = results


def check_error(path: str, findings: List[Result], sqlstate: Optional[str] = None) -> CheckError:
    """The :class:`CheckError` of a workspace whose Check found errors."""
    errors = [f for f in findings if f["severity"] == "error"]
    text = "\n  ".join(
        f"{f['path']}:{f['line']}:{f['column']}: {f['message']} [{f['rule']}]" for f in errors[:10]
    )
    return CheckError(
        f"Check found {len(errors)} error(s) in {path}; fix them first:\n  {text}",
        findings,
        sqlstate,
    )


def error_class(error: Any) -> Tuple[Optional[str], Optional[str]]:
    """The Weaver error class and SQLSTATE of an exception, or ``(None, None)``.

    ``error`` is PySpark's exception (classic or Spark Connect) or a py4j ``JavaObject`` of a
    Java ``SparkThrowable``: both answer ``getCondition()`` (``getErrorClass()`` before Spark 4)
    and ``getSqlState()``.  Only Weaver's classes count; Spark's own are not the engine refusing.
    """
    try:
        getter = getattr(error, "getCondition", None) or getattr(error, "getErrorClass", None)
        condition = getter() if callable(getter) else None
        if not (isinstance(condition, str) and condition.startswith("WEAVER_")):
            return None, None
        sqlstate = error.getSqlState()
    except Exception:  # noqa: BLE001 - a Java object that is no SparkThrowable
        return None, None
    return condition, sqlstate if isinstance(sqlstate, str) else None
