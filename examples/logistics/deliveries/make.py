"""Writes the example's two deliveries of landing files (run once; the output is committed).

    python examples/logistics/deliveries/make.py     # needs pyspark (bin/weaver's environment has it)

The first delivery lands in the workspace's ``Lakehouse/<Item>/Files/`` (bin/weaver copies it into
a new lakehouse); the second in ``deliveries/second/<Item>/Files/``, which ``deliver-second`` drops
into the lakehouse. Everything is deterministic, so running it again writes the same rows.
"""

import shutil
from pathlib import Path

from pyspark.sql import SparkSession

HERE = Path(__file__).resolve().parent
WORKSPACE = HERE.parent
FIRST = WORKSPACE / "Lakehouse"
SECOND = HERE / "second"

DEPOTS = {
    1: [(1, "AMS", "North", 12000), (2, "RTM", "North", 9000), (3, "EIN", "South", 7000),
        (4, "MST", "South", 4000)],
    # RTM grows, MST closes (soft delete), UTR opens.
    2: [(1, "AMS", "North", 12000), (2, "RTM", "North", 11000), (3, "EIN", "South", 7000),
        (5, "UTR", "Centre", 8000)],
}

ACCOUNTS = {
    1: [("C001", "Tulip Traders", "NL001", "AMS"), ("C002", "Harbour Goods", "NL002", "RTM"),
        ("C003", "Brabant Bikes", "", "EIN"), ("C004", "Maas Mail", "NL004", "MST")],
    2: [("C001", "Tulip Traders", "NL001", "AMS"), ("C002", "Harbour Goods BV", "NL002", "RTM"),
        ("C003", "Brabant Bikes", "", "EIN"), ("C004", "Maas Mail", "NL004", "MST"),
        ("C005", "Utrecht Umbrellas", "NL005", "UTR"),
        # A CRM export error: an account number in lower case (its expectation quarantines it).
        ("c006", "Delft Drones", "NL006", "AMS")],
}


def parcels_sql(delivery: int) -> str:
    # 500 parcels; the second delivery moves 7 in 10 parcels one status on (more than
    # Parcel.Current's 60 % update threshold: the gate refuses it until waived), adds 20 parcels
    # and drops 10.
    count, shift, first_id = (500, "0", 0) if delivery == 1 else (520, "case when id % 10 < 7 then 1 else 0 end", 10)
    return f"""
        select concat('P', lpad(cast(id as string), 6, '0')) as parcel_id,
               element_at(array('created', 'in_transit', 'delivered', 'returned'),
                          cast((id + {shift}) % 4 as int) + 1) as status,
               cast(id % 4 as int) + 1 as site_id,
               cast(0.25 + (id % 40) / 8.0 as decimal(9,3)) as weight_kg,
               timestamp_seconds(1767225600 + id * 60 + {delivery - 1} * 86400) as last_event_at
        from range({first_id}, {count})
    """


def scans_sql(delivery: int) -> str:
    # Scan events: 2,000 in the first delivery, 500 more in the second; every 97th is cancelled.
    start, end = (0, 2000) if delivery == 1 else (2000, 2500)
    return f"""
        select id as event_id,
               concat('P', lpad(cast(id % 500 as string), 6, '0')) as parcel_id,
               timestamp_seconds(1767225600 + id * 30) as scanned_at,
               id % 97 = 0 as cancelled
        from range({start}, {end})
    """


def shipments_sql(delivery: int) -> str:
    end = 301 if delivery == 1 else 341
    return f"""
        select id as shipment_id,
               format_string('C%03d', id % 4 + 1) as account_id,
               format_string('P%06d', id % 500) as parcel_id,
               cast(4.95 + id % 10 as decimal(12,2)) as price_eur,
               date_add(date'2026-01-01', cast(id % 30 as int)) as ordered_on
        from range(1, {end})
    """


def one_file(df, fmt: str, folder: Path, part: int = 0, **options) -> None:
    """Writes ``df`` as the one file ``part-<part>.<fmt>`` of ``folder`` (no Spark side files)."""
    tmp = folder.with_name(folder.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    df.coalesce(1).write.options(**options).format(fmt).save(str(tmp))
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for written in tmp.glob("part-*"):
        shutil.copy(written, folder / f"part-{part:05d}.{fmt}")
    shutil.rmtree(tmp)


def main() -> None:
    spark = (SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
             .config("spark.sql.session.timeZone", "UTC").getOrCreate())
    for delivery, root in ((1, FIRST), (2, SECOND)):
        logistics = root / "Logistics" / "Files"
        sales = root / "Sales" / "Files"
        depots = spark.createDataFrame(DEPOTS[delivery], "site_id int, site_code string, region string, daily_capacity int")
        one_file(depots, "csv", logistics / "landing" / "depots", header="true")
        # New scans arrive as a new file beside the earlier ones (the Table is incremental).
        one_file(spark.sql(scans_sql(delivery)), "json", logistics / "landing" / "scans",
                 part=delivery - 1)
        one_file(spark.sql(parcels_sql(delivery)), "parquet", logistics / "Landing" / "Parcels")
        accounts = spark.createDataFrame(ACCOUNTS[delivery], "account_id string, name string, vat_number string, home_site string")
        one_file(accounts, "csv", sales / "landing" / "accounts", header="true")
        one_file(spark.sql(shipments_sql(delivery)), "parquet", sales / "Orders" / "Shipments")
    spark.stop()


if __name__ == "__main__":
    main()
