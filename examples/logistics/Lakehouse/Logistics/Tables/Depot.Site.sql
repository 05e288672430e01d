/*
Table ID: Depot.Site

Description: Every depot that handles parcels, with its region and capacity.

Lineage: Maintained by hand by the network planning team.

Owner: Network planning

Tags: [reference, daily]

Primary key: site_id

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
select site_id, site_code, region, daily_capacity
from values
  (1, 'AMS', 'North', 12000),
  (2, 'RTM', 'North', 9000),
  (3, 'EIN', 'South', 7000),
  (4, 'MST', 'South', 4000)
  as depot(site_id, site_code, region, daily_capacity);
