#!/usr/bin/env python3
"""A project's scale: K source Tables over small CSV files and K derived Tables, one per source.

Usage: project_scale.py --weaver BIN --tables 10,50,200 [--threads 1,auto] [--rows 2000]
                        [--change 0.01] [--format text|json] [--work DIR]

For each K and each thread count, as whole processes of bin/weaver (its warm process, as users run
it): `run` (check, build, load) of a new lakehouse, a `load` after every source changed
`--change` of its rows (updates, deletes and inserts in equal parts), and a `load` with nothing
changed. Prints seconds, seconds per Table, Spark jobs per Table (the count bin/weaver prints at
its end) and the speed-up of each thread count against the first one. Logs go to stderr.
"""
import argparse
import csv
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

ITEM = "Scale"


def log(message):
    print("project_scale: " + message, file=sys.stderr, flush=True)


def source_table(i):
    return f"""/*
Table ID: Src.T{i:04d}

Description: Source Table {i} of the scale benchmark, from its CSV landing folder.

Primary key: id

Stability row threshold: 0
Delete percentage threshold: 100
Update percentage threshold: 100
*/
create or replace temporary view landing
using csv
options (path 'Files/landing/t{i:04d}', header 'true', schema 'id int, name string, amount int');

select id, name, amount from landing;
"""


def derived_table(i):
    return f"""/*
Table ID: Mart.T{i:04d}

Description: Derived Table {i} of the scale benchmark, one per source.

Primary key: id

Stability row threshold: 0
Delete percentage threshold: 100
Update percentage threshold: 100
*/
select id, upper(name) as name, amount * 2 as amount from Src.T{i:04d};
"""


def write_rows(path, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "name", "amount"])
        for row_id in sorted(rows):
            name, amount = rows[row_id]
            w.writerow([row_id, name, amount])


def first_rows(rng, n):
    return {i: (f"n{rng.randrange(1000)}", rng.randrange(100000)) for i in range(1, n + 1)}


