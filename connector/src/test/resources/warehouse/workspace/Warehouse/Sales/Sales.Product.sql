/*
Table ID: Sales.Product

Description: Products with their prices and flags.

Lineage: Product master.

Primary key: product_id

Deletes: keep

Not null:
  - name

Expectations:
  price isn't zero:
    rule: price > 0
    on violation: quarantine
    max percentage: 2.5
  has a thumbnail:
    rule: active = 0 or thumbnail is not null
    on violation: quarantine
  launched before changed:
    rule: "[launched] <= CAST([changed_at] AS date)"
  plausible weight:
    rule: weight_kg is null or weight_kg between 0 and 1000
    on violation: warn

Delete percentage threshold: 100

Update percentage threshold: 100

Schema:
  product_id: bigint
  name: varchar(200)
  price: decimal(10, 2)
  weight_kg: float
  launched: date
  changed_at: datetime2(6)
  active: bit
  thumbnail: varbinary(max)
*/
select product_id, name, price, weight_kg, launched, changed_at, active, thumbnail
from master.product
