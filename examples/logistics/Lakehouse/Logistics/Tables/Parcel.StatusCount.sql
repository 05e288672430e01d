/*
Table ID: Parcel.StatusCount

Description: Number of live parcels per status and depot region.

Lineage: Derived from Parcel.Current and Depot.Site.

Primary key: status, region

Column notes:
  parcel_count: Live parcels with this status in this region.

Stability row threshold: 0
Delete percentage threshold: 100
Update percentage threshold: 100
*/
select p.status, d.region, count(*) as parcel_count
from Parcel.Current as p
join Depot.Site as d on d.site_id = p.site_id
group by p.status, d.region;
