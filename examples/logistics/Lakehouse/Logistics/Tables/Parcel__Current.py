"""
Table ID: Parcel.Current

Description: Current state of each parcel in the network.

Lineage: The parcel system's daily snapshot, Parquet files in Files/Landing/Parcels.

Owner: Logistics engineering

Schema:
  parcel_id: string
  status: string
  site_id: int
  weight_kg: decimal(9,3)
  last_event_at: timestamp

Primary key: parcel_id

Not null: [status]

Foreign keys:
  - site_id: Depot.Site[site_id]

Column notes:
  parcel_id: Tracking number as printed on the label.
  status: One of created, in_transit, delivered, returned.
  site_id: $Depot.Site.site_id

Comparison columns: status, site_id, weight_kg

Dependencies: [Depot.Site]

Update percentage threshold: 60
Stability row threshold: 100
"""

from pyspark.sql import functions as F

from weaver import Table


class Parcel__Current(Table):
    def read(self):
        # The latest snapshot the parcel system delivered (Parquet under the item's Files/).
        return self.table("Files/Landing.Parcels").select(
            "parcel_id",
            "status",
            F.col("site_id").cast("int").alias("site_id"),
            F.col("weight_kg").cast("decimal(9,3)").alias("weight_kg"),
            "last_event_at",
        )
