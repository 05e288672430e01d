/*
Table ID: Parcel.Event

Description: Scan events of parcels, loaded incrementally since the last load; cancelled scans
  are removed through the delete-key query.

Lineage: Scanner feed (synthetic in this example).

Primary key: event_id

Incremental: true

Not null: [parcel_id, scanned_at]

Foreign keys:
  - parcel_id: Parcel.Current[parcel_id]

Column notes:
  event_id: Unique number of the scan.
  parcel_id: $Parcel.Current.parcel_id
  scanned_at: When the scanner read the label (UTC).

Stability row threshold: 0
Delete percentage threshold: 100
*/
create or replace temporary view scans as
select id as event_id,
       concat('P', lpad(cast(id % 500 as string), 6, '0')) as parcel_id,
       timestamp_seconds(1767225600 + id * 30) as scanned_at,
       id % 97 = 0 as cancelled
from range(2000);

select event_id, parcel_id, scanned_at
from scans
where not cancelled and scanned_at > :last_load_timestamp;

select event_id
from scans
where cancelled;
