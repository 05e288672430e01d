"""The exceptions of :class:`weaver.Workspace` (both backends raise them).

An error the engine raised keeps its error class (``WEAVER_...``, docs/errors.md), SQLSTATE and
message parameters: ``error_class``, ``sqlstate`` and ``parameters`` (``message`` and the facts
the class declares: ``table``, ``file``, ``line``...).  Code recognises an error by its class and
reads its facts from ``parameters``, never from its text.
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
    ``parameters`` holds the error's message parameters by name (``{"message": ..., "table":
    ...}``, docs/errors.md); it is empty when the error has no class.
    """

    def __init__(
        self,
        message: str,
        error_class: Optional[str] = None,
        sqlstate: Optional[str] = None,
        parameters: Optional[Dict[str, str]] = None,
    ) -> None:
        super().__init__(message)
        self.error_class = error_class
        self.sqlstate = sqlstate
        # ``message`` is this error's own text, which may add to the engine's (the workspace, ...).
        self.parameters: Dict[str, str] = (
            {**parameters, "message": message} if parameters else {}
        )

    @property
    def sql_state(self) -> Optional[str]:
        """The SQLSTATE, as ``sqlstate`` (the name PySpark's ``getSqlState`` suggests)."""
        return self.sqlstate


class CheckError(WeaverError):
    """Check found errors in the workspace; ``findings`` lists them (dicts, as ``check()``).

    Its ``error_class`` is ``WEAVER_CHECK_FAILED``.
    """

    def __init__(
        self,
        message: str,
        findings: List[Result],
        sqlstate: Optional[str] = None,
        parameters: Optional[Dict[str, str]] = None,
    ) -> None:
        super().__init__(message, CHECK_FAILED, sqlstate, parameters)
        self.findings = findings


class LoadError(WeaverError):
    """A load failed or was refused (``load(..., raise_on_failure=True)``); ``results`` has all rows.

    Its ``error_class`` is the first such load's: ``WEAVER_LOAD_FAILED`` or ``WEAVER_LOAD_REFUSED``,
    and its ``parameters`` that load's, as the engine's load errors carry them: ``table``,
    ``loadId`` and ``status`` (and ``message``, this error's text).
    """

    def __init__(self, message: str, results: List[Result]) -> None:
        first = next((r for r in results if r.get("status") in _LOAD_CLASSES), None)
        error_class, sqlstate = _LOAD_CLASSES[first["status"]] if first else (None, None)
        parameters = (
            {
                "table": str(first.get("table_id") or ""),
                "loadId": str(first.get("load_id") or ""),
                "status": str(first["status"]),
            }
            if first
            else {}
        )
        super().__init__(message, error_class, sqlstate, parameters)
        self.results = results


def check_error(
    path: str,
    findings: List[Result],
    sqlstate: Optional[str] = None,
    parameters: Optional[Dict[str, str]] = None,
) -> CheckError:
    """The :class:`CheckError` of a workspace whose Check found errors.

    ``parameters`` are the engine error's, when the engine raised it.
    """
    errors = [f for f in findings if f["severity"] == "error"]
    text = "\n  ".join(
        f"{f['path']}:{f['line']}:{f['column']}: {f['message']} [{f['rule']}]" for f in errors[:10]
    )
    message = f"Check found {len(errors)} error(s) in {path}; fix them first:\n  {text}"
    return CheckError(
        message,
        findings,
        sqlstate,
        parameters,
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


def error_parameters(error: Any) -> Dict[str, str]:
    """The message parameters of a Weaver error (``getMessageParameters()``), or ``{}``.

    ``error`` is as for :func:`error_class`: PySpark's exception answers a dict, a py4j
    ``JavaObject`` a Java map; both become a plain dict of strings.  An error that is not of one of
    Weaver's classes has none.
    """
    if error_class(error)[0] is None:
        return {}
    try:
        getter = getattr(error, "getMessageParameters", None)
        parameters = getter() if callable(getter) else None
        if parameters is None:
            return {}
        return {str(k): "" if v is None else str(v) for k, v in dict(parameters).items()}
    except Exception:  # noqa: BLE001 - an exception without parameters
        return {}
