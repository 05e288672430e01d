/*
Table ID: Sales.OrderTotal

Description: Each order's total, read from Sales.Orders by name; a delivery that would remove more
than half of them is refused.

Primary key: id

Delete percentage threshold: 50
Update percentage threshold: 100
Stability row threshold: 0
*/
select id, amount * 10 as total
from Sales.Orders;
