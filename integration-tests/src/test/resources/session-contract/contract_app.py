"""The session contract, run as a user runs it: one Python process, one session.

``python contract_app.py [args.json]`` (default ``contract_args.json`` in the working folder), a
JSON object with keys ``mode`` (``classic``: this process builds the session
from ``confs``, as a notebook does; ``submit``: spark-submit built it; ``connect``: a Spark Connect
client of ``remote``), ``first`` (``sql`` or ``table``: how the session's first statement reads a
Table by name), ``customer_path`` and ``customer_version`` (the Delta folder and latest version of
Shop.Sales.Customer). Prints one ``probe <name> <value>`` line per probe; a probe that fails prints
``probe <name> error: <first line of the error>`` and the others still run.
"""
import json
import sys

from pyspark.sql import SparkSession

with open(sys.argv[1] if len(sys.argv) > 1 else "contract_args.json", encoding="utf-8") as f:
    args = json.load(f)
mode = args["mode"]
if mode == "classic":
    builder = SparkSession.builder
    for key, value in args["confs"].items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
elif mode == "connect":
    spark = SparkSession.builder.remote(args["remote"]).getOrCreate()
else:
    spark = SparkSession.builder.getOrCreate()

CUSTOMER = "Shop.Sales.Customer"


def probe(name, body):
    try:
        value = body()
    except Exception as error:  # every failure is the probe's result, not the run's
        text = str(error).strip().splitlines()
        value = "error: " + (text[0] if text else type(error).__name__)
    print(f"probe {name} {value}", flush=True)


def count(sql):
    return spark.sql(sql).collect()[0][0]


# The session's first statement: a plain read by name (no Weaver statement before it).
if args["first"] == "table":
    probe("first", lambda: spark.table(CUSTOMER).count())
else:
    probe("first", lambda: count(f"SELECT count(*) FROM {CUSTOMER}"))

probe("live_sql", lambda: count(f"SELECT count(*) FROM {CUSTOMER}"))
probe("live_table", lambda: spark.table(CUSTOMER).count())
probe("live_read_table", lambda: spark.read.table(CUSTOMER).count())
probe("live_weaver_format", lambda: spark.read.format("weaver").load(CUSTOMER).count())
probe(
    "all_option",
    lambda: spark.read.option("includeDeleted", "true").table(CUSTOMER).count(),
)
probe(
    "all_sql_options",
    lambda: count(f"SELECT count(*) FROM {CUSTOMER} WITH ('includeDeleted' = 'true')"),
)
probe("all_by_path", lambda: spark.read.format("delta").load(args["customer_path"]).count())
probe(
    "time_travel",
    lambda: count(f"SELECT count(*) FROM {CUSTOMER} VERSION AS OF {args['customer_version']}"),
)


def short_name():
    spark.sql("USE Shop.Sales")
    try:
        return count("SELECT count(*) FROM Customer")
    finally:
        spark.sql("USE spark_catalog.default")


probe("short_name", short_name)
probe("incremental", lambda: count("SELECT count(*) FROM Shop.Sales.Visit"))

# A derived Table loaded in this session reads its dependency's live rows.
probe(
    "derived_load",
    lambda: spark.sql("LOAD WEAVER TABLE Report.Sales.TierCount").collect()[0]["status"],
)
probe("derived", lambda: count("SELECT sum(n) FROM Report.Sales.TierCount"))

# DML by name that would rewrite every row is refused (docs/table-contract.md, "Guarantees").
probe("guard", lambda: spark.sql(f"UPDATE {CUSTOMER} SET tier = 'lead'").collect() and "allowed")

# An append by name is a load of the incremental Table: one more live visit.
probe(
    "append",
    lambda: spark.sql("INSERT INTO Shop.Sales.Visit VALUES (100, 1)").collect() is not None
    and count("SELECT count(*) FROM Shop.Sales.Visit"),
)
spark.stop()
