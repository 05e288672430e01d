/*
Table ID: Sales.OrderTotal

Description: Each order's total, read from Sales.Orders by name; refused when half would go.

Primary key: id

Delete percentage threshold: 50
Update percentage threshold: 100
Stability row threshold: 0
*/
select id, amount * 10 as total
from Sales.Orders;
