/*
Table ID: Sales.Orders

Description: Orders and their amounts, from the latest delivery.

Primary key: id

Delete percentage threshold: 100
Update percentage threshold: 100
Stability row threshold: 0
*/
create or replace temporary view orders
using csv
options (path 'Files/landing/orders', header 'true', inferSchema 'true');

select cast(id as int) as id, cast(amount as int) as amount
from orders;
