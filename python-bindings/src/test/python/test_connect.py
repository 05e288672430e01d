"""weaver.Workspace and Python Tables over a real local Spark Connect server.

One server per test run (module fixture): the pyspark wheel's ``spark-submit`` runs
``org.apache.spark.sql.connect.service.SparkConnectServer`` (``local[2]``, loopback only, a free
port) with the Weaver jars and Delta on its driver classpath; it is stopped when the module ends.
The client is ``SparkSession.builder.remote("sc://localhost:<port>")`` in this process: no JVM
here, so every call goes through Weaver's SQL statements, and Python Tables' ``read()`` runs
here.  Outside CI a missing Connect client (``pyspark[connect]``'s extras) skips the module; in
CI (``CI`` set) or with ``WEAVER_PYSPARK_REQUIRED`` it fails instead.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any, Dict, Iterator

import pytest

import weaver
from conftest import weaver_classpath

ITEM = "Conn"

SOURCE_SQL = """
/*
Table ID: Feed.Source

Description: A Spark SQL Table the Python Tables read.

Primary key: id

*/
select id, name from values (1, 'a'), (2, 'b'), (3, 'c') as t(id, name);
"""

COPY_PY = '''
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

EVENTS_PY = '''
"""
Table ID: Feed.Events

Description: An incremental Python Table driven by control.json.

Primary key: id

Incremental: true


Schema:
  id: int
  seen_bookmark: string
  seen_load_ts: string
"""

import json
from pathlib import Path

from weaver import Table


class Feed__Events(Table):
    def read(self):
        control = json.loads((Path(__file__).parents[3] / "control.json").read_text())
        seen = json.dumps(self.bookmark)
        if "bookmark" in control:
            self.set_bookmark(control["bookmark"])
        if control.get("fail"):
            raise ValueError("boom: " + control["fail"])
        ts = self.load_timestamp.strftime("%Y-%m-%dT%H:%M:%S.%f")

        def rows(ids):
            return self.spark.createDataFrame(
                [(i, seen, ts) for i in ids], "id int, seen_bookmark string, seen_load_ts string")

        def keys(ids):
            return self.spark.createDataFrame([(i,) for i in ids], "id int")

        shape = control["shape"]
        if shape == "staging":
            return rows(control["ids"])
        if shape == "staging+keys":
            return rows(control["ids"]), keys(control["delete"])
        if shape == "none":
            return None
        raise AssertionError(shape)
'''

AFTER_PY = '''
"""
Table ID: Feed.After

Description: Depends on Feed.Events, so it is skipped when Events fails.

Primary key: id

Dependencies: [Feed.Events]


Schema:
  id: int
