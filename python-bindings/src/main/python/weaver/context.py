"""The per-load context that the Weaver runtime hands to a Python :class:`~weaver.Table`.

Authors never build a :class:`LoadContext` themselves during a real load: the runtime does,
once per load, and passes it to the Table's constructor.  Building one by hand is useful in
unit tests of a Table's ``read()`` (see :func:`weaver.contract.run_read`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Callable, Optional, Tuple

if TYPE_CHECKING:  # pragma: no cover - typing only; pyspark is optional at import time
    from pyspark.sql import DataFrame, SparkSession

__all__ = ["LoadContext", "NO_PREVIOUS_LOAD"]

#: ``last_load_timestamp`` of a Table that has never had a succeeded load (1900-01-01 UTC).
NO_PREVIOUS_LOAD = datetime(1900, 1, 1, tzinfo=timezone.utc)

_TABLE_ID = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*$")


def _utc(value: Any, name: str, where: str) -> datetime:
    if not isinstance(value, datetime):
        raise TypeError(f"{where}: {name} must be a datetime, not {type(value).__name__}")
    if value.tzinfo is None or value.tzinfo.utcoffset(value) is None:
        raise ValueError(
            f"{where}: {name} must be timezone-aware (e.g. datetime(..., tzinfo=timezone.utc)); "
            f"got naive {value.isoformat()}"
        )
    return value.astimezone(timezone.utc)


def _columns(value: Any, name: str, where: str) -> Tuple[str, ...]:
    if isinstance(value, (str, bytes)):
        raise TypeError(
            f"{where}: {name} must be a sequence of column names such as ({value!r},), "
            f"not a single string"
        )
    try:
        cols = tuple(value)
    except TypeError:
        raise TypeError(
            f"{where}: {name} must be a sequence of column names, not {type(value).__name__}"
        ) from None
    for col in cols:
        if not isinstance(col, str) or not col:
            raise TypeError(f"{where}: {name} must hold non-empty strings; got {col!r}")
    dupes = sorted({c for c in cols if cols.count(c) > 1})
    if dupes:
        raise ValueError(f"{where}: {name} repeats column(s) {', '.join(dupes)}")
    return cols


@dataclass(frozen=True)
class LoadContext:
    """Everything a :class:`~weaver.Table` can see about the load it is running in.

    Fields
    ------
    spark
        The active ``SparkSession``.
    table_id
        The Table ID, ``Schema.Object`` (exact case).
    item
        The Lakehouse item the Table belongs to, e.g. ``"Logistics"``.
    load_timestamp
        The timestamp of this load (timezone-aware; normalised to UTC).
    last_load_timestamp
        The load timestamp of the last *succeeded* load (timezone-aware; normalised to UTC).
        ``None`` means "never loaded" and becomes ``1900-01-01 00:00 UTC``.
    bookmark
        The last committed bookmark as JSON text, or ``None`` when none was ever committed.
        It is parsed (and so validated) when the context is created.
    incremental
        ``True`` for a Table declared ``Incremental: true``.
    primary_key
        The declared ``Primary key`` columns, in declaration order.  Empty when the Table is
        unkeyed or when the caller does not know it (delete-key column checks are skipped).
    business_columns
        The business columns staging must have (exact case, any order).  Empty when the
        caller does not know them (the staging column check is skipped).
    read_table
        ``read_table(identity, include_deleted) -> DataFrame``: the runtime's reader behind
        :meth:`Table.table`.  ``None`` outside a Weaver load.
    read_target
        ``read_target() -> DataFrame``: the runtime's reader behind :meth:`Table.target`.
        ``None`` outside a Weaver load.
    """

    spark: "SparkSession"
    table_id: str
    item: str
    load_timestamp: datetime
    last_load_timestamp: Optional[datetime] = None
    bookmark: Optional[str] = None
    incremental: bool = False
    primary_key: Tuple[str, ...] = ()
    business_columns: Tuple[str, ...] = ()
    read_table: Optional[Callable[[str, bool], "DataFrame"]] = None
    read_target: Optional[Callable[[], "DataFrame"]] = None

    def __post_init__(self) -> None:
        if not isinstance(self.item, str) or not self.item.strip():
            raise ValueError(f"LoadContext: item must be a non-empty string, got {self.item!r}")
        if not isinstance(self.table_id, str) or not _TABLE_ID.match(self.table_id):
            raise ValueError(
                f"LoadContext for item {self.item}: table_id must be 'Schema.Object' "
                f"(identifiers separated by one dot), got {self.table_id!r}"
            )
        where = f"LoadContext for {self.qualified_table_id}"
        set_ = object.__setattr__  # frozen dataclass: normalise fields in place once
        set_(self, "load_timestamp", _utc(self.load_timestamp, "load_timestamp", where))
        last = self.last_load_timestamp
        set_(
            self,
            "last_load_timestamp",
            NO_PREVIOUS_LOAD if last is None else _utc(last, "last_load_timestamp", where),
        )
        if not isinstance(self.incremental, bool):
            raise TypeError(f"{where}: incremental must be a bool, got {self.incremental!r}")
        set_(self, "primary_key", _columns(self.primary_key, "primary_key", where))
        set_(self, "business_columns", _columns(self.business_columns, "business_columns", where))
        if self.bookmark is not None:
            if not isinstance(self.bookmark, str):
                raise TypeError(
                    f"{where}: bookmark must be JSON text (str) or None, "
                    f"not {type(self.bookmark).__name__}"
                )
            try:
                json.loads(self.bookmark)
            except ValueError as exc:
                raise ValueError(f"{where}: bookmark is not valid JSON text: {exc}") from None
        for name in ("read_table", "read_target"):
            fn = getattr(self, name)
            if fn is not None and not callable(fn):
                raise TypeError(f"{where}: {name} must be callable or None")

    @property
    def qualified_table_id(self) -> str:
        """The item-qualified Table ID, ``Item.Schema.Object``."""
        return f"{self.item}.{self.table_id}"

    @property
    def bookmark_value(self) -> Any:
        """The committed bookmark parsed from JSON (a fresh copy on every access), or ``None``."""
        return None if self.bookmark is None else json.loads(self.bookmark)

