"""The authoring base class for Python Tables."""

from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING, Any, Optional

from .context import LoadContext

if TYPE_CHECKING:  # pragma: no cover - typing only; pyspark is optional at import time
    from pyspark.sql import DataFrame, SparkSession

__all__ = ["Table"]


class Table:
    """Base class of a Weaver Python Table.

    A Python Table is a file ``Lakehouse/<Item>/Tables/<Schema>__<Object>.py`` whose module
    docstring is the YAML metadata header and which defines one class ``<Schema>__<Object>``
    inheriting ``Table``.  The class implements one **synchronous** method, ``read(self)``,
    that returns Spark DataFrame(s); Weaver then merges them into the target table.

    Example::

        \"\"\"
        Table ID: Parcel.Current
        Description: Current state of each parcel.
        Primary key: parcel_id
        Incremental: true
        Dependencies: [Parcel.Source]
        Schema:
          parcel_id: string
          status: string
        \"\"\"

        from pyspark.sql import functions as F
        from weaver import Table


        class Parcel__Current(Table):
            def read(self):
                since = (self.bookmark or {}).get("updated_at", "1900-01-01T00:00:00")
                changed = self.table("Parcel.Source").where(
                    F.col("updated_at") > F.lit(since).cast("timestamp"))
                newest = changed.agg(F.max("updated_at")).first()[0]
                if newest is None:
                    return None                          # nothing changed: no work
                # committed atomically with this load's data (JSON: store text, not datetime)
                self.set_bookmark({"updated_at": newest.isoformat()})
                return changed.select("parcel_id", "status")

    What ``read()`` returns
    -----------------------
    * **Non-incremental** Table: the staging DataFrame with exactly the business columns
      (names in exact case, any order).  An empty snapshot is an empty DataFrame; a tuple or
      ``None`` is an error.  Keyed targets treat rows absent from staging as deleted.
    * **Incremental** Table (``Incremental: true``, needs a ``Primary key``): one of

      - ``staging`` - upsert these rows; rows not in staging are left alone;
      - ``(staging, delete_keys)`` - upsert, and soft-delete the keys in ``delete_keys``;
      - ``None`` - nothing to do (the load reports ``no_work``);
      - ``(None, delete_keys)`` - deletions only.

      ``delete_keys`` is a DataFrame whose columns are exactly the primary-key columns.

    What ``read()`` can use
    -----------------------
    ``self.spark``
        The active SparkSession.
    ``self.table_id`` / ``self.item``
        This Table's ID (``Schema.Object``) and its Lakehouse item (e.g. ``Logistics``).
    ``self.load_timestamp``
        The timestamp of this load (timezone-aware, UTC).
    ``self.last_load_timestamp``
        The load timestamp of the last succeeded load (timezone-aware, UTC), or
        1900-01-01 UTC when the Table has never been loaded successfully.
    ``self.bookmark`` / ``self.set_bookmark(value)``
        Read the last committed bookmark; stage a new one, committed atomically with this
        load's data.
    ``self.table(identity, include_deleted=False)``
        A DataFrame of another object's rows (declare it in ``Dependencies``).
    ``self.target()``
        This Table's current live rows.

    Rules
    -----
    * Do not override ``__init__``: the runtime constructs the Table with a
      :class:`~weaver.LoadContext`.  Keep state in local variables or methods of your own.
    * ``read`` must be a plain ``def``, not ``async def``.
    * Do not collect table data to the driver; return lazy DataFrames.
    """

    def __init__(self, context: LoadContext) -> None:
        """Called by the Weaver runtime only; authors never construct or override this."""
        if not isinstance(context, LoadContext):
            raise TypeError(
                f"{type(self).__name__} is constructed by the Weaver runtime with a "
                f"weaver.LoadContext, not {type(context).__name__}"
            )
        self.__context = context
        self.__staged_bookmark_json: Optional[str] = None

    # ------------------------------------------------------------------ to implement

    def read(self) -> Any:
        """Return this Table's staging rows (and, if incremental, optional delete keys).

        Override this synchronous method in your subclass.  Return, for a non-incremental
        Table, a Spark DataFrame with exactly the business columns; for an incremental Table
        one of ``staging``, ``(staging, delete_keys)``, ``None`` (no work) or
        ``(None, delete_keys)``.  See the class documentation (``help(weaver.Table)``).
        """
        raise NotImplementedError(
            f"Table {self.__qualified}: class {type(self).__name__} must implement read(self)"
        )

    # ------------------------------------------------------------------ load information

    @property
    def spark(self) -> "SparkSession":
        """The active SparkSession of this load."""
        return self.__context.spark

    @property
    def table_id(self) -> str:
        """This Table's ID, ``Schema.Object`` (exact case)."""
        return self.__context.table_id

    @property
    def item(self) -> str:
        """The Lakehouse item this Table belongs to, e.g. ``"Logistics"``."""
        return self.__context.item

    @property
    def load_timestamp(self) -> datetime:
        """The timestamp of this load: a timezone-aware UTC ``datetime``.

        It is the same value that Weaver writes into the audit columns of the rows this
        load inserts, updates or deletes.
        """
        return self.__context.load_timestamp  # type: ignore[return-value]

    @property
    def last_load_timestamp(self) -> datetime:
        """The load timestamp of the last succeeded load (timezone-aware UTC ``datetime``).

        ``datetime(1900, 1, 1, tzinfo=timezone.utc)`` when no load of this Table has
        succeeded yet, so ``where(col("changed_at") > self.last_load_timestamp)`` works on
        the first load too.
        """
        return self.__context.last_load_timestamp  # type: ignore[return-value]

    # ------------------------------------------------------------------ bookmarks

    @property
    def bookmark(self) -> Any:
        """The last committed bookmark (a JSON value: dict, list, str, number, bool) or ``None``.

        This is always the value committed by the last succeeded load; calling
        :meth:`set_bookmark` does not change it during the current ``read()``.  Each access
        returns a fresh copy, so mutating it has no effect - stage changes with
        :meth:`set_bookmark`.
        """
        return self.__context.bookmark_value

    def set_bookmark(self, value: Any) -> None:
        """Stage a new bookmark, committed atomically with this load's data.

        ``value`` must be JSON-serialisable (dict with string keys, list, str, int, float,
        bool or ``None``; no NaN or infinity).  It is serialised immediately, so later
        changes to the object are not picked up; calling ``set_bookmark`` again replaces the
        staged value.  Tuples come back as lists.  ``set_bookmark(None)`` clears the bookmark.
        If the load fails or is refused the committed bookmark does not move.

        Raises ``TypeError`` when the value cannot be serialised to JSON.
        """
        try:
            text = json.dumps(value, allow_nan=False, separators=(",", ":"), ensure_ascii=False)
        except (TypeError, ValueError) as exc:
            raise TypeError(
                f"Table {self.__qualified}: set_bookmark() needs a JSON-serialisable value "
                f"(dict, list, str, int, float, bool or None); got {type(value).__name__}: {exc}"
            ) from None
        self.__staged_bookmark_json = text

    # ------------------------------------------------------------------ reading other data

    def table(self, identity: str, include_deleted: bool = False) -> "DataFrame":
        """Return a DataFrame of another object's rows.

        ``identity`` is ``Schema.Object`` (same item), ``Files/Schema.Object`` (a file-based
        object of the same item) or ``Item.Schema.Object``.  By default only live rows are
        returned; ``include_deleted=True`` also returns soft-deleted rows.  Declare the object
        in the header's ``Dependencies`` so it is loaded first.
        """
        if not isinstance(identity, str) or not identity.strip():
            raise ValueError(
                f"Table {self.__qualified}: table() needs an identity such as "
                f"'Schema.Object', got {identity!r}"
            )
        if "$" in identity:
            raise ValueError(
                f"Table {self.__qualified}: identity {identity!r} must not contain '$'"
            )
        if not isinstance(include_deleted, bool):
            raise TypeError(
                f"Table {self.__qualified}: include_deleted must be True or False, "
                f"got {include_deleted!r}"
            )
        reader = self.__context.read_table
        if reader is None:
            raise RuntimeError(self.__no_runtime(f"self.table({identity!r})"))
        return reader(identity, include_deleted)

    def target(self) -> "DataFrame":
        """Return this Table's current live rows (its target before this load)."""
        reader = self.__context.read_target
        if reader is None:
            raise RuntimeError(self.__no_runtime("self.target()"))
        return reader()

    # ------------------------------------------------------------------ internals

    @property
    def __qualified(self) -> str:
        return self.__context.qualified_table_id

    def __no_runtime(self, call: str) -> str:
        return (
            f"Table {self.__qualified}: {call} is not available because this Table is not "
            f"running inside a Weaver load (its LoadContext has no reader). Load it through "
            f"Weaver (weaver.Workspace(spark, path).load(...) or LOAD WEAVER TABLE), or pass "
            f"read_table/read_target callables in the LoadContext when testing."
        )

    def __repr__(self) -> str:
        return f"<{type(self).__name__} Table {self.__qualified}>"


def _staged_bookmark_json(table: Table) -> Optional[str]:
    """The JSON text staged by ``set_bookmark``, or ``None`` when it was not called."""
    return table._Table__staged_bookmark_json  # type: ignore[attr-defined]
