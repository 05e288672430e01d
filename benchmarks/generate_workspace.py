#!/usr/bin/env python3
"""Writes a synthetic Weaver workspace of N Tables (all three forms, keys, notes, dependencies).

Usage: generate_workspace.py N DIR
The workspace is valid: `bin/weaver check --workspace DIR` must report no findings.
"""
import os
import sys


def sql_table(item, schema, obj, deps, i):
    dep_line = "Dependencies: [" + ", ".join(deps) + "]\n" if deps else ""
    return f"""/*
Table ID: {schema}.{obj}

Description: Synthetic table number {i} for the Check benchmark.

Lineage: Generated.

Primary key: id

Unique keys:
  - code

Not null: [code]

Column notes:
  id: Row number.
  code: $Bench.Base.Seed.code

{dep_line}Tags: [bench, generated]
*/
create or replace temporary view src as
select id, concat('c', id) as code, id * 2 as amount from range(10);

select id, code, amount
from src
where amount >= 0;
"""


def py_table(schema, obj, deps, i):
    dep_line = "Dependencies: [" + ", ".join(deps) + "]\n" if deps else ""
    return f'''"""
Table ID: {schema}.{obj}

Description: Synthetic Python table number {i}.

Schema:
  id: bigint
  code: string
  amount: decimal(18,2)

Primary key: id

Comparison columns: amount

Foreign keys:
  - id: Base.Seed[id]

{dep_line}"""

from weaver import Table


class {schema}__{obj}(Table):
    def read(self):
        return self.spark.range(10).selectExpr("id", "cast(id as string) as code",
                                               "cast(id as decimal(18,2)) as amount")
'''


def tsql_table(schema, obj, i):
    return f"""/*
Table ID: {schema}.{obj}

Description: Synthetic warehouse table number {i}.

Primary key: id
*/
declare @n int = 10

select cast(1 as bigint) as [id], cast('x' as varchar(10)) as [code]
"""


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    n, root = int(sys.argv[1]), sys.argv[2]
    lake = os.path.join(root, "Lakehouse", "Bench", "Tables")
    wh = os.path.join(root, "Warehouse", "BenchWarehouse")
    os.makedirs(lake, exist_ok=True)
    os.makedirs(wh, exist_ok=True)
    with open(os.path.join(lake, "Base.Seed.sql"), "w") as f:
        f.write(sql_table("Bench", "Base", "Seed", [], 0).replace("  code: $Bench.Base.Seed.code", "  code: The code."))
    for i in range(1, n):
        schema, obj = f"S{i % 17}", f"T{i}"
        previous_is_lakehouse = i > 1 and (i - 1) % 10 < 9
        deps = ["Base.Seed"] + ([f"S{(i - 1) % 17}.T{i - 1}"] if previous_is_lakehouse and i % 3 != 2 else [])
        kind = i % 10
        if kind < 6:
            path, text = os.path.join(lake, f"{schema}.{obj}.sql"), sql_table("Bench", schema, obj, deps, i)
        elif kind < 9:
            path, text = os.path.join(lake, f"{schema}__{obj}.py"), py_table(schema, obj, deps, i)
        else:
            path, text = os.path.join(wh, f"{schema}.{obj}.sql"), tsql_table(schema, obj, i)
        with open(path, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