"""

from weaver import Table


class Feed__After(Table):
    def read(self):
        return self.table("Feed.Events").select("id")
'''


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _required() -> bool:
    return bool(os.environ.get("CI") or os.environ.get("WEAVER_PYSPARK_REQUIRED"))


@pytest.fixture(scope="module")
def server() -> Iterator[Dict[str, Any]]:
    """A Spark Connect server with Weaver and Delta, started once and always stopped."""
    try:
        import pyspark
        from pyspark.sql.connect.session import SparkSession as _RemoteSession  # noqa: F401
    except ImportError as error:
        if _required():
            raise
        pytest.skip(f"no Spark Connect client ({error}); pip install 'pyspark[connect]'")
    home = os.path.dirname(pyspark.__file__)
    work = Path(tempfile.mkdtemp(prefix="weaver-connect-"))
    port = _free_port()
    log = open(work / "server.log", "w")
    env = dict(os.environ, SPARK_HOME=home, SPARK_LOCAL_IP="127.0.0.1")
    env.pop("PYSPARK_GATEWAY_PORT", None)
    confs = {
        "spark.driver.extraClassPath": os.pathsep.join(weaver_classpath()),
        "spark.sql.extensions": "io.weaver.sql.WeaverSparkSessionExtensions,"
        "io.delta.sql.DeltaSparkSessionExtension",
        "spark.sql.catalog.spark_catalog": "org.apache.spark.sql.delta.catalog.DeltaCatalog",
        "spark.connect.grpc.binding.address": "127.0.0.1",
        "spark.connect.grpc.binding.port": str(port),
        "spark.sql.warehouse.dir": str(work / "warehouse"),
        "spark.ui.enabled": "false",
        "spark.sql.shuffle.partitions": "2",
        "spark.databricks.delta.snapshotPartitions": "1",
        "spark.driver.extraJavaOptions": f"-Djava.io.tmpdir={work} -XX:+UseParallelGC",
    }
    command = [
        os.path.join(home, "bin", "spark-submit"),
        "--class", "org.apache.spark.sql.connect.service.SparkConnectServer",
        "--master", "local[2]",
        "--driver-memory", "1g",
    ]
    for key, value in confs.items():
        command += ["--conf", f"{key}={value}"]
    command.append("spark-internal")
    started = time.monotonic()
    process = subprocess.Popen(
        command, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=work, start_new_session=True
    )
    try:
        deadline = started + 240
        while True:
            if process.poll() is not None:
                raise RuntimeError(
                    f"the Spark Connect server exited ({process.returncode}):\n"
                    + (work / "server.log").read_text()[-4000:]
                )
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        "the Spark Connect server did not listen within 240 s:\n"
                        + (work / "server.log").read_text()[-4000:]
                    ) from None
                time.sleep(0.5)
        print(f"\nSpark Connect server up on port {port} in {time.monotonic() - started:.1f} s")
        yield {"port": port, "work": work}
    finally:
        try:
            os.killpg(process.pid, 15)
            process.wait(timeout=30)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(process.pid, 9)
            except ProcessLookupError:
                pass
            process.wait()
        log.close()
        shutil.rmtree(work, ignore_errors=True)


@pytest.fixture(scope="module")
def remote(server) -> Iterator[Any]:
    from pyspark.sql import SparkSession

    before = os.environ.get("SPARK_CONNECT_MODE_ENABLED")
    # as users write it; it also switches pyspark.sql.functions to Connect for this process
    session = SparkSession.builder.remote(f"sc://localhost:{server['port']}").getOrCreate()
    try:
        yield session
    finally:
        session.stop()
        # the classic session of the other test modules must not see Connect mode
        if before is None:
            os.environ.pop("SPARK_CONNECT_MODE_ENABLED", None)
        else:
            os.environ["SPARK_CONNECT_MODE_ENABLED"] = before


def _workspace(root: Path, files: Dict[str, str], item: str = ITEM) -> Path:
    """A workspace of one item (item catalogs live as long as the session: one name per test)."""
    tables = root / "Lakehouse" / item / "Tables"
    tables.mkdir(parents=True)
    for name, text in files.items():
        (tables / name).write_text(textwrap.dedent(text).lstrip())
    return root


def _control(root: Path, **values: Any) -> None:
    (root / "control.json").write_text(json.dumps(values))


def _one(results: list, table_id: str) -> dict:
    rows = [r for r in results if r["table_id"] == table_id]
    assert len(rows) == 1, results
    return rows[0]


def _live(remote: Any, name: str) -> Dict[int, Any]:
    rows = remote.read.format("weaver").load(name).collect()  # a handful of rows
    return {r["id"]: r for r in rows}


def test_workspace_over_spark_connect(remote, tmp_path):
    root = _workspace(
        tmp_path / "ws",
        {
            "Feed.Source.sql": SOURCE_SQL,
            "Feed__Copy.py": COPY_PY,
            "Feed__Events.py": EVENTS_PY,
            "Feed__After.py": AFTER_PY,
        },
    )
    assert not hasattr(remote, "_jsparkSession")  # a real Connect session, no JVM here
    ws = weaver.Workspace(remote, root)
    assert remote.conf.get("spark.weaver.workspace") == str(root)

    assert ws.check() == []
    built = ws.build()
    assert sorted((r["table_id"], r["action"]) for r in built) == [
        (f"{ITEM}.Feed.After", "created"),
        (f"{ITEM}.Feed.Copy", "created"),
        (f"{ITEM}.Feed.Events", "created"),
        (f"{ITEM}.Feed.Source", "created"),
    ], built

    # Every Table of the item in dependency order: SQL Source, then the Python Tables; Events
    # has no control file yet, so its read() fails and After, which depends on it, is skipped.
    results = ws.load_item(ITEM)
    order = [r["table_id"] for r in results]
    assert order.index(f"{ITEM}.Feed.Source") < order.index(f"{ITEM}.Feed.Copy"), order
    assert order.index(f"{ITEM}.Feed.Events") < order.index(f"{ITEM}.Feed.After"), order
    source = _one(results, f"{ITEM}.Feed.Source")
    assert (source["status"], source["rows_inserted"]) == ("succeeded", 3), source
    copy = _one(results, f"{ITEM}.Feed.Copy")
    assert (copy["status"], copy["rows_inserted"]) == ("succeeded", 3), copy
    events = _one(results, f"{ITEM}.Feed.Events")
    assert events["status"] == "failed", events
    assert "Feed__Events.py" in events["message"] and "FileNotFoundError" in events["message"]
    after = _one(results, f"{ITEM}.Feed.After")
    assert after["status"] == "skipped", after
    assert after["message"] == f"not loaded: dependency {ITEM}.Feed.Events was failed", after
    assert set(after) == set(source)  # the same result keys as the engine's rows
    copied = _live(remote, f"{ITEM}.Feed.Copy")
    assert {k: (v["name"], v["seen_target"]) for k, v in copied.items()} == {
        1: ("a", 0), 2: ("b", 0), 3: ("c", 0)
    }

    # A plan over Connect: the SQL Table is predicted on the server; a Python Table's read()
    # runs in the client, so the server's plan says it is skipped and why. Nothing is written.
    plans = {p["table_id"]: p for p in ws.plan(item=ITEM)}
    planned = plans[f"{ITEM}.Feed.Source"]
    assert (planned["load_status"], planned["rows_unchanged"]) == ("succeeded", 3), planned
    assert plans[f"{ITEM}.Feed.Copy"]["load_status"] == "skipped", plans
    assert ws.history(f"{ITEM}.Feed.Source").count() == 1

    # The incremental Table: staging, delete keys, a failed read(), no work;
    # bookmarks advance with the loads that commit them, and a failed read() never moves them.
    name = f"{ITEM}.Feed.Events"
    _control(root, shape="staging", ids=[1, 2, 3], bookmark={"n": 1})
    r = ws.load(name)[-1]
    assert (r["status"], r["rows_inserted"]) == ("succeeded", 3), r
    assert {v["seen_bookmark"] for v in _live(remote, name).values()} == {"null"}
    # the load timestamp read() saw is the one in the audit columns
    stamped = (
        remote.read.format("weaver")
        .option("includeDeleted", "true")
        .load(name)
        .selectExpr(
            "seen_load_ts",
            "date_format(to_utc_timestamp(row_insert_datetime, current_timezone()), "
            "\"yyyy-MM-dd'T'HH:mm:ss.SSSSSS\") as stamped",
        )
        .collect()
    )
    assert len(stamped) == 3 and all(s["seen_load_ts"] == s["stamped"] for s in stamped), stamped
    stale = _described(remote, name)["load_context"]

    _control(root, shape="staging+keys", ids=[4], delete=[1], bookmark={"n": 2})
    r = ws.load(name)[-1]
    assert (r["status"], r["rows_inserted"], r["rows_deleted"]) == ("succeeded", 1, 1), r
    assert _live(remote, name)[4]["seen_bookmark"] == '{"n": 1}'

    # A load staged under a context another load has since moved on from writes nothing.
    r = remote.sql(f"LOAD WEAVER TABLE {name} WITH NO WORK CONTEXT '{stale}'").collect()[-1]
    assert r["status"] == "failed" and "committed after its read() ran" in r["message"], r

    _control(root, shape="staging", ids=[5], bookmark={"n": 99}, fail="on purpose")
    r = ws.load(name)[-1]
    assert r["status"] == "failed", r
    assert "ValueError: boom: on purpose" in r["message"] and "Traceback" in r["message"], r
    assert _described(remote, name)["bookmark"] == '{"n":2}'  # not 99

    _control(root, shape="none", bookmark={"n": 3})
    r = ws.load(name)[-1]
    assert r["status"] == "no_work", r
    assert _described(remote, name)["bookmark"] == '{"n":3}'  # a no-work load commits it

    assert sorted(_live(remote, name)) == [2, 3, 4]

    # Test and history, as in a classic session.
    tests = ws.test()
    assert len(tests) == 4 and all(t["status"] == "passed" for t in tests), tests
    assert {t["kind"] for t in tests} == {"primary-key"}
    history = ws.history(name)
    assert history.columns[:3] == ["load_id", "table_id", "status"]
    statuses = [h["status"] for h in history.collect()]
    assert statuses == ["no_work", "failed", "failed", "succeeded", "succeeded", "failed"], statuses


def _described(remote: Any, name: str) -> Any:
    return remote.sql(f"DESCRIBE WEAVER LOAD TABLE {name}").collect()[0]


def test_refusals_over_spark_connect(remote, tmp_path):
    root = _workspace(
        tmp_path / "ws", {"Feed.Source.sql": SOURCE_SQL, "Feed__Copy.py": COPY_PY}, "Refused"
    )
    ws = weaver.Workspace(remote, root)
    with pytest.raises(weaver.WeaverError, match="no Table") as missing:
        ws.load("Feed.Nothing")
    found = (missing.value.error_class, missing.value.sqlstate)
    assert found == ("WEAVER_TABLE_NOT_FOUND", "42P01"), found
    assert missing.value.parameters["table"].endswith("Feed.Nothing"), missing.value.parameters
    assert missing.value.parameters["message"] == str(missing.value), missing.value.parameters
    with pytest.raises(weaver.WeaverError, match="not a Table identity"):
        ws.load("Nothing")
    # A Python Table not built: the engine's own row, read() never runs.
    r = ws.load("Feed.Copy")[-1]
    assert r["status"] == "failed" and "is not built yet" in r["message"], r

    # The statement form checks its views and its Table.
    with pytest.raises(Exception, match=r"no temporary view `nope`") as view:
        remote.sql("LOAD WEAVER TABLE Refused.Feed.Copy FROM VIEW nope").collect()
    assert view.value.getCondition() == "WEAVER_VIEW_NOT_FOUND", view.value
    assert view.value.getSqlState() == "42P01", view.value
    assert view.value.getMessageParameters()["view"] == "nope", view.value
    with pytest.raises(Exception, match="only Python Tables"):
        remote.sql("LOAD WEAVER TABLE Refused.Feed.Source WITH NO WORK").collect()

    broken = _workspace(tmp_path / "broken", {"Feed.Source.sql": "select 1 as id;"}, "Broken")
    bad = weaver.Workspace(remote, broken)
    assert any(f["severity"] == "error" for f in bad.check())
    with pytest.raises(weaver.CheckError) as error:
        bad.build()
    assert error.value.findings, error.value
    assert (error.value.error_class, error.value.sqlstate) == ("WEAVER_CHECK_FAILED", "42000")
    assert int(error.value.parameters["errors"]) >= 1, error.value.parameters

    with pytest.raises(weaver.WeaverError, match="cannot open the workspace"):
        weaver.Workspace(remote, tmp_path / "missing")


def test_an_item_that_publishes_together_over_spark_connect(remote, tmp_path):
    """The client loads an item Table by Table and ends with its publish (docs/python.md)."""
    mirror = """
    /*
    Table ID: Feed.Mirror

    Description: Feed.Source read by name.

    Primary key: id
    */
    select id, name from Feed.Source;
    """
    root = _workspace(
        tmp_path / "ws", {"Feed.Source.sql": SOURCE_SQL, "Feed.Mirror.sql": mirror}, "Pub"
    )
    (root / "weaver.yaml").write_text("item.Pub.publish: together\n")
    ws = weaver.Workspace(remote, root)
    ws.build()
    results = ws.load_item("Pub")
    assert [r["status"] for r in results] == ["succeeded", "succeeded"], results
    assert not any(
        w.startswith("committed, not published") for r in results for w in r["warnings"]
    ), results  # each Table's load waited for the publish the client ended with
    publishes = remote.sql("SHOW WEAVER PUBLISHES FOR Pub").collect()
    assert [(p["kind"], p["table_id"]) for p in publishes] == [
        ("publish", "Feed.Mirror"),
        ("publish", "Feed.Source"),
        ("first", "Feed.Mirror"),
        ("first", "Feed.Source"),
    ], publishes
    assert remote.sql("SELECT count(*) AS n FROM Pub.Feed.Mirror").collect()[0]["n"] == 3
