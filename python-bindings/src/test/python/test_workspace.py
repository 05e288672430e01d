"""End to end through a real local PySpark session and the JVM engine (see conftest.py).

Each test writes its own small workspace (its own item names: item catalogs live as long as
the session) and drives its Python Tables through a control file the Tables read, so one
Table can return each shape of the return contract in turn.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any, Dict

import pytest

import weaver

# The Python Tables below read ``<workspace>/control.json`` (Tables -> item -> Lakehouse -> root).
CONTROL = 'json.loads((Path(__file__).parents[3] / "control.json").read_text())'


def write_workspace(root: Path, item: str, files: Dict[str, str]) -> Path:
    tables = root / "Lakehouse" / item / "Tables"
    tables.mkdir(parents=True)
    for name, text in files.items():
        (tables / name).write_text(textwrap.dedent(text).lstrip())
    return root


def control(root: Path, **values: Any) -> None:
    (root / "control.json").write_text(json.dumps(values))


def one(results: list, table_id: str) -> dict:
    rows = [r for r in results if r["table_id"] == table_id]
    assert len(rows) == 1, results
    return rows[0]


def live_rows(spark: Any, ws: weaver.Workspace, item: str, schema: str, obj: str):
    path = f"{ws.lakehouse}/{item}/Tables/{schema}/{obj}"
    return spark.read.format("delta").load(path).where("year(row_delete_datetime) = 9999")


SOURCE_SQL = """
/*
Table ID: Feed.Source

Description: Rows the Python Table copies.

Primary key: id

*/
select id, name from values (1, 'a'), (2, 'b'), (3, 'c') as t(id, name);
"""

SNAPSHOT_PY = '''
"""
Table ID: Feed.Copy

Description: A snapshot Python Table over Feed.Source.

Primary key: id

Dependencies: [Feed.Source]


Schema:
  id: int
  name: string
  seen_target: bigint
"""

from pyspark.sql import functions as F

from weaver import Table


class Feed__Copy(Table):
    def read(self):
        before = self.target().count()
        return self.table("Feed.Source").select("id", "name", F.lit(before).alias("seen_target"))
'''


def test_snapshot_table_reads_other_tables_and_its_target(spark, tmp_path):
    root = write_workspace(
        tmp_path, "PySnap", {"Feed.Source.sql": SOURCE_SQL, "Feed__Copy.py": SNAPSHOT_PY}
    )
    ws = weaver.Workspace(spark, root)
    errors = [f for f in ws.check() if f["severity"] == "error"]
    assert errors == [], errors
    built = ws.build()
    assert {b["action"] for b in built} == {"created"}, built

    first = ws.load()
    assert [r["table_id"] for r in first] == ["PySnap.Feed.Source", "PySnap.Feed.Copy"]
    copy = one(first, "PySnap.Feed.Copy")
    assert copy["status"] == "succeeded", copy
    assert copy["rows_inserted"] == 3
    assert copy["target_live_rows_after"] == 3
    rows = live_rows(spark, ws, "PySnap", "Feed", "Copy")
    assert rows.where("seen_target = 0").count() == 3  # target() was empty on the first load

    # A plan runs the Python read() and predicts the load that follows; it writes nothing.
    planned = ws.plan("PySnap.Feed.Copy")
    assert len(planned) == 1, planned
    plan = planned[0]
    assert (plan["build_action"], plan["load_status"]) == ("unchanged", "succeeded"), plan
    assert plan["rows_updated"] == 3, plan
    assert [g["gate"] for g in plan["gates"]] == ["delete", "update"], plan
    assert ws.history("PySnap.Feed.Copy").count() == 1  # nothing recorded by the plan

    again = ws.load("PySnap.Feed.Copy")
    assert again[-1]["status"] == "succeeded", again
    assert again[-1]["rows_updated"] == 3  # seen_target is now 3 on every row
    assert all(again[-1][k] == plan[k] for k in ("rows_inserted", "rows_deleted", "rows_unchanged"))
    history = ws.history("PySnap.Feed.Copy")
    assert history.count() == 2
    assert history.first()["status"] == "succeeded"


INCREMENTAL_PY = '''
"""
Table ID: Feed.Events

Description: An incremental Python Table whose return shape the test chooses.

