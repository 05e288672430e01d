/*
Table ID: Depot.Site

Description: Every depot that handles parcels, with its region and capacity.

Lineage: The network planning team's depot list, delivered as CSV to Files/landing/depots.

Owner: Network planning

Tags: [reference, daily]

Primary key: site_id

History: true

Unique keys:
  - site_code

Not null: [site_code, region]

Column notes:
  site_id: Surrogate number of the depot, stable for its lifetime.
  site_code: Three-letter code printed on labels.
  region: Sales region the depot serves.
  daily_capacity: Parcels the depot can sort in one day.

Delete percentage threshold: 50
Update percentage threshold: 50
Stability row threshold: 0
*/
create or replace temporary view depots
using csv
options (path 'Files/landing/depots', header 'true', inferSchema 'true');

select cast(site_id as int) as site_id, site_code, region, cast(daily_capacity as int) as daily_capacity
from depots;
