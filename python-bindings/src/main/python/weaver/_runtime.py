"""The Python side of Python Table loads: the py4j callback the JVM engine calls.

The JVM (``io.weaver.python.PythonBridge``) calls :meth:`TableRunner.read` once per Python
Table load with an ``io.weaver.python.PythonReadRequest``.  This module imports the Table's
file, builds the :class:`~weaver.LoadContext`, runs ``read()`` through
:func:`weaver.contract.run_read` and hands the staging DataFrame(s) and the staged bookmark
back as an ``io.weaver.python.PythonRead``.  It never raises across py4j: an error becomes
``PythonRead.failed(message)`` with the Table, its file and the Python traceback, and the
engine then fails the load without writing anything.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import threading
import traceback
from datetime import datetime, timezone
from typing import Any, Optional, Type

from .context import LoadContext
from .contract import ReturnContractError, run_read
from .table import Table

__all__ = ["TableRunner", "register"]

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_MAX_MESSAGE = 8000
_lock = threading.Lock()
_runners: dict = {}  # id(SparkContext) -> TableRunner (keeps the py4j proxies alive)


def _instant(text: str) -> datetime:
    """Parses ``java.time.Instant.toString()`` (``...Z``, 0-9 fraction digits) as UTC."""
    body = text[:-1] if text.endswith("Z") else text
    if "." in body:
        whole, fraction = body.split(".", 1)
        body = f"{whole}.{(fraction + '000000')[:6]}"
    return datetime.fromisoformat(body).replace(tzinfo=timezone.utc)


def _jdf(df: Any, where: str) -> Any:
    if df is None:
        return None
    jdf = getattr(df, "_jdf", None)
    if jdf is None:
        raise ReturnContractError(
            where,
            f"read() returned a {type(df).__module__}.{type(df).__name__} without a JVM "
            "DataFrame behind it (a Spark Connect DataFrame?); Weaver loads Python Tables in "
            "classic PySpark sessions - build the DataFrame from self.spark.",
        )
    return jdf


def _load_class(file: str, class_name: str, item: str) -> Type[Table]:
    """Imports the Table file afresh (edits are picked up) and returns its Table class."""
    module_name = f"weaver_tables.{item}.{os.path.splitext(os.path.basename(file))[0]}"
    spec = importlib.util.spec_from_file_location(module_name, file)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {file}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # dataclasses, tracebacks
    # Spark's Python workers cannot import a Table file by this name: functions and classes the
    # file defines (a UDF's function) travel by value, not as a reference to the module.
    from pyspark import cloudpickle

    cloudpickle.register_pickle_by_value(module)
    spec.loader.exec_module(module)
    cls = getattr(module, class_name, None)
    if cls is None:
        raise ImportError(f"{file} defines no class {class_name}")
    return cls


def _failure(qualified: str, file: str, error: BaseException) -> str:
    """The load message of a read() that raised: Table, file and the author-side traceback."""
    frames = [
        f
        for f in traceback.extract_tb(error.__traceback__)
        if not os.path.abspath(f.filename).startswith(_PACKAGE_DIR + os.sep)
        and not f.filename.startswith("<frozen importlib")
    ]
    lines = ["Traceback (most recent call last):\n"] if frames else []
    lines += traceback.format_list(frames)
    lines += traceback.format_exception_only(type(error), error)
    text = "".join(lines).rstrip()
    if len(text) > _MAX_MESSAGE:
        text = text[: _MAX_MESSAGE // 2] + "\n  [...]\n" + text[-_MAX_MESSAGE // 2 :]
    return (
        f"{qualified} ({file}): read() failed with {type(error).__name__}; nothing was "
        f"written.\n{text}"
    )


class TableRunner:
    """Implements ``io.weaver.python.PythonTableRunner`` for one PySpark application."""

    class Java:
        implements = ["io.weaver.python.PythonTableRunner"]

    def __init__(self, spark: Any) -> None:
        self._spark = spark

    def _session(self, jspark: Any) -> Any:
        """The PySpark session over the JVM session the load runs in."""
        if jspark is None or jspark.equals(self._spark._jsparkSession):
            return self._spark
        from pyspark.sql import SparkSession

        return SparkSession(self._spark.sparkContext, jsparkSession=jspark)

    def read(self, request: Any) -> Any:  # called from the JVM
        PythonRead = self._spark.sparkContext._jvm.io.weaver.python.PythonRead
        qualified, file = "a Python Table", "?"
        try:
            qualified = request.qualifiedName()
            file = request.file()
            spark = self._session(request.spark())
            from pyspark.sql import DataFrame

            def read_table(identity: str, include_deleted: bool) -> Any:
                return DataFrame(request.readTable(identity, include_deleted), spark)

            def read_target() -> Any:
                return DataFrame(request.readTarget(), spark)

            bookmark: Optional[str] = request.bookmark()
            context = LoadContext(
                spark=spark,
                table_id=request.tableId(),
                item=request.item(),
                load_timestamp=_instant(request.loadTimestamp()),
                last_load_timestamp=_instant(request.lastLoadTimestamp()),
                bookmark=bookmark,
                incremental=bool(request.incremental()),
                primary_key=tuple(request.primaryKey()),
                business_columns=tuple(request.businessColumns()),
                read_table=read_table,
                read_target=read_target,
            )
            table_cls = _load_class(file, request.className(), request.item())
            result = run_read(table_cls, context)
            return PythonRead.staged(
                _jdf(result.staging, qualified),
                _jdf(result.delete_keys, qualified),
                result.bookmark_json,
            )
        except ReturnContractError as error:
            return PythonRead.failed(f"{error} ({file}); nothing was written.")
        except BaseException as error:  # noqa: BLE001 - every error becomes the load's message
            return PythonRead.failed(_failure(qualified, file, error))


def register(spark: Any) -> TableRunner:
    """Attaches this Python process to ``spark``'s JVM: Python Tables load through it.

    After this, every Weaver load in the JVM of ``spark`` - ``weaver.Workspace(...).load``,
    SQL ``LOAD WEAVER TABLE``/``LOAD WEAVER ITEM`` and ``format("weaver")`` writes - runs
    Python Tables' ``read()`` in this process.  Creating a :class:`weaver.Workspace` calls it;
    call it yourself to use the SQL statements without a ``Workspace``.  Calling it again
    replaces the earlier registration.
    """
    jspark = getattr(spark, "_jsparkSession", None)
    if jspark is None:
        raise TypeError(
            "weaver.register needs a classic PySpark SparkSession (with a JVM); a Spark Connect "
            "server cannot call back into Python. Load Python Tables over Spark Connect with "
            "weaver.Workspace(spark, path).load(...), which runs their read() in this process. "
            f"Got {type(spark).__name__}."
        )
    from pyspark.java_gateway import ensure_callback_server_started

    sc = spark.sparkContext
    with _lock:
        ensure_callback_server_started(sc._gateway)
        runner = TableRunner(spark)
        sc._jvm.io.weaver.python.PythonBridge.register(jspark, runner)
        _runners[id(sc)] = runner
    return runner
