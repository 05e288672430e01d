"""``weaver.Workspace`` over Spark Connect: the engine reached through Weaver's SQL statements.

A Spark Connect session has no JVM in this process, so nothing can be called through py4j and
the server cannot call back into Python.  Everything here is what Connect carries: SQL
statements whose rows come back (``CHECK WEAVER``, ``BUILD WEAVER``, ``LOAD WEAVER TABLE``,
``TEST WEAVER``, ``SHOW WEAVER LOADS``, ``SHOW WEAVER LOAD PLAN``, ``DESCRIBE WEAVER LOAD
TABLE``, ``PUBLISH WEAVER RUN``), ``format("weaver")`` reads, session confs and temporary views.

A Python Table loads in three steps: ``DESCRIBE WEAVER LOAD TABLE`` gives the load context the
engine would hand ``read()`` (with a token of it); ``read()`` runs here on the Connect session;
its DataFrames become temporary views of the session and ``LOAD WEAVER TABLE ... FROM VIEW ...
CONTEXT '<token>'`` loads them through the engine's Python staging path (same validation, gates,
exactly-once commit and bookmark), for the load timestamp ``read()`` saw.  A load opens a load
run in the engine (``SHOW WEAVER LOAD PLAN ... OPEN RUN``) and follows its plan: each Table's
statement names the run (``IN RUN``), the engine answers for a Table it skips, and ``PUBLISH
WEAVER RUN`` ends the run with every result row, the items published as the engine's own load
publishes them.
"""

from __future__ import annotations

import os
import secrets
from typing import Any, Dict, List, Optional

from ._errors import CHECK_FAILED, WeaverError, check_error, error_class, error_parameters
from ._runtime import _failure, _instant, _load_class
from .context import LoadContext
from .contract import ReturnContractError, is_dataframe, run_read

__all__ = ["ConnectWorkspace"]

Result = Dict[str, Any]

WORKSPACE_CONF = "spark.weaver.workspace"
LAKEHOUSE_CONF = "spark.weaver.lakehouse"
_MANAGED = ("row_insert_datetime", "row_update_datetime", "row_delete_datetime", "row_signature")
_LIVE_MICROS = 253_402_214_400_000_000  # row_delete_datetime of a live row: 9999-12-31 UTC