Primary key: id

Incremental: true


Schema:
  id: int
  seen_bookmark: string
"""

import json
from pathlib import Path

from weaver import Table


class Feed__Events(Table):
    def read(self):
        control = %s
        seen = json.dumps(self.bookmark)
        if "bookmark" in control:
            self.set_bookmark(control["bookmark"])
        if control.get("fail"):
            raise ValueError("boom: " + control["fail"])

        def rows(ids):
            return self.spark.createDataFrame(
                [(i, seen) for i in ids], "id int, seen_bookmark string")

        def keys(ids):
            return self.spark.createDataFrame([(i,) for i in ids], "id int")

        shape = control["shape"]
        if shape == "staging":
            return rows(control["ids"])
        if shape == "staging+keys":
            return rows(control["ids"]), keys(control["delete"])
        if shape == "none":
            return None
        if shape == "keys-only":
            return None, keys(control["delete"])
        if shape == "none-none":
            return None, None
        if shape == "list":
            return [rows(control["ids"]), keys(control["delete"])]
        if shape == "triple":
            return rows(control["ids"]), keys(control["delete"]), None
        if shape == "wrong-columns":
            return self.spark.createDataFrame([(1, "x")], "id int, other string")
        if shape == "wrong-keys":
            return rows(control["ids"]), self.spark.createDataFrame([("x",)], "name string")
        if shape == "pandas-like":
            return "not a dataframe"
        raise AssertionError(shape)
''' % CONTROL


@pytest.fixture
def events(spark, tmp_path):
    root = write_workspace(tmp_path, "PyInc", {"Feed__Events.py": INCREMENTAL_PY})
    ws = weaver.Workspace(spark, root)
    assert ws.build()[0]["action"] == "created"
    return root, ws


@pytest.fixture(scope="module")
def broken(spark, tmp_path_factory):
    """One built incremental Table the return-contract tests share: their loads write nothing."""
    root = write_workspace(
        tmp_path_factory.mktemp("broken"), "PyBad", {"Feed__Events.py": INCREMENTAL_PY}
    )
    ws = weaver.Workspace(spark, root)
    assert ws.build()[0]["action"] == "created"
    return root, ws


def load_events(root: Path, ws: weaver.Workspace, **values: Any) -> dict:
    control(root, **values)
    item = root.joinpath("Lakehouse").iterdir().__next__().name
    results = ws.load(f"{item}.Feed.Events")
    return results[-1]


def test_incremental_shapes_and_bookmarks_over_loads(spark, events):
    root, ws = events

    def seen():
        rows = live_rows(spark, ws, "PyInc", "Feed", "Events")
        return {r["id"]: r["seen_bookmark"] for r in rows.collect()}  # a handful of rows

    r = load_events(root, ws, shape="staging", ids=[1, 2, 3], bookmark={"n": 1})
    assert (r["status"], r["rows_inserted"]) == ("succeeded", 3), r
    assert set(seen().values()) == {"null"}  # no bookmark before the first load

    r = load_events(root, ws, shape="staging+keys", ids=[4], delete=[1], bookmark={"n": 2})
    assert (r["status"], r["rows_inserted"], r["rows_deleted"]) == ("succeeded", 1, 1), r
    assert seen()[4] == '{"n": 1}'  # the bookmark committed by load 1

    # A failing read() stages a bookmark but raises: nothing is written, the bookmark stays.
    r = load_events(root, ws, shape="staging", ids=[5], bookmark={"n": 99}, fail="on purpose")
    assert r["status"] == "failed", r
    assert "PyInc.Feed.Events" in r["message"] and "Feed__Events.py" in r["message"]
    assert "Traceback" in r["message"] and "ValueError: boom: on purpose" in r["message"]
    assert 'raise ValueError("boom: " + control["fail"])' in r["message"]
    assert 5 not in seen()

    r = load_events(root, ws, shape="staging", ids=[6], bookmark={"n": 3})
    assert r["status"] == "succeeded", r
    assert seen()[6] == '{"n": 2}'  # not 99: the failed load's bookmark never committed

    r = load_events(root, ws, shape="none", bookmark={"n": 4})
    assert r["status"] == "no_work", r

    r = load_events(root, ws, shape="keys-only", delete=[2])
    assert (r["status"], r["rows_deleted"], r["rows_inserted"]) == ("succeeded", 1, 0), r
    assert sorted(seen()) == [3, 4, 6]

    r = load_events(root, ws, shape="staging", ids=[7])  # no set_bookmark: it stays
    assert r["status"] == "succeeded", r
    assert seen()[7] == '{"n": 4}'  # the no_work load committed its bookmark (no data needed)


@pytest.mark.parametrize(
    "values, expected",
    [
        (dict(shape="none-none"), "(None, None)"),
        (dict(shape="list", ids=[1], delete=[1]), "use a tuple, not a list"),
        (dict(shape="triple", ids=[1], delete=[1]), "exactly 2 items"),
        (dict(shape="wrong-columns"), "other"),
        (dict(shape="wrong-keys", ids=[1]), "name"),
        (dict(shape="pandas-like"), "str"),
    ],
)
def test_return_contract_errors_fail_the_load_and_write_nothing(spark, broken, values, expected):
    root, ws = broken
    r = load_events(root, ws, bookmark={"n": 42}, **values)
    assert r["status"] == "failed", r
    assert "PyBad.Feed.Events" in r["message"], r
    assert "Feed__Events.py" in r["message"], r
    assert expected in r["message"], r
    assert live_rows(spark, ws, "PyBad", "Feed", "Events").count() == 0
    history = ws.history("PyBad.Feed.Events")
    assert history.where("status != 'failed'").count() == 0


SNAPSHOT_RETURNS_PY = '''
"""
Table ID: Feed.Snap

