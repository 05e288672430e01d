/*
Table ID: Parcel.Event

Description: Scan events of parcels, loaded incrementally from the files that arrived since the
  last load; cancelled scans are removed through the delete-key query.

Lineage: Scanner feed, JSON files landing in Files/landing/scans.

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
-- A delivery is a new file in the landing folder: an incremental load reads the files that
-- arrived since the last load (their modification time), so each scan is read once.
create or replace temporary view scans as
select cast(event_id as bigint) as event_id, parcel_id, cast(scanned_at as timestamp) as scanned_at,
       cancelled, _metadata.file_modification_time as arrived_at
from json.`Files/landing/scans`;

select event_id, parcel_id, scanned_at
from scans
where not cancelled and arrived_at > :last_load_timestamp;

select event_id
from scans
where cancelled;
