/*
Table ID: Sales.Archive

Description: Archived orders; structure only, loaded by another process.

Lineage: Archive job.

Primary key: order_id

Has load procedure: false

Schema:
  order_id: varchar(20)
  archived_at: datetime2(6)
*/
select order_id, archived_at from archive.orders