Description: A non-incremental Python Table returning what the test chooses.

Primary key: id


Schema:
  id: int
"""

import json
from pathlib import Path

from weaver import Table


class Feed__Snap(Table):
    def read(self):
        control = %s
        df = self.spark.createDataFrame([(1,)], "id int")
        if control["shape"] == "none":
            return None
        if control["shape"] == "tuple":
            return df, df
        return df
''' % CONTROL


def test_non_incremental_table_rejects_none_and_tuples(spark, tmp_path):
    root = write_workspace(tmp_path, "PySnapRet", {"Feed__Snap.py": SNAPSHOT_RETURNS_PY})
    ws = weaver.Workspace(spark, root)
    ws.build()
    for shape, words in (("none", "forget `return`"), ("tuple", "not incremental")):
        control(root, shape=shape)
        r = ws.load("PySnapRet.Feed.Snap")[-1]
        assert r["status"] == "failed", r
        assert words in r["message"] and "Feed__Snap.py" in r["message"], r
    control(root, shape="df")
    with pytest.raises(weaver.LoadError) as failed:
        control(root, shape="none")
        ws.load("PySnapRet.Feed.Snap", raise_on_failure=True)
    assert (failed.value.error_class, failed.value.sqlstate) == ("WEAVER_LOAD_FAILED", "55000")
    control(root, shape="df")
    r = ws.load("PySnapRet.Feed.Snap")[-1]
    assert (r["status"], r["rows_inserted"]) == ("succeeded", 1), r


MODULE_UDF_PY = '''
"""
Table ID: Feed.Labels

