"""Running a Python Table's ``read()`` and validating its return contract.

The contract (docs/table-contract.md, "Forms and targets"):

* a non-incremental Table returns the staging DataFrame - a tuple or ``None`` is invalid;
* an incremental Table returns ``staging``, ``(staging, delete_keys)``, ``None`` (no work)
  or ``(None, delete_keys)``;
* staging holds exactly the business columns (exact case, any order); ``delete_keys`` holds
  exactly the primary-key columns.

This module never imports pyspark: a DataFrame is recognised through the pyspark classes that
are already loaded (classic and Spark Connect) or, failing that, by duck typing.
"""

from __future__ import annotations

import inspect
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, List, Optional, Sequence, Type

from .context import LoadContext
from .table import Table, _staged_bookmark_json

if TYPE_CHECKING:  # pragma: no cover - typing only
    from pyspark.sql import DataFrame

__all__ = ["ReturnContractError", "StagingResult", "run_read", "is_dataframe"]

_INCREMENTAL_FORMS = "staging, (staging, delete_keys), None (no work) or (None, delete_keys)"

# Libraries whose frames have a ``columns`` attribute but are not Spark DataFrames.
_FOREIGN_FRAMES = {
    "pandas": "convert it with self.spark.createDataFrame(pdf)",
    "polars": "convert it with self.spark.createDataFrame(df.to_pandas())",
    "pyarrow": "convert it with self.spark.createDataFrame(table.to_pandas())",
    "numpy": "build a Spark DataFrame with self.spark.createDataFrame(...)",
    "dask": "build a Spark DataFrame instead",
    "modin": "build a Spark DataFrame instead",
}


class ReturnContractError(Exception):
    """A Python Table's ``read()`` broke the return contract.

    ``table_id`` is the item-qualified Table ID (``Item.Schema.Object``); the message says
    what was returned and what to return instead.
    """

    def __init__(self, table_id: str, message: str) -> None:
        super().__init__(f"Table {table_id}: {message}")
        self.table_id = table_id


@dataclass(frozen=True)
class StagingResult:
    """The validated outcome of a Table's ``read()``.

    ``staging``
        The staging DataFrame, or ``None`` (no work, or deletion-only work).
    ``delete_keys``
        The delete-keys DataFrame (incremental Tables only), or ``None``.
    ``no_work``
        ``True`` when an incremental Table returned ``None``.
    ``bookmark_json``
        The bookmark staged with ``set_bookmark`` as JSON text (``"null"`` clears it), or
        ``None`` when ``set_bookmark`` was not called (the bookmark stays unchanged).
    """

    staging: Optional["DataFrame"]
    delete_keys: Optional["DataFrame"]
    no_work: bool
    bookmark_json: Optional[str] = None


# --------------------------------------------------------------------------- DataFrames

def _loaded_spark_dataframe_classes() -> tuple:
    """pyspark DataFrame classes that are already imported (never imports anything)."""
    classes = []
    for module_name in ("pyspark.sql.dataframe", "pyspark.sql.connect.dataframe"):
        module = sys.modules.get(module_name)
        cls = getattr(module, "DataFrame", None) if module is not None else None
        if isinstance(cls, type):
            classes.append(cls)
    return tuple(classes)


def _foreign_frame_library(value: Any) -> Optional[str]:
    root = (type(value).__module__ or "").split(".")[0]
    if root == "pyspark" and "pandas" in (type(value).__module__ or ""):
        return "pyspark.pandas"
    return root if root in _FOREIGN_FRAMES else None


def is_dataframe(value: Any) -> bool:
    """Whether ``value`` is a Spark DataFrame (classic or Spark Connect).

    A value is accepted when it is an instance of a loaded pyspark DataFrame class, or -
    without pyspark, e.g. in unit tests - when it is not a frame of another library and its
    ``columns`` is a list or tuple of strings.
    """
    if value is None or isinstance(value, (tuple, list, dict, str, bytes)):
        return False
    classes = _loaded_spark_dataframe_classes()
    if classes and isinstance(value, classes):
        return True
    if _foreign_frame_library(value) is not None:
        return False
    try:
        columns = value.columns
    except Exception:  # noqa: BLE001 - any failure means "not a DataFrame"
        return False
    return isinstance(columns, (list, tuple)) and all(isinstance(c, str) for c in columns)


