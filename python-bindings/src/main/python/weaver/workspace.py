"""Running Weaver from PySpark: :class:`Workspace` over the JVM engine.

In a classic PySpark session the engine is called through py4j; in a Spark Connect session
(``sc://`` clients, Databricks standard and serverless compute) through Weaver's SQL statements
(:mod:`weaver._connect`), with Python Tables' ``read()`` run in this process either way.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, TypeVar

from ._errors import (
    CHECK_FAILED,
    CheckError,
    LoadError,
    WeaverError,
    check_error,
    error_class,
    error_parameters,
)
from ._runtime import register
from ._versions import check_session

if TYPE_CHECKING:  # pragma: no cover - typing only
    from pyspark.sql import DataFrame, SparkSession

__all__ = ["Workspace", "WeaverError", "CheckError", "LoadError"]

T = TypeVar("T")

#: One result row: a plain ``dict`` with the keys documented on each method.
Result = Dict[str, Any]


class Workspace:
    """A Weaver workspace opened in a PySpark session.

    ``Workspace(spark, path)`` opens the workspace folder ``path`` (the folder holding
    ``Lakehouse/`` and ``Warehouse/``) for the session ``spark``.  The lakehouse - where the
    Delta tables live - is ``lakehouse`` when given, else the session conf
    ``spark.weaver.lakehouse``, else ``<path>/.weaver/lakehouse``.

    Every method is a thin call into the JVM engine (the same one the SQL statements and
    ``bin/weaver`` use), so Python and SQL behave the same.  Creating a ``Workspace`` also
    attaches this Python process to the session (:func:`weaver.register`): Python Tables'
    ``read()`` run here, for this workspace's loads and for SQL ``LOAD WEAVER TABLE`` alike.

    Spark Connect
    -------------
    With a Spark Connect session (no JVM in this process) the methods issue Weaver's SQL
    statements to the server, which needs the Weaver and Delta jars and extensions.  The
    workspace is the server session's ``spark.weaver.workspace`` (and ``spark.weaver.lakehouse``),
    which ``Workspace`` sets: ``path`` is the folder as the *server* sees it, and Python Tables'
    files are imported from the same path here (a notebook whose driver and Python share a file
    system).  Python Tables' ``read()`` runs in this process; its DataFrames reach the load as
    temporary views of the session.  SQL ``LOAD WEAVER TABLE`` of a Python Table from another
    client reports ``skipped``: load Python Tables through ``Workspace``.

    Results
    -------
    ``check``, ``build``, ``load``, ``load_item`` and ``test`` return plain Python objects: a
    list of ``dict`` rows with the same keys as the SQL statements' columns and
    ``bin/weaver --format json``.  ``history`` returns a DataFrame (it reads a Delta table).
    Engine refusals raise :class:`WeaverError`; a workspace with Check errors raises
    :class:`CheckError` from ``build``/``load``/``test``.

    Example::

        import weaver
        ws = weaver.Workspace(spark, "/lakehouse/files/my-workspace")
        ws.check()                                  # [] when clean
        ws.build()                                  # create/alter the Delta tables
        for row in ws.load():                       # every Table, in dependency order
            print(row["table_id"], row["status"], row["message"])
        ws.load("Logistics.Parcel.Current")         # one Table
        ws.history("Logistics.Parcel.Current").show()
    """

    def __init__(
        self,
        spark: "SparkSession",
        path: "str | os.PathLike[str]",
        lakehouse: Optional[str] = None,
    ) -> None:
        jspark = getattr(spark, "_jsparkSession", None)
        self._connect: Any = None
        if jspark is None:
            if not hasattr(spark, "sql") or not hasattr(spark, "conf"):
                raise TypeError(
                    "weaver.Workspace needs a PySpark SparkSession (classic or Spark Connect); "
                    f"got {type(spark).__name__}"
                )
            from ._connect import ConnectWorkspace

            self.spark = spark
            self._connect = ConnectWorkspace(spark, path, lakehouse)
            self.path = self._connect.path
            return
        self.spark = spark
        self.path = os.path.abspath(os.fspath(path))
        if not os.path.isdir(self.path):
            raise WeaverError(f"workspace folder {self.path!r} does not exist or is not a folder")
        jvm = spark.sparkContext._jvm
        from py4j.java_gateway import JavaClass

        self._api = jvm.io.weaver.api.PythonApi
        if not isinstance(self._api, JavaClass):
            raise WeaverError(
                "the Weaver jars are not on this Spark session's classpath "
                "(io.weaver.api.PythonApi not found); start Spark with them (spark.jars, "
                "--packages or spark.driver.extraClassPath)"
            )
        # Before anything else runs in the JVM: a jar of another Spark minor fails obscurely.
        self._call(lambda: check_session(spark))
        register(spark)
        self._jws = self._call(lambda: self._api.open(jspark, self.path, lakehouse))
        self._items_registered = False

    # ------------------------------------------------------------------ properties

    @property
    def lakehouse(self) -> str:
        """The lakehouse root folder (Delta tables live under ``<lakehouse>/<Item>/Tables``)."""
        if self._connect is not None:
            return self._connect.lakehouse
        return str(self._jws.layout().root())

    def __repr__(self) -> str:
        return f"<weaver.Workspace {self.path} lakehouse={self.lakehouse}>"

    # ------------------------------------------------------------------ commands

    def check(self) -> List[Result]:
        """Runs Check; returns the findings (empty when clean).

        Each finding: ``path``, ``line``, ``column``, ``severity`` (``error``/``warning``),
        ``rule``, ``message``.  Check never raises for findings.
        """
        if self._connect is not None:
            return self._connect.check()
        return json.loads(self._call(lambda: self._api.check(self._jws)))["findings"]

    def build(self, identity: Optional[str] = None, *, item: Optional[str] = None,
              allow_destructive: bool = False) -> List[Result]:
        """Builds (creates or alters) the Delta tables: one Table, one item, or all.

        ``identity`` is ``Item.Schema.Object`` (or ``Schema.Object`` when unambiguous).
        Returns one row per Table: ``table_id``, ``action`` (``created``, ``unchanged``,
        ``altered``, ``replaced``, ``refused``...), ``message``.  A destructive change is
        refused unless ``allow_destructive=True``.
        """
        if self._connect is not None:
            return self._connect.build(identity, item, bool(allow_destructive))
        scope = self._scope(identity, item)
        self._ensure_items()
        return json.loads(
            self._call(lambda: self._api.build(self._jws, scope, bool(allow_destructive)))
        )

    def plan(self, identity: Optional[str] = None, *, item: Optional[str] = None,
             allow_destructive: bool = False, waive_gates: bool = False) -> List[Result]:
        """What ``build`` then ``load`` would do, writing nothing (docs/plan.md).

        One row per Table in load order: ``table_id``, ``build_action`` and ``build_message``
        (what Build would do), ``load_status`` (the status the load would end with), the
        predicted ``rows_inserted``, ``rows_updated``, ``rows_deleted``, ``rows_revived``,
        ``rows_unchanged``, ``rows_rejected``, ``target_live_rows_before`` and ``_after``,
        ``delta_version`` (the version planned against), ``gates`` (per gate: ``gate``,
        ``rows``, ``live_rows``, ``percent``, ``threshold``, ``verdict``), ``rejections`` (a
        sample: ``reason``, ``key_json``, ``row_json``), ``message``, ``warnings``, ``notes``,
        ``rows_quarantined``, ``rows_stale``, ``expectations`` (per expectation:
        ``expectation``, ``action``, ``rows_violating``, ``sample_keys``) and
        ``history_versions`` (the versions the load would add to the Table's history; ``None``
        without ``History: true``).
        No Delta version, catalogue row, load state or bookmark is written.
        """
        if self._connect is not None:
            return self._connect.plan(identity, item, bool(allow_destructive), bool(waive_gates))
        scope = self._scope(identity, item)
        self._ensure_items()
        return json.loads(
            self._call(
                lambda: self._api.plan(
                    self._jws, scope, bool(allow_destructive), bool(waive_gates)
                )
            )
        )

    def load(self, identity: Optional[str] = None, *, item: Optional[str] = None,
             waive_gates: bool = False, raise_on_failure: bool = False) -> List[Result]:
        """Loads one Table (``identity``), one item (``item=``) or every Table.

        Tables load in dependency order; a failed, refused or skipped Table skips its
        dependants.  Python Tables run their ``read()`` in this process.  Returns the load
        result rows (docs/table-contract.md, "Load"): ``load_id``, ``table_id``, ``status``
        (``succeeded``, ``no_work``, ``failed``, ``refused``, ``skipped``, ``recovered``),
        ``rows_inserted``, ``rows_updated``, ``rows_deleted``, ``rows_revived``, ``rows_unchanged``,
        ``rows_rejected``, ``target_live_rows_before``, ``target_live_rows_after``,
        ``delta_version``, ``gates_waived``, ``duration_ms``, ``message``, ``warnings``,
        ``rows_quarantined``, ``rows_stale``, ``expectations`` (per expectation: ``expectation``,
        ``action``, ``rows_violating``, ``sample_keys``).

        ``waive_gates=True`` waives the stability gates.  A failed load is a row, not an
        exception, unless ``raise_on_failure=True`` (then :class:`LoadError`).
        """
        if self._connect is not None:
            results = self._connect.load(identity, item, bool(waive_gates))
        else:
            scope = self._scope(identity, item)
            self._ensure_items()
            results = json.loads(
                self._call(lambda: self._api.load(self._jws, scope, bool(waive_gates)))
            )
        if raise_on_failure:
            bad = [r for r in results if r["status"] in ("failed", "refused")]
            if bad:
                raise LoadError(
                    "\n".join(f"{r['table_id']}: {r['status']}: {r['message']}" for r in bad),
                    results,
                )
        return results

    def load_item(self, item: str, *, waive_gates: bool = False,
                  raise_on_failure: bool = False) -> List[Result]:
        """Loads every Table of ``item`` (same as ``load(item=item)``)."""
        return self.load(item=item, waive_gates=waive_gates, raise_on_failure=raise_on_failure)

    def test(self, identity: Optional[str] = None, *, item: Optional[str] = None) -> List[Result]:
        """Runs the generated and authored tests in scope against the built tables.

        Returns one row per test: ``test_id``, ``table_id``, ``kind``, ``severity``,
        ``status`` (``passed``/``failed``...), ``violations``, ``sample``, ``message``.
        """
        if self._connect is not None:
            return self._connect.test(identity, item)
        scope = self._scope(identity, item)
        self._ensure_items()
        return json.loads(self._call(lambda: self._api.test(self._jws, scope)))

    def history(self, identity: Optional[str] = None) -> "DataFrame":
        """The load history (``_.LoadHistory`` of every item), newest first, as a DataFrame.

        ``identity`` limits it to one Table.  ``table_id`` is item-qualified.
        """
        if self._connect is not None:
            return self._connect.history(identity)
        from pyspark.sql import DataFrame

        jdf = self._call(lambda: self._api.history(self._jws, identity))
        return DataFrame(jdf, self.spark)

    # ------------------------------------------------------------------ internals

    def _scope(self, identity: Optional[str], item: Optional[str]) -> Any:
        for name, value in (("identity", identity), ("item", item)):
            if value is not None and not isinstance(value, str):
                raise TypeError(f"{name} must be a string, not {type(value).__name__}")
        return self._call(lambda: self._api.scope(identity, item))

    def _ensure_items(self) -> None:
        if not self._items_registered:
            self._call(lambda: self._api.registerItems(self._jws))
            self._items_registered = True

    def _call(self, body: Callable[[], T]) -> T:
        """Runs a JVM call; engine refusals become :class:`WeaverError`/:class:`CheckError`."""
        try:
            return body()
        except Exception as error:
            # py4j's Py4JJavaError, or the exception PySpark converted it to (it keeps the
            # Java exception as _origin)
            jexc = getattr(error, "java_exception", None) or getattr(error, "_origin", None)
            if jexc is None:
                raise
            name = jexc.getClass().getName()
            message = jexc.getMessage() or name
            condition, sqlstate = error_class(jexc)
            parameters = error_parameters(jexc)
            if condition == CHECK_FAILED:
                findings = json.loads(self._api.check(self._jws))["findings"]
                raise check_error(self.path, findings, sqlstate, parameters) from None
            if condition is not None or name in (
                "java.lang.IllegalArgumentException",
                "java.lang.IllegalStateException",
            ):
                raise WeaverError(message, condition, sqlstate, parameters) from None
            raise

