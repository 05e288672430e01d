"""Load faults through the Python entry point (docs/reliability.md, "Faults").

A fault is armed in the JVM engine (``io.weaver.load.LoadFaults``, one shot) and the load runs
through ``weaver.Workspace.load`` with a Python Table, whose ``read()`` runs in this process.
What the caller sees is checked, then the same load runs again: the live rows, exactly one
Delta commit carrying the change, the history rows, and that a further load is ordinary.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any, Iterator, List

import pytest
from py4j.protocol import Py4JJavaError

import weaver

ROWS_PY = '''
"""
Table ID: Feed.Rows

Description: Rows the test chooses (control.json at the workspace root).

Primary key: id

Stability row threshold: 0

Delete percentage threshold: 100

Update percentage threshold: 100


Schema:
  id: int
  name: string
"""

import json
from pathlib import Path

from weaver import Table


class Feed__Rows(Table):
    def read(self):
        control = json.loads((Path(__file__).parents[3] / "control.json").read_text())
        return self.spark.createDataFrame(
            [tuple(r) for r in control["rows"]], "id int, name string")
'''

SECOND = [[1, "a"], [2, "B"], [3, "c"]]


@pytest.fixture
def faults(spark: Any) -> Iterator[Any]:
    """The JVM's LoadFaults; whatever a test armed is disarmed afterwards."""
    jfaults = spark.sparkContext._jvm.io.weaver.load.LoadFaults
    try:
        yield jfaults
    finally:
        jfaults.disarm()


def arm(spark: Any, faults: Any, phase: str) -> None:
    faults.arm(spark.sparkContext._jvm.io.weaver.load.LoadFaults.Phase.valueOf(phase))


class Site:
    """One workspace with the Python Table Feed.Rows, loaded once with rows 1 and 2."""

    def __init__(self, spark: Any, root: Path, item: str) -> None:
        tables = root / "Lakehouse" / item / "Tables"
        tables.mkdir(parents=True)
        (tables / "Feed__Rows.py").write_text(textwrap.dedent(ROWS_PY).lstrip())
        self.spark = spark
        self.root = root
        self.identity = f"{item}.Feed.Rows"
        self.rows([[1, "a"], [2, "b"]])
        self.ws = weaver.Workspace(spark, root)
        assert [f for f in self.ws.check() if f["severity"] == "error"] == []
        assert {b["action"] for b in self.ws.build()} == {"created"}
        first = self.load()
        assert [r["status"] for r in first] == ["succeeded"], first
        self.path = f"{self.ws.lakehouse}/{item}/Tables/Feed/Rows"

    def rows(self, rows: List[List[Any]]) -> None:
        (self.root / "control.json").write_text(json.dumps({"rows": rows}))

    def load(self, **options: Any) -> List[dict]:
        return self.ws.load(self.identity, **options)

    def live(self) -> dict:
        frame = self.spark.read.format("delta").load(self.path)
        live = frame.where("year(row_delete_datetime) = 9999").select("id", "name")
        return {r["id"]: r["name"] for r in live.limit(10).collect()}

    def version(self) -> int:
        return self.spark.sql(f"DESCRIBE HISTORY delta.`{self.path}` LIMIT 1").first()["version"]

    def receipt_commits(self) -> int:
        history = self.spark.sql(f"DESCRIBE HISTORY delta.`{self.path}`")
        return history.where("userMetadata LIKE '%weaver_load%'").count()

    def history(self) -> List[str]:
        """Statuses in ``_.LoadHistory``, oldest first; each load id once."""
        rows = self.ws.history(self.identity).select("load_id", "status", "started_at")
        ordered = rows.orderBy("started_at", "load_id").limit(20).collect()
        ids = [r["load_id"] for r in ordered]
        assert len(ids) == len(set(ids)), ids
        return [r["status"] for r in ordered]

    def assert_converged_and_usable(self) -> None:
        assert self.live() == {1: "a", 2: "B", 3: "c"}
        assert self.receipt_commits() == 2, "the second load's change is committed exactly once"
        self.rows([[1, "A"], [2, "B"], [3, "c"]])
        after = self.load()
        assert [r["status"] for r in after] == ["succeeded"], after
        assert after[0]["rows_updated"] == 1 and after[0]["rows_unchanged"] == 2, after
        assert self.live() == {1: "A", 2: "B", 3: "c"}
        assert self.receipt_commits() == 3


def test_stop_after_the_commit_raises_and_the_rerun_recovers(spark, faults, tmp_path):
    site = Site(spark, tmp_path, "PyFaultCommit")
    before = site.version()
    site.rows(SECOND)
    arm(spark, faults, "AFTER_COMMIT")
    # A stop is the process dying there; py4j raises the JVM's exception as Py4JJavaError.
    with pytest.raises(Py4JJavaError) as stop:
        site.load()
    java = stop.value.java_exception
    assert java.getClass().getName() == "io.weaver.load.LoadFaults$InjectedFault"
    assert java.getMessage() == "injected fault at AFTER_COMMIT"
    assert "injected fault at AFTER_COMMIT" in str(stop.value)
    assert not faults.armed(), "the fault fired"
    assert site.version() == before + 1, "the commit landed"
    assert site.history() == ["succeeded"], "the stopped load wrote no history"

    rerun = site.load()
    assert [r["status"] for r in rerun] == ["recovered", "succeeded"], rerun
    assert rerun[0]["rows_inserted"] == 1 and rerun[0]["rows_updated"] == 1, rerun
    assert rerun[1]["rows_unchanged"] == 3, rerun
    assert site.version() == before + 1, "not applied twice"
    assert site.history() == ["succeeded", "recovered", "succeeded"]
    site.assert_converged_and_usable()


def test_task_failure_during_the_write_is_a_load_error_and_the_rerun_applies_once(
    spark, faults, tmp_path
):
    site = Site(spark, tmp_path, "PyFaultWrite")
    before = site.version()
    site.rows(SECOND)
    arm(spark, faults, "DURING_WRITE")
    with pytest.raises(weaver.LoadError) as failed:
        site.load(raise_on_failure=True)
    message = str(failed.value)
    assert message.startswith(site.identity + ": failed: "), message
    assert "injected failure at DURING_WRITE" in message, message
    assert [r["status"] for r in failed.value.results] == ["failed"]
    assert site.version() == before, "a failed write commits nothing"
    assert site.live() == {1: "a", 2: "b"}
    assert site.history() == ["succeeded", "failed"]

    rerun = site.load(raise_on_failure=True)
    assert [r["status"] for r in rerun] == ["succeeded"], rerun
    assert rerun[0]["rows_inserted"] == 1 and rerun[0]["rows_updated"] == 1, rerun
    assert site.history() == ["succeeded", "failed", "succeeded"]
    site.assert_converged_and_usable()
