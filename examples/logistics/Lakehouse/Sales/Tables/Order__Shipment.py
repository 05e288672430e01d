"""
Table ID: Order.Shipment

Description: Shipments ordered by customers, one row per parcel shipped.

Lineage: Order system, Parquet files in Files/Orders/Shipments.

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

from weaver import Table


class Order__Shipment(Table):
    def read(self):
        return self.table("Files/Orders.Shipments")
