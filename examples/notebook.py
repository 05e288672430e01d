"""A notebook-style walk through Weaver from PySpark, on the bundled example workspace.

Run it from anywhere with ``python3 examples/notebook.py`` (needs Java 17+, the Weaver jars
built once with ``mvn -B package -DskipTests`` or a first ``bin/weaver`` run, and
``pip install pyspark==4.1.1``).  Each ``# %%`` cell also runs on its own in a notebook.

On Fabric or Databricks, skip cell 1: the session exists already, with the Weaver jars from
the environment's libraries; ``import weaver`` works once the ``weaver-spark`` package (or
the Weaver bundle jar) is installed.
"""

# %% 1. A local Spark session with the Weaver jars on its driver classpath
import glob
import os
import re
import sys
import tempfile

import pyspark
from pyspark.sql import SparkSession

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "python-bindings", "src", "main", "python"))

import weaver  # noqa: E402  (from the source tree; pip users have it installed)


def weaver_jars() -> list:
    """The jars ``bin/weaver`` runs with, minus those PySpark ships (same Spark version)."""
    target = os.path.join(REPO, "sql-extensions", "target")
    jars = [
        j
        for j in glob.glob(os.path.join(target, "weaver-spark-*_2.13-*.jar"))
        if not j.endswith(("-sources.jar", "-tests.jar"))
    ]
    listing = os.path.join(target, "weaver-classpath.txt")
    if not jars or not os.path.isfile(listing):
        sys.exit(f"build the Weaver jars first: (cd {REPO} && mvn -B package -DskipTests)")

    def artifact(path: str) -> str:
        match = re.match(r"^(.*?)-\d", os.path.basename(path))
        return match.group(1) if match else os.path.basename(path)

    shipped = {artifact(n) for n in os.listdir(os.path.join(os.path.dirname(pyspark.__file__), "jars"))}
    entries = jars + open(listing).read().strip().split(os.pathsep)
    return [e for e in entries if e and artifact(e) not in shipped]


lakehouse = tempfile.mkdtemp(prefix="weaver-notebook-")
spark = (
    SparkSession.builder.master("local[2]")
    .appName("weaver-notebook")
    .config("spark.driver.extraClassPath", os.pathsep.join(weaver_jars()))
    .config("spark.sql.extensions",
            "io.weaver.sql.WeaverSparkSessionExtensions,io.delta.sql.DeltaSparkSessionExtension")
    .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
    .config("spark.sql.shuffle.partitions", "2")
    .config("spark.databricks.delta.snapshotPartitions", "2")
    .config("spark.ui.showConsoleProgress", "false")
    .getOrCreate()
)
spark.sparkContext.setLogLevel("ERROR")

# %% 2. The source systems deliver: the example's landing files into each item's Files/
# (bin/weaver does this itself for a new lakehouse; in Fabric the files are already there)
import shutil  # noqa: E402

for item in ("Logistics", "Sales"):
    shutil.copytree(os.path.join(REPO, "examples", "logistics", "Lakehouse", item, "Files"),
                    os.path.join(lakehouse, item, "Files"))

# %% 3. Open the workspace; Check it
ws = weaver.Workspace(spark, os.path.join(REPO, "examples", "logistics"), lakehouse=lakehouse)
print(ws)
findings = ws.check()
print(f"check: {len(findings)} finding(s)")

# %% 4. Build the Delta tables
for row in ws.build():
    print(f"{row['action']:10} {row['table_id']}")

# %% 5. Load everything: SQL Tables in the JVM, Python Tables' read() right here
for row in ws.load(raise_on_failure=True):
    print(f"{row['status']:10} {row['table_id']:32} +{row['rows_inserted']} "
          f"live {row['target_live_rows_after']}  {row['message'] or ''}")

# %% 6. Read the results (the item catalogs are registered on the session)
spark.sql("SELECT status, region, parcel_count FROM Logistics.Parcel.StatusCount "
          "ORDER BY status, region").show(5)
ws.history().select("table_id", "status", "rows_inserted", "delta_version").show(truncate=False)

# %% 7. SQL loads Python Tables too: this process is the session's Python runtime
spark.conf.set("spark.weaver.workspace", os.path.join(REPO, "examples", "logistics"))
spark.conf.set("spark.weaver.lakehouse", lakehouse)
spark.sql("LOAD WEAVER TABLE Logistics.Parcel.Current") \
    .select("table_id", "status", "rows_unchanged").show(truncate=False)

spark.stop()
