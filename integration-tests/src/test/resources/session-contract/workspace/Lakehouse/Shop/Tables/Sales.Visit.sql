/*
Table ID: Sales.Visit

Description: Store visits, loaded incrementally; cancelled visits are removed by the delete keys.

Primary key: visit_id

Incremental: true

Delete percentage threshold: 100
Stability row threshold: 0
*/
create or replace temporary view visits as
select cast(visit_id as int) as visit_id, cast(customer_id as int) as customer_id, cancelled,
       _metadata.file_modification_time as arrived_at
from json.`Files/landing/visits`;

select visit_id, customer_id
from visits
where not cancelled and arrived_at > :last_load_timestamp;

select visit_id
from visits
where cancelled;
