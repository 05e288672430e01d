"""One local PySpark session with the Weaver jars for the whole pytest run.

The jars come from ``WEAVER_CLASSPATH_FILE`` (Maven writes ``python-bindings/target/
weaver-classpath.txt`` before the test phase), else from that file or from ``sql-extensions/
target`` in this source tree.  Jars PySpark already ships (Spark, Scala, ...) are left out.
Without pyspark the session tests are skipped, unless ``WEAVER_PYSPARK_REQUIRED`` is set
(Maven sets it: CI installs pyspark, so a missing pyspark fails there).
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Iterator, List

import pytest

ROOT = Path(__file__).resolve().parents[4]


def _artifact(jar: str) -> str:
    match = re.match(r"^(.*?)-\d", os.path.basename(jar))
    return match.group(1) if match else os.path.basename(jar)


def weaver_classpath() -> List[str]:
    """The Weaver jars (and Delta's) a PySpark session needs on its driver classpath."""
    import pyspark

    candidates = [
        os.environ.get("WEAVER_CLASSPATH_FILE"),
        str(ROOT / "python-bindings" / "target" / "weaver-classpath.txt"),
    ]
    entries: List[str] = []
    for candidate in candidates:
        if candidate and os.path.isfile(candidate):
            entries = open(candidate).read().strip().split(os.pathsep)
            break
    if not entries:
        target = ROOT / "sql-extensions" / "target"
        jars = [
            j
            for j in glob.glob(str(target / "weaver-spark-*_2.13-*.jar"))
            if not j.endswith(("-sources.jar", "-tests.jar"))
        ]
        listing = target / "weaver-classpath.txt"
        if not jars or not listing.is_file():
            raise RuntimeError(
                "the Weaver jars are not built: run 'mvn -B package -DskipTests' in " + str(ROOT)
            )
        entries = jars + listing.read_text().strip().split(os.pathsep)
    shipped = {
        _artifact(n) for n in os.listdir(os.path.join(os.path.dirname(pyspark.__file__), "jars"))
    }
    return [e for e in entries if e and _artifact(e) not in shipped]


@pytest.fixture(scope="session")
def spark() -> Iterator["object"]:
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        if os.environ.get("WEAVER_PYSPARK_REQUIRED"):
            raise
        pytest.skip("pyspark is not installed (run the tests with bin/weaver-python -m pytest)")
    warehouse = tempfile.mkdtemp(prefix="weaver-pytest-warehouse-")
    # Python workers run in the driver's environment, as in a notebook (else Spark starts
    # `python3` from PATH). Spark 4.2 runs Python UDFs through Arrow by default, so the workers'
    # Python needs pyarrow, which this environment has.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = (
        SparkSession.builder.master("local[2]")
        .appName("weaver-pytest")
        .config("spark.driver.extraClassPath", os.pathsep.join(weaver_classpath()))
        .config(
            "spark.sql.extensions",
            "io.weaver.sql.WeaverSparkSessionExtensions,io.delta.sql.DeltaSparkSessionExtension",
        )
        .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
        .config("spark.sql.warehouse.dir", warehouse)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.databricks.delta.snapshotPartitions", "2")
        # The embedded session's compiled-code cache (docs/performance.md, "Compiled code").
        .config("spark.sql.codegen.cache.maxEntries", "1000")
        .config("spark.driver.memory", "1g")
        # The throughput collector, as the Java tests' JVMs (docs/performance.md, "Test JVMs").
        .config("spark.driver.extraJavaOptions", "-XX:+UseParallelGC")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
    shutil.rmtree(warehouse, ignore_errors=True)