Description: Labels made by a UDF over a function of this module (runs in Spark's Python workers).

Primary key: id

Schema:
  id: bigint
  label: string
"""

from pyspark.sql import functions as F

from weaver import Table


def label(i):
    return "n%d" % i


class Feed__Labels(Table):
    def read(self):
        return self.spark.range(3).select("id", F.udf(label, "string")("id").alias("label"))
'''


def test_udf_over_a_function_of_the_table_file_runs_in_python_workers(spark, tmp_path):
    root = write_workspace(tmp_path, "PyUdf", {"Feed__Labels.py": MODULE_UDF_PY})
    ws = weaver.Workspace(spark, root)
    ws.build()
    r = ws.load("PyUdf.Feed.Labels")[-1]
    assert (r["status"], r["rows_inserted"]) == ("succeeded", 3), r
    labels = live_rows(spark, ws, "PyUdf", "Feed", "Labels").orderBy("id").select("label")
    assert [x["label"] for x in labels.collect()] == ["n0", "n1", "n2"]


def test_sql_load_weaver_table_calls_back_into_python(spark, tmp_path):
    root = write_workspace(
        tmp_path, "PySql", {"Feed.Source.sql": SOURCE_SQL, "Feed__Copy.py": SNAPSHOT_PY}
    )
    ws = weaver.Workspace(spark, root)  # registers this process as the session's Python
    ws.build()
    spark.conf.set("spark.weaver.workspace", str(root))
    try:
        rows = spark.sql("LOAD WEAVER ITEM PySql").collect()
        assert [(r["table_id"], r["status"]) for r in rows] == [
            ("PySql.Feed.Source", "succeeded"),
            ("PySql.Feed.Copy", "succeeded"),
        ], rows
        again = spark.sql("LOAD WEAVER TABLE PySql.Feed.Copy").collect()[-1]
        assert again["status"] == "succeeded", again
        assert again["rows_updated"] == 3
    finally:
        spark.conf.unset("spark.weaver.workspace")


def test_engine_refusals_are_python_errors(spark, tmp_path):
    root = write_workspace(tmp_path, "PyErr", {"Feed__Snap.py": SNAPSHOT_RETURNS_PY})
    ws = weaver.Workspace(spark, root)
    with pytest.raises(weaver.WeaverError, match="no Table PyErr.Feed.Nope") as missing:
        ws.load("PyErr.Feed.Nope")
    found = (missing.value.error_class, missing.value.sqlstate)
    assert found == ("WEAVER_TABLE_NOT_FOUND", "42P01"), found
    with pytest.raises(weaver.WeaverError, match="not a Table identity") as identity:
        ws.load("not an identity")
    assert identity.value.error_class == "WEAVER_NOT_A_TABLE_IDENTITY"
    (root / "Lakehouse" / "PyErr" / "Tables" / "Feed.Bad.sql").write_text("select 1 as x")
    with pytest.raises(weaver.CheckError) as error:
        ws.build()
    assert error.value.findings
    assert (error.value.error_class, error.value.sqlstate) == ("WEAVER_CHECK_FAILED", "42000")


FILES_PY = '''
"""
Table ID: Feed.FromFiles

Description: Reads two objects of the item's file area, Parquet files and a Delta table.

Primary key: id

Dependencies: [Files/Raw.Orders, Files/Raw.Ledger]

Stability row threshold: 0

Delete percentage threshold: 100

Update percentage threshold: 100


Schema:
  id: int
  name: string
  amount: int
"""

from weaver import Table


class Feed__FromFiles(Table):
    def read(self):
        ledger = self.table("Files/Raw.Ledger")
        return self.table("Files/Raw.Orders").join(ledger, "id").select("id", "name", "amount")
'''


def test_python_table_reads_files_objects_parquet_and_delta(spark, tmp_path):
    root = write_workspace(tmp_path, "PyFiles", {"Feed__FromFiles.py": FILES_PY})
    ws = weaver.Workspace(spark, root)
    files = Path(ws.lakehouse) / "PyFiles" / "Files" / "Raw"

    def deliver(orders, ledger):
        spark.createDataFrame(orders, "id int, name string").write.mode("overwrite").parquet(
            str(files / "Orders"))
        spark.createDataFrame(ledger, "id int, amount int").write.mode("overwrite").format(
            "delta").save(str(files / "Ledger"))

    deliver([(1, "a"), (2, "b"), (3, "c")], [(1, 10), (2, 20), (3, 30)])
    assert {b["action"] for b in ws.build()} == {"created"}
    first = one(ws.load(), "PyFiles.Feed.FromFiles")
    assert (first["status"], first["rows_inserted"]) == ("succeeded", 3), first

    deliver([(1, "a"), (2, "b"), (4, "d")], [(1, 10), (2, 25), (4, 40)])
    second = one(ws.load(), "PyFiles.Feed.FromFiles")
    assert second["status"] == "succeeded", second
    assert (second["rows_inserted"], second["rows_updated"], second["rows_deleted"]) == (1, 1, 1)
    live = live_rows(spark, ws, "PyFiles", "Feed", "FromFiles").orderBy("id")
    assert [(r.id, r.amount) for r in live.collect()] == [(1, 10), (2, 25), (4, 40)]
