/*
Table ID: Parcel.StatusCount

Description: Parcel count by status for the reporting warehouse.

Lineage: Reporting intake.

Primary key: status

Stability row threshold: 0
*/
declare @as_of datetime2(6) = sysutcdatetime()

select cast('in_transit' as varchar(32)) as [status],
       cast(0 as bigint) as [parcel_count],
       @as_of as [as_of]