def _describe(value: Any) -> str:
    if value is None:
        return "None"
    if isinstance(value, tuple):
        if not value:
            return "an empty tuple"
        inner = ", ".join(_describe_short(v) for v in value)
        return f"a tuple of {len(value)} item{'s' if len(value) != 1 else ''} ({inner})"
    if is_dataframe(value):
        return "a DataFrame"
    library = _foreign_frame_library(value)
    if library == "pyspark.pandas":
        return "a pandas-on-Spark DataFrame (convert it with .to_spark())"
    if library is not None:
        return f"a {library} {type(value).__name__} ({_FOREIGN_FRAMES[library]})"
    if inspect.isgenerator(value):
        return "a generator (read() must return, not yield)"
    return f"a value of type {type(value).__module__}.{type(value).__qualname__}".replace(
        "builtins.", ""
    )


def _describe_short(value: Any) -> str:
    if value is None:
        return "None"
    if is_dataframe(value):
        return "DataFrame"
    return type(value).__name__


# --------------------------------------------------------------------------- columns

def _names(columns: Sequence[str]) -> str:
    return ", ".join(f"`{c}`" for c in columns)


def _column_problems(
    what: str, actual: Sequence[str], expected: Sequence[str], expected_label: str
) -> List[str]:
    problems: List[str] = []
    actual = list(actual)
    dupes = [c for i, c in enumerate(actual) if c in actual[:i]]
    if dupes:
        problems.append(f"{what} has duplicate column(s) {_names(dict.fromkeys(dupes))}")
    missing = [c for c in expected if c not in actual]
    extra = [c for c in dict.fromkeys(actual) if c not in expected]
    if missing:
        problems.append(f"{what} is missing {expected_label} column(s) {_names(missing)}")
    if extra:
        problems.append(f"{what} has column(s) {_names(extra)} that are not {expected_label} columns")
    by_lower = {c.lower(): c for c in missing}
    case_only = [(c, by_lower[c.lower()]) for c in extra if c.lower() in by_lower]
    if case_only:
        pairs = ", ".join(f"`{got}` should be `{want}`" for got, want in case_only)
        problems.append(f"column names are exact-case: {pairs}")
    return problems


def _check_columns(context: LoadContext, staging: Any, delete_keys: Any) -> None:
    problems: List[str] = []
    if staging is not None and context.business_columns:
        problems += _column_problems(
            "staging", staging.columns, context.business_columns, "business"
        )
    if delete_keys is not None and context.primary_key:
        problems += _column_problems(
            "delete_keys", delete_keys.columns, context.primary_key, "primary-key"
        )
    if problems:
        expected = []
        if staging is not None and context.business_columns:
            expected.append(f"staging needs exactly {_names(context.business_columns)}")
        if delete_keys is not None and context.primary_key:
            expected.append(f"delete_keys needs exactly {_names(context.primary_key)}")
        raise ReturnContractError(
            context.qualified_table_id,
            "read() returned the wrong columns: "
            + "; ".join(problems)
            + " (" + "; ".join(expected) + "; any order)",
        )


# --------------------------------------------------------------------------- run_read

def _is_async(fn: Any) -> bool:
    return inspect.iscoroutinefunction(fn) or inspect.isasyncgenfunction(fn)


def _async_error(table_id: str) -> ReturnContractError:
    return ReturnContractError(
        table_id,
        "read() is asynchronous (async def); Weaver calls it synchronously. "
        "Define it as a plain `def read(self):` that returns DataFrame(s).",
    )


def _validate_class(table_cls: Any, table_id: str) -> None:
    if not (isinstance(table_cls, type) and issubclass(table_cls, Table)):
        raise TypeError(f"Table {table_id}: {table_cls!r} is not a subclass of weaver.Table")
    if table_cls.read is Table.read:
        raise TypeError(
            f"Table {table_id}: class {table_cls.__name__} must implement a synchronous "
            f"read(self) method"
        )
    if table_cls.__init__ is not Table.__init__:
        raise TypeError(
            f"Table {table_id}: class {table_cls.__name__} overrides __init__; the Weaver "
            f"runtime constructs Tables itself. Remove __init__ and set up state inside read()."
        )


