/*
Table ID: Sales.TierCount

Description: Live customers per tier, read from the Shop item by name.

Primary key: tier

Delete percentage threshold: 100
Update percentage threshold: 100
Stability row threshold: 0
*/
select tier, count(*) as n
from Shop.Sales.Customer
group by tier;
