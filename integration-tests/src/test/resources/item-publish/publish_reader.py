"""A second process reading an item that publishes together, as a notebook does.

``python publish_reader.py args.json``: builds its session from ``confs`` (the README's settings),
then (once the item is built: it starts beside the first run) queries the join of
Shop.Sales.Orders and Shop.Sales.OrderTotal by name in a loop, one line per new answer in
``answers``, until the file ``stop`` exists. Then it computes, by path, what each publish
in Shop's ``_.ItemPublish`` pinned (the join at those versions, live rows) and prints one JSON
line: ``{"reads": n, "answers": [...distinct...], "published": [...]}``.
"""
import json
import os
import sys
import time

from pyspark.sql import SparkSession

with open(sys.argv[1], encoding="utf-8") as f:
    args = json.load(f)
builder = SparkSession.builder
for key, value in args["confs"].items():
    builder = builder.config(key, value)
spark = builder.getOrCreate()

LIVE = "timestamp'9999-12-31 00:00:00'"


def answer(order, total):
    row = spark.sql(
        f"SELECT count(*) AS n, sum(o.amount) AS amount, sum(t.total) AS total "
        f"FROM {order} o JOIN {total} t ON o.id = t.id"
    ).collect()[0]
    return f"{row['n']} rows, amount {row['amount']}, total {row['total']}"


reads = 0
answers = set()
with open(args["answers"], "w", encoding="utf-8") as out:
    while not os.path.exists(args["stop"]):
        try:
            a = answer("Shop.Sales.Orders", "Shop.Sales.OrderTotal")
        except Exception:  # noqa: BLE001 - started beside the first run: not built yet
            time.sleep(0.5)
            continue
        reads += 1
        if a not in answers:
            answers.add(a)
            out.write(a + "\n")
            out.flush()

tables = args["tables"]
published = []
for publish in (
    spark.read.format("delta").load(tables + "/_/ItemPublish").select("publish_id").distinct()
    .orderBy("publish_id").collect()
):
    pins = {
        r["table_id"]: r["delta_version"]
        for r in spark.read.format("delta").load(tables + "/_/ItemPublish")
        .where(f"publish_id = '{publish['publish_id']}'").collect()
    }
    for name in ("Sales.Orders", "Sales.OrderTotal"):
        schema, obj = name.split(".")
        spark.read.format("delta").option("versionAsOf", pins[name]).load(
            f"{tables}/{schema}/{obj}"
        ).where(f"row_delete_datetime = {LIVE}").createOrReplaceTempView(name.replace(".", "_"))
    published.append(answer("Sales_Orders", "Sales_OrderTotal"))
print(json.dumps({"reads": reads, "answers": sorted(answers), "published": published}), flush=True)