def _validate_return(context: LoadContext, result: Any) -> StagingResult:
    tid = context.qualified_table_id
    if not context.incremental:
        if is_dataframe(result):
            return StagingResult(staging=result, delete_keys=None, no_work=False)
        if isinstance(result, tuple):
            hint = (
                "Return only the staging DataFrame. Delete keys are only accepted from an "
                "incremental Table (declare `Incremental: true` with a `Primary key`); a "
                "non-incremental keyed Table treats rows missing from staging as deleted."
            )
        elif result is None:
            hint = (
                "Return the staging DataFrame (did read() forget `return`?). An empty "
                "snapshot is an empty DataFrame, e.g. self.spark.createDataFrame([], schema); "
                "returning None for 'no work' is only allowed for an incremental Table."
            )
        else:
            hint = "Return the staging DataFrame with the business columns."
        raise ReturnContractError(
            tid, f"read() returned {_describe(result)}, but this Table is not incremental. {hint}"
        )

    # incremental
    if result is None:
        return StagingResult(staging=None, delete_keys=None, no_work=True)
    if is_dataframe(result):
        return StagingResult(staging=result, delete_keys=None, no_work=False)
    if not isinstance(result, tuple):
        shape = " (use a tuple, not a list)" if isinstance(result, list) else ""
        raise ReturnContractError(
            tid,
            f"read() returned {_describe(result)}{shape}; an incremental Table returns "
            f"{_INCREMENTAL_FORMS}.",
        )
    if len(result) != 2:
        raise ReturnContractError(
            tid,
            f"read() returned {_describe(result)}; an incremental Table returns "
            f"{_INCREMENTAL_FORMS} - a tuple must have exactly 2 items.",
        )
    staging, delete_keys = result
    if staging is None and delete_keys is None:
        raise ReturnContractError(
            tid,
            "read() returned (None, None). Return None when there is no work, or "
            "(None, delete_keys) for deletions only.",
        )
    if staging is not None and not is_dataframe(staging):
        raise ReturnContractError(
            tid,
            f"read() returned {_describe(result)}; its first item (staging) must be a "
            f"DataFrame or None, not {_describe(staging)}.",
        )
    if delete_keys is None:
        raise ReturnContractError(
            tid,
            "read() returned (staging, None); when there are no delete keys, return the "
            "staging DataFrame alone instead of a tuple.",
        )
    if not is_dataframe(delete_keys):
        raise ReturnContractError(
            tid,
            f"read() returned {_describe(result)}; its second item (delete_keys) must be a "
            f"DataFrame of the primary-key columns, not {_describe(delete_keys)}.",
        )
    return StagingResult(staging=staging, delete_keys=delete_keys, no_work=False)


def run_read(table_cls: Type[Table], context: LoadContext) -> StagingResult:
    """Construct ``table_cls`` with ``context``, call its ``read()`` and validate the result.

    Returns a :class:`StagingResult`.  Raises :class:`ReturnContractError` when ``read()`` is
    asynchronous or its return value breaks the contract (wrong form or wrong columns), and
    ``TypeError`` when ``table_cls`` is not a usable Table class.  Exceptions raised by
    ``read()`` itself propagate unchanged.
    """
    if not isinstance(context, LoadContext):
        raise TypeError(f"run_read needs a weaver.LoadContext, not {type(context).__name__}")
    tid = context.qualified_table_id
    _validate_class(table_cls, tid)
    if _is_async(table_cls.read):
        raise _async_error(tid)

    table = table_cls(context)
    result = table.read()
    if inspect.isawaitable(result) or inspect.isasyncgen(result):
        close = getattr(result, "close", None) or getattr(result, "aclose", None)
        if inspect.iscoroutine(result) and close is not None:
            close()  # avoid "coroutine was never awaited" warnings
        raise _async_error(tid)

    outcome = _validate_return(context, result)
    _check_columns(context, outcome.staging, outcome.delete_keys)
    return StagingResult(
        staging=outcome.staging,
        delete_keys=outcome.delete_keys,
        no_work=outcome.no_work,
        bookmark_json=_staged_bookmark_json(table),
    )
