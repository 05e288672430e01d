/*
Table ID: Sales.Product

Description: Products with their prices and flags.

Lineage: Product master.

Primary key: product_id

Not null:
  - name

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
