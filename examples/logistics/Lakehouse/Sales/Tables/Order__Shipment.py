"""
Table ID: Order.Shipment

Description: Shipments ordered by customers, one row per parcel shipped.

Lineage: Order system (synthetic in this example).

Schema:
  shipment_id: bigint
  account_id: string
  parcel_id: string
  price_eur: decimal(12,2)
  ordered_on: date

Primary key: shipment_id

Not null: [account_id, parcel_id]

Foreign keys:
  - account_id: Customer.Account[account_id]
  - parcel_id: Logistics.Parcel.Current[parcel_id]

Column notes:
  account_id: $Customer.Account.account_id
  price_eur: Price charged, excluding VAT.

Dependencies: [Customer.Account]

Stability row threshold: 0
"""

from pyspark.sql import functions as F

from weaver import Table


class Order__Shipment(Table):
    def read(self):
        ids = self.spark.range(1, 301)
        return ids.select(
            F.col("id").alias("shipment_id"),
            F.format_string("C%03d", (F.col("id") % 4) + 1).alias("account_id"),
            F.format_string("P%06d", F.col("id") % 500).alias("parcel_id"),
            (F.lit(4.95) + (F.col("id") % 10)).cast("decimal(12,2)").alias("price_eur"),
            F.date_add(F.lit("2026-01-01").cast("date"), (F.col("id") % 30).cast("int")).alias(
                "ordered_on"
            ),
        )