def changed(rng, rows, fraction):
    """`fraction` of the rows changed: a third updated, a third deleted, a third inserted."""
    rows = dict(rows)
    k = max(3, int(len(rows) * fraction))
    ids = rng.sample(sorted(rows), 2 * (k // 3))
    for row_id in ids[: k // 3]:
        name, amount = rows[row_id]
        rows[row_id] = (name, amount + 1)
    for row_id in ids[k // 3:]:
        del rows[row_id]
    top = max(rows) if rows else 0
    for j in range(1, k - 2 * (k // 3) + 1):
        rows[top + j] = (f"n{rng.randrange(1000)}", rng.randrange(100000))
    return rows


def generate(ws, k):
    tables = os.path.join(ws, "Lakehouse", ITEM, "Tables")
    os.makedirs(tables)
    for i in range(k):
        with open(os.path.join(tables, f"Src.T{i:04d}.sql"), "w") as f:
            f.write(source_table(i))
        with open(os.path.join(tables, f"Mart.T{i:04d}.sql"), "w") as f:
            f.write(derived_table(i))


def weaver(binary, ws, *args):
    """One bin/weaver call, timed; returns (seconds, exit status, Spark jobs, stdout)."""
    start = time.monotonic()
    proc = subprocess.run(
        [binary, *args, "--workspace", ws, "--format", "json"],
        cwd=ws,
        capture_output=True,
        text=True,
    )
    seconds = time.monotonic() - start
    jobs = None
    for line in proc.stderr.splitlines():
        m = re.match(r"weaver: (\d+) Spark jobs$", line)
        if m:
            jobs = int(m.group(1))
    if proc.returncode not in (0,):
        log(f"bin/weaver {' '.join(args)} exited {proc.returncode}; its stderr:")
        print(proc.stderr[-4000:], file=sys.stderr)
        raise SystemExit(2)
    return seconds, jobs, proc.stdout


def statuses(stdout):
    doc = json.loads(stdout.strip().splitlines()[-1])
    loads = doc.get("loads", [])
    out = {}
    for r in loads:
        out[r["status"]] = out.get(r["status"], 0) + 1
    return out


def measure(binary, work, k, threads, rows, change, seed):
    ws = os.path.join(work, f"k{k}-t{threads}")
    shutil.rmtree(ws, ignore_errors=True)
    generate(ws, k)
    rng = random.Random(seed)
    data = [first_rows(rng, rows) for _ in range(k)]
    files = os.path.join(ws, "Lakehouse", ITEM, "Files", "landing")
    for i in range(k):
        write_rows(os.path.join(files, f"t{i:04d}", "data.csv"), data[i])
    # The warm process starts (and moves to this lakehouse) outside the timed calls.
    weaver(binary, ws, "sql", "select 1")
    out = {"tables": 2 * k, "threads": threads}
    t, jobs, stdout = weaver(binary, ws, "run", "--threads", str(threads))
    out["run"] = {"seconds": t, "jobs": jobs, "statuses": statuses(stdout)}
    lake_files = os.path.join(ws, ".weaver", "lakehouse", ITEM, "Files", "landing")
    for i in range(k):
        data[i] = changed(rng, data[i], change)
        write_rows(os.path.join(lake_files, f"t{i:04d}", "data.csv"), data[i])
    t, jobs, stdout = weaver(binary, ws, "load", "--threads", str(threads))
    out["changed"] = {"seconds": t, "jobs": jobs, "statuses": statuses(stdout)}
    t, jobs, stdout = weaver(binary, ws, "load", "--threads", str(threads))
    out["unchanged"] = {"seconds": t, "jobs": jobs, "statuses": statuses(stdout)}
    shutil.rmtree(ws, ignore_errors=True)
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--weaver", required=True)
    p.add_argument("--tables", default="10,50,200")
    p.add_argument("--threads", default="1,4")
    p.add_argument("--rows", type=int, default=2000)
    p.add_argument("--change", type=float, default=0.01)
    p.add_argument("--format", default="text", choices=["text", "json"])
    p.add_argument("--work", default=None)
    args = p.parse_args()
    sizes = [int(x) for x in args.tables.split(",") if x]
    thread_counts = [int(x) for x in args.threads.split(",") if x]
    work = args.work or tempfile.mkdtemp(prefix="weaver-scale.")
    results = []
    for k in sizes:
        for threads in thread_counts:
            log(f"{k} sources + {k} derived Tables, --threads {threads} …")
            results.append(measure(args.weaver, work, k, threads, args.rows, args.change, seed=k))
    if args.format == "json":
        print(json.dumps({"rows": args.rows, "change": args.change, "results": results}, indent=2))
        return
    print(
        f"A project of K source Tables ({args.rows} rows each, CSV) and K derived Tables; "
        f"whole bin/weaver processes (warm); a load with {args.change:.0%} of every source changed."
    )
    header = (
        f"{'Tables':>6} {'threads':>7} | {'run s':>7} {'s/T':>5} {'jobs/T':>6} | "
        f"{'changed s':>9} {'s/T':>5} {'jobs/T':>6} {'x':>5} | "
        f"{'no-change s':>11} {'s/T':>5} {'jobs/T':>6} {'x':>5}"
    )
    print(header)
    print("-" * len(header))
    base = {}
    for r in results:
        n = r["tables"]
        key = n
        if key not in base:
            base[key] = r

        def per(phase):
            return r[phase]["seconds"] / n

        def jobs(phase):
            j = r[phase]["jobs"]
            return f"{j / n:6.1f}" if j is not None else f"{'?':>6}"

        def speedup(phase):
            return base[key][phase]["seconds"] / r[phase]["seconds"]

        print(
            f"{n:>6} {r['threads']:>7} | {r['run']['seconds']:7.1f} {per('run'):5.2f} {jobs('run')} | "
            f"{r['changed']['seconds']:9.1f} {per('changed'):5.2f} {jobs('changed')} "
            f"{speedup('changed'):5.2f} | "
            f"{r['unchanged']['seconds']:11.1f} {per('unchanged'):5.2f} {jobs('unchanged')} "
            f"{speedup('unchanged'):5.2f}"
        )
    print("x: seconds of the first thread count over this one's, for the same project.")
    for r in results:
        for phase in ("run", "changed", "unchanged"):
            s = r[phase]["statuses"]
            if set(s) - {"succeeded"}:
                print(f"note: {r['tables']} Tables, --threads {r['threads']}, {phase}: {s}")


if __name__ == "__main__":
    main()
