"""Weaver-built Delta tables read outside Spark (docs/environments.md, "Readers outside Spark").

Loads write deletion vectors by default, which delta-rs (the ``deltalake`` package) refuses to
read. A Table declared ``Delta deletion vectors: false`` is created without them, its loads take
MERGE's copy-on-write path, and ``deltalake`` reads it. The refusal is asserted too, so that this
test notices the day the pinned delta-rs (requirements-test.txt) learns deletion vectors.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any, List

import pytest

import weaver

deltalake = pytest.importorskip("deltalake")
pl = pytest.importorskip("polars")
pa = pytest.importorskip("pyarrow")

# The message delta-rs 1.6.6 gives for a table whose protocol names deletion vectors.
DELTA_RS_REFUSAL = "{'deletionVectors'} but these are not yet supported by the deltalake reader"

HEADER = """
/*
Table ID: Feed.{name}

Description: Rows of the landing folder, for readers outside Spark.

Primary key: id

Delete percentage threshold: 100

Update percentage threshold: 100
{extra}
*/
select id, name from parquet.`Files/landing`;
"""


def table_file(name: str, extra: str = "") -> str:
    return textwrap.dedent(HEADER).lstrip().format(name=name, extra=extra)


class Lake:
    """A one-Table workspace, its landing folder and the built table's path."""

    def __init__(self, spark: Any, root: Path, item: str, name: str, extra: str = ""):
        self.spark = spark
        self.item = item
        self.file = root / "Lakehouse" / item / "Tables" / f"Feed.{name}.sql"
        self.file.parent.mkdir(parents=True)
        self.declare(extra)
        self.ws = weaver.Workspace(spark, root)
        self.landing = Path(self.ws.lakehouse) / item / "Files" / "landing"
        self.path = f"{self.ws.lakehouse}/{item}/Tables/Feed/{name}"
        self.table_id = f"{item}.Feed.{name}"

    def declare(self, extra: str) -> None:
        name = self.file.name[len("Feed."):-len(".sql")]
        self.file.write_text(table_file(name, extra))

    def deliver(self, rows: List[tuple]) -> None:
        self.spark.createDataFrame(rows, "id int, name string").write.mode("overwrite").parquet(
            str(self.landing))

    def load(self) -> dict:
        results = [r for r in self.ws.load() if r["table_id"] == self.table_id]
        assert len(results) == 1 and results[0]["status"] == "succeeded", results
        return results[0]

    def build(self) -> dict:
        built = [b for b in self.ws.build() if b["table_id"] == self.table_id]
        assert len(built) == 1, built
        return built[0]

    def detail(self) -> Any:
        return self.spark.sql(f"DESCRIBE DETAIL delta.`{self.path}`").first()

    def spark_rows(self) -> list:
        return rows(self.spark.read.format("delta").load(self.path).toArrow())


def read_deltalake(path: str) -> "pa.Table":
    return deltalake.DeltaTable(path).to_pyarrow_table()


def read_polars(path: str) -> "pa.Table":
    """polars' own Delta reader (it applies deletion vectors where there are some)."""
    return pl.read_delta(path).to_arrow()


def rows(table: "pa.Table") -> list:
    """The rows sorted by key, timestamps as UTC instants (Spark's and delta-rs's zones differ)."""
    columns = []
    for field in table.schema:
        column = table.column(field.name)
        if pa.types.is_timestamp(field.type):
            column = column.cast(pa.timestamp("us", tz="UTC"))
        columns.append(column)
    normal = pa.Table.from_arrays(columns, names=table.column_names)
    return sorted(normal.to_pylist(), key=lambda r: r["id"])


def two_loads(lake: Lake) -> None:
    """A first load (of the delivery Build saw), then one that updates a row, soft-deletes one
    and inserts one."""
    assert lake.load()["rows_inserted"] == 4
    lake.deliver([(1, "a"), (2, "B"), (4, "d"), (5, "e")])
    second = lake.load()
    assert (second["rows_inserted"], second["rows_updated"], second["rows_deleted"]) == (1, 1, 1)


def test_table_without_deletion_vectors_reads_in_deltalake_and_polars(spark, tmp_path):
    lake = Lake(spark, tmp_path, "PyLean", "Lean", "\nDelta deletion vectors: false\n")
    lake.deliver([(1, "a"), (2, "b"), (3, "c"), (4, "d")])  # Build reads the landing's schema
    built = lake.build()
    assert built["action"] == "created", built
    detail = lake.detail()
    assert detail["properties"].get("delta.enableDeletionVectors") == "false", detail
    assert "deletionVectors" not in detail["tableFeatures"], detail

    two_loads(lake)
    # Without deletion vectors the keyed load runs as a MERGE that rewrites the touched files.
    last = spark.sql(f"DESCRIBE HISTORY delta.`{lake.path}` LIMIT 1").first()
    assert last["operation"] == "MERGE", last

    expected = lake.spark_rows()
    assert len(expected) == 5
    live = {r["id"]: r["name"] for r in expected if r["row_delete_datetime"].year == 9999}
    assert live == {1: "a", 2: "B", 4: "d", 5: "e"}  # 3 is soft-deleted, still a row

    # The plain calls read the rows exactly, the live sentinel 9999-12-31 included: Weaver writes
    # Parquet timestamps as microseconds (Spark's default INT96 reads as nanoseconds there).
    assert rows(read_deltalake(lake.path)) == expected
    assert rows(read_polars(lake.path)) == expected


def test_default_table_is_refused_by_deltalake_until_declared_without(spark, tmp_path):
    lake = Lake(spark, tmp_path, "PyPlain", "Plain")
    lake.deliver([(1, "a"), (2, "b"), (3, "c"), (4, "d")])
    built = lake.build()
    assert built["action"] == "created", built
    two_loads(lake)
    assert "deletionVectors" in lake.detail()["tableFeatures"]
    expected = lake.spark_rows()

    # delta-rs refuses any table whose protocol names deletion vectors.
    with pytest.raises(Exception) as refused:
        deltalake.DeltaTable(lake.path).to_pyarrow_table()
    assert DELTA_RS_REFUSAL in str(refused.value), str(refused.value)
    # polars' own Delta reader applies the deletion vectors: the same rows as Spark.
    assert rows(read_polars(lake.path)) == expected

    # Declaring the key off on the built table: Build drops the feature (the files holding
    # deletion vectors are rewritten), the rows stay, and delta-rs reads the table.
    lake.declare("\nDelta deletion vectors: false\n")
    altered = lake.build()
    assert altered["action"] == "altered", altered
    assert "deletion vectors dropped" in altered["message"], altered
    detail = lake.detail()
    assert "deletionVectors" not in detail["tableFeatures"], detail
    assert lake.spark_rows() == expected
    assert rows(read_deltalake(lake.path)) == expected

    # Loads go on, now by MERGE, and delta-rs keeps reading.
    lake.deliver([(1, "a"), (4, "D"), (5, "e")])
    third = lake.load()
    assert (third["rows_updated"], third["rows_deleted"]) == (1, 1), third
    now = lake.spark_rows()
    assert rows(read_deltalake(lake.path)) == now
    assert {r["id"] for r in now if r["row_delete_datetime"].year == 9999} == {1, 4, 5}
