/*
Table ID: Sales.Customer

Description: One row per customer of the web shop.

Lineage: Shop database, customer table.

Primary key: customer_id

Unique keys:
  - email

Identity: customer_key

History: true

Schema:
  customer_id: varchar(20)
  email: varchar(200)
  name: varchar(200)
  segment: varchar(20)
*/
declare @cutoff datetime2(6) = dateadd(day, -30, :load_timestamp)

with active as (
    select customer_id, email, name, segment
    from shop.customer
    where last_seen >= @cutoff
)
select name, customer_id, email, segment
from active
