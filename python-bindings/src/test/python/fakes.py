"""Test doubles: pyspark is not installed for this module's unit tests."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from weaver import LoadContext

LOAD_TS = datetime(2026, 11, 30, 9, 0, tzinfo=timezone.utc)
LAST_TS = datetime(2026, 11, 29, 9, 0, tzinfo=timezone.utc)


class FakeDataFrame:
    """Just enough of a DataFrame for contract logic: a list of column names."""

    def __init__(self, *columns: str) -> None:
        self.columns = list(columns)

    def __repr__(self) -> str:
        return f"FakeDataFrame{tuple(self.columns)}"


def context(**overrides: Any) -> LoadContext:
    values: dict = dict(
        spark=object(),
        table_id="Parcel.Current",
        item="Logistics",
        load_timestamp=LOAD_TS,
        last_load_timestamp=LAST_TS,
        bookmark=None,
        incremental=False,
        primary_key=("parcel_id",),
        business_columns=("parcel_id", "status"),
    )
    values.update(overrides)
    return LoadContext(**values)


def returning(value: Any, name: str = "Parcel__Current"):
    """A Table class whose read() returns ``value``."""
    from weaver import Table

    return type(name, (Table,), {"read": lambda self: value})


def df(*columns: str) -> FakeDataFrame:
    return FakeDataFrame(*columns)