def _quote(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def _string(text: str) -> str:
    """A Weaver SQL string literal: single quotes doubled, backslashes literal."""
    return "'" + text.replace("'", "''") + "'"


def _identity(identity: str) -> str:
    parts = identity.split(".")
    if len(parts) not in (2, 3) or not all(p.strip() for p in parts):
        raise WeaverError(
            f"'{identity}' is not a Table identity; write Schema.Object or Item.Schema.Object"
        )
    return ".".join(_quote(p) for p in parts)


def _scope(identity: Optional[str], item: Optional[str]) -> str:
    for name, value in (("identity", identity), ("item", item)):
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{name} must be a string, not {type(value).__name__}")
    if identity is not None and item is not None:
        raise WeaverError("give a Table identity or an item, not both")
    if identity is not None:
        return " TABLE " + _identity(identity)
    if item is not None:
        return " ITEM " + _quote(item)
    return ""


def _dicts(rows: List[Any]) -> List[Result]:
    return [r.asDict(recursive=True) for r in rows]


class ConnectWorkspace:
    """The Spark Connect backend of :class:`weaver.Workspace` (see the module documentation)."""

    def __init__(self, spark: Any, path: "str | os.PathLike[str]", lakehouse: Optional[str]):
        self.spark = spark
        given = os.fspath(path)
        local = os.path.abspath(given)
        # The server resolves the path on its own file system; an absolute path is the same
        # folder for both when they share one (the notebook case), and stays as given otherwise.
        self.path = local if os.path.isdir(local) else given
        if lakehouse is None:
            lakehouse = self._conf(LAKEHOUSE_CONF)
        self._lakehouse = lakehouse
        self._attach()
        try:
            self.spark.sql("CHECK WEAVER").collect()
        except Exception as error:  # noqa: BLE001 - classified below
            message = _message(error)
            if message is None:
                raise
            raise WeaverError(
                f"the Spark Connect server cannot open the workspace {self.path!r}: {message} "
                f"(the server reads {WORKSPACE_CONF} on its own file system: give the folder "
                "as the server sees it, and start the server with the Weaver and Delta jars and "
                "extensions)",
                *error_class(error),
                error_parameters(error),
            ) from None

    # ------------------------------------------------------------------ session

    def _conf(self, key: str) -> Optional[str]:
        try:
            value = self.spark.conf.get(key, None)
        except Exception:  # noqa: BLE001 - an unset conf
            return None
        return value or None

    def _attach(self) -> None:
        """Points the server session at this workspace (another Workspace may have moved it)."""
        self.spark.conf.set(WORKSPACE_CONF, self.path)
        if self._lakehouse is not None:
            self.spark.conf.set(LAKEHOUSE_CONF, self._lakehouse)
        elif self._conf(LAKEHOUSE_CONF) is not None:
            self.spark.conf.unset(LAKEHOUSE_CONF)

    def _rows(self, statement: str) -> List[Any]:
        try:
            return self.spark.sql(statement).collect()
        except Exception as error:  # noqa: BLE001 - classified below
            message = _message(error)
            if message is None:
                raise
            condition, sqlstate = error_class(error)
            parameters = error_parameters(error)
            if condition == CHECK_FAILED:
                raise check_error(self.path, self.check(), sqlstate, parameters) from None
            raise WeaverError(message, condition, sqlstate, parameters) from None

    @property
    def lakehouse(self) -> str:
        if self._lakehouse is not None:
            return self._lakehouse
        return self.path.rstrip("/") + "/.weaver/lakehouse"

    # ------------------------------------------------------------------ commands

    def check(self) -> List[Result]:
        self._attach()
        return _dicts(self._rows("CHECK WEAVER"))

    def build(self, identity: Optional[str], item: Optional[str], destructive: bool) -> List[Result]:
        scope = _scope(identity, item)
        self._attach()
        suffix = " ALLOW DESTRUCTIVE" if destructive else ""
        return _dicts(self._rows(f"BUILD WEAVER{scope}{suffix}"))

    def plan(
        self, identity: Optional[str], item: Optional[str], destructive: bool, waive: bool
    ) -> List[Result]:
        # Python Tables' read() runs in this client, not on the server: their plans come back
        # skipped with the reason (docs/plan.md).
        scope = _scope(identity, item)
        self._attach()
        suffix = (" ALLOW DESTRUCTIVE" if destructive else "") + (
            " WAIVE STABILITY GATES" if waive else ""
        )
        return _dicts(self._rows(f"PLAN WEAVER{scope}{suffix}"))

    def test(self, identity: Optional[str], item: Optional[str]) -> List[Result]:
        scope = _scope(identity, item)
        self._attach()
        return _dicts(self._rows(f"TEST WEAVER{scope}"))

    def history(self, identity: Optional[str]) -> Any:
        target = "" if identity is None else " FOR " + _identity(identity)
        self._attach()
        try:
            return self.spark.sql(f"SHOW WEAVER LOADS{target}")
        except Exception as error:  # noqa: BLE001 - classified below
            message = _message(error)
            if message is None:
                raise
            raise WeaverError(message, *error_class(error), error_parameters(error)) from None

    def load(self, identity: Optional[str], item: Optional[str], waive: bool) -> List[Result]:
        # The engine keeps the run: the order, which Tables a stopped dependency skips, the rows
        # and the item publish at its end. This client only runs the Python Tables' read().
        scope = _scope(identity, item)
        self._attach()
        plan = self._rows(f"SHOW WEAVER LOAD PLAN{scope} OPEN RUN")
        if not plan:
            return []
        run = _string(plan[0]["run_id"])
        gates = " WAIVE STABILITY GATES" if waive else ""
        for step in plan:
            if step["form"] == "python":
                self._load_python(step["table_id"], run, gates)
            else:
                target = _identity(step["table_id"])
                self._rows(f"LOAD WEAVER TABLE {target} IN RUN {run}{gates}")
        return _dicts(self._rows(f"PUBLISH WEAVER RUN {run}"))

    # ------------------------------------------------------------------ Python Tables

    def _load_python(self, table_id: str, run: str, gates: str) -> None:
        """Loads a Python Table as a step of the engine's load run ``run``."""
        target = _identity(table_id)
        described = self._rows(f"DESCRIBE WEAVER LOAD TABLE {target} IN RUN {run}")[0]
        if described["load_context"] is None:
            # skipped by the run, not built, no load procedure...: the engine says why
            self._rows(f"LOAD WEAVER TABLE {target} IN RUN {run}{gates}")
            return
        token = _string(described["load_context"])
        file = os.path.join(self.path, *described["file"].split("/"))
        views: List[str] = []
        try:
            try:
                clause = self._read(described, file, views)
            except ReturnContractError as error:
                clause = "FAILED " + _string(f"{error} ({file}); nothing was written.")
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException as error:  # noqa: BLE001 - every error becomes the load's message
                clause = "FAILED " + _string(_failure(table_id, file, error))
            self._rows(f"LOAD WEAVER TABLE {target} {clause} CONTEXT {token} IN RUN {run}{gates}")
        finally:
            for view in views:
                try:
                    self.spark.catalog.dropTempView(view)
                except Exception:  # noqa: BLE001 - a view that is gone already
                    pass

    def _read(self, described: Any, file: str, views: List[str]) -> str:
        """Runs the Table's read() here; returns the input clause of the load statement."""
        item = described["item"]
        qualified = described["table_id"]

        def read_table(identity: str, include_deleted: bool) -> Any:
            return self._table(qualified, item, described["files_root"], identity, include_deleted)

        def read_target() -> Any:
            return self._table(qualified, item, described["files_root"], qualified, False, True)

        context = LoadContext(
            spark=self.spark,
            table_id=described["schema_table_id"],
            item=item,
            load_timestamp=_instant(described["load_timestamp"]),
            last_load_timestamp=_instant(described["last_load_timestamp"]),
            bookmark=described["bookmark"],
            incremental=bool(described["incremental"]),
            primary_key=tuple(described["primary_key"]),
            business_columns=tuple(described["business_columns"] or ()),
            read_table=read_table,
            read_target=read_target,
        )
        if not os.path.isfile(file):
            raise FileNotFoundError(
                f"this Python process cannot see the Table's file {file} (the server found it "
                f"under the workspace {self.path}); run the client where the workspace folder "
                "has the same path"
            )
        result = run_read(_load_class(file, described["class_name"], item), context)
        clause = ""
        if result.staging is not None:
            clause = "FROM VIEW " + _quote(self._view(result.staging, qualified, "staging", views))
        if result.delete_keys is not None:
            keys = self._view(result.delete_keys, qualified, "delete_keys", views)
            clause = (clause + " " if clause else "") + "DELETE KEYS FROM VIEW " + _quote(keys)
        if not clause:
            clause = "WITH NO WORK"
        if result.bookmark_json is not None:
            clause += " BOOKMARK " + _string(result.bookmark_json)
        return clause

    def _view(self, df: Any, qualified: str, what: str, views: List[str]) -> str:
        if not is_dataframe(df) or not hasattr(df, "createOrReplaceTempView"):
            raise ReturnContractError(qualified, f"read() returned {what} that is not a DataFrame")
        name = f"weaver_{what}_{secrets.token_hex(8)}"
        try:
            df.createOrReplaceTempView(name)
        except Exception as error:  # noqa: BLE001 - a DataFrame of another session
            raise ReturnContractError(
                qualified,
                f"read() returned a {what} DataFrame that cannot be loaded over this Spark "
                f"Connect session ({_message(error) or error}); build it from self.spark",
            ) from None
        views.append(name)
        return name

    def _table(
        self,
        qualified: str,
        item: str,
        files_root: str,
        identity: str,
        include_deleted: bool,
        is_target: bool = False,
    ) -> Any:
        """``self.table()``/``self.target()`` over Connect: the rows the py4j readers return."""
        from pyspark.sql.connect import functions as F

        call = "self.target()" if is_target else f"self.table({identity!r})"
        if identity.startswith("Files/"):
            return self._files_object(qualified, files_root, identity, call)
        parts = identity.split(".")
        if len(parts) not in (2, 3):
            raise ValueError(
                f"Table {qualified}: {call}: not an identity; write Schema.Object or "
                "Item.Schema.Object"
            )
        name = identity if len(parts) == 3 else f"{item}.{identity}"
        try:
            # the run's own versions, not the item's publish (docs/table-contract.md)
            rows = (
                self.spark.read.format("weaver")
                .option("includeDeleted", "true")
                .option("unpublished", "true")
                .load(name)
            )
            columns = rows.columns
        except Exception as error:  # noqa: BLE001 - say which read and what to do
            raise ValueError(
                f"Table {qualified}: {call}: cannot read {name} "
                f"({(_message(error) or str(error)).splitlines()[0]}); build it first and "
                "declare it in Dependencies"
            ) from None
        if "row_delete_datetime" not in columns or include_deleted:
            return rows
        live = F.col("row_delete_datetime") == F.timestamp_micros(F.lit(_LIVE_MICROS))
        return rows.where(live).select(*[F.col(_quote(c)) for c in columns if c not in _MANAGED])

    def _files_object(self, qualified: str, files_root: str, identity: str, call: str) -> Any:
        schema_object = identity[len("Files/") :]
        parts = schema_object.split(".")
        if len(parts) != 2:
            raise ValueError(f"Table {qualified}: {call}: write Files/Schema.Object")
        path = f"{files_root}/{parts[0]}/{parts[1]}"
        errors = []
        for fmt in ("delta", "parquet"):
            try:
                rows = self.spark.read.format(fmt).load(path)
                rows.columns  # noqa: B018 - resolves the read on the server
                return rows
            except Exception as error:  # noqa: BLE001 - try the next format
                errors.append(f"{fmt}: {(_message(error) or str(error)).splitlines()[0]}")
        raise ValueError(
            f"Table {qualified}: {call}: nothing readable at {path} ({'; '.join(errors)}); put "
            "the object's files there (a Delta table or Parquet files)"
        )


def _message(error: BaseException) -> Optional[str]:
    """The server's message of an error a Weaver statement raised, or None for other errors."""
    try:
        from pyspark.errors import AnalysisException
    except ImportError:  # pragma: no cover - pyspark is there when a session is
        return None
    if not isinstance(error, AnalysisException):
        return None
    getter = getattr(error, "getMessage", None)
    text = str(getter() if callable(getter) else error)
    # the server appends its JVM stack trace (spark.sql.pyspark.jvmStacktrace.enabled)
    return text.split("\n\nJVM stacktrace:", 1)[0].split("\nJVM stacktrace:", 1)[0].strip()

