"""
Table ID: Parcel.Current

Description: Current state of each parcel in the network.

Lineage: Parcel event stream, latest event per parcel.

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

from weaver import Table


class Parcel__Current(Table):
    def read(self):
        # A deterministic synthetic feed: 500 parcels spread over the depots.
        return self.spark.sql(
            """
            select concat('P', lpad(cast(id as string), 6, '0')) as parcel_id,
                   element_at(array('created', 'in_transit', 'delivered', 'returned'),
                              cast(id % 4 as int) + 1) as status,
                   cast(id % 4 as int) + 1 as site_id,
                   cast(0.25 + (id % 40) / 8.0 as decimal(9,3)) as weight_kg,
                   timestamp_seconds(1767225600 + id * 60) as last_event_at
            from range(500)
            """
        )
