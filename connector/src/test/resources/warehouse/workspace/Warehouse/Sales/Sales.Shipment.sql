/*
Table ID: Sales.Shipment

Description: Shipments with their latest status; the carrier's snapshot may repeat or reorder them.

Lineage: Carrier tracking feed.

Primary key: shipment_id

Sequence column: status_at

Expectations:
  known status:
    rule: status in ('booked', 'shipped', 'delivered', 'returned')
    on violation: quarantine

Schema:
  shipment_id: varchar(20)
  status: varchar(20)
  status_at: datetime2(6)
  carrier: varchar(100)
*/
select shipment_id, status, status_at, carrier
from carrier.shipment_status
