/*
Table ID: Sales.OrderLine

Description: Order lines, delivered as changes since the last load.

Lineage: Shop database, order_line change feed.

Primary key: order_id, line_no

Incremental: true

Deletes: hard

History: true

Comparison columns: quantity, amount

Delete percentage threshold: 0

Update percentage threshold: 100

Stability row threshold: 10

Schema:
  order_id: varchar(20)
  line_no: int
  quantity: int
  amount: decimal(12, 2)
  note: varchar(400)
*/
select order_id, line_no, quantity, amount, note
from shop.order_line_changes
where changed_at > :last_load_timestamp and change_kind <> 'D';

select order_id, line_no
from shop.order_line_changes
where changed_at > :last_load_timestamp and change_kind = 'D';
