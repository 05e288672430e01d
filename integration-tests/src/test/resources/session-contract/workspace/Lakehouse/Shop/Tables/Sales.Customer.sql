/*
Table ID: Sales.Customer

Description: Customers and their tier; a customer missing from a delivery is soft-deleted.

Primary key: id

Delete percentage threshold: 100
Update percentage threshold: 100
Stability row threshold: 0
*/
create or replace temporary view customers
using csv
options (path 'Files/landing/customers', header 'true', inferSchema 'true');

select cast(id as int) as id, tier
from customers;
