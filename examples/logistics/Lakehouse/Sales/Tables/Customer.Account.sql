/*
Table ID: Customer.Account

Description: Business customers that ship parcels with us.

Lineage: CRM export (synthetic in this example).

Identity: account_sk

Primary key: account_id

Unique keys:
  - vat_number

Not null: [name]

Column notes:
  account_id: Customer number from the CRM.
  vat_number: VAT registration number; unique when present.
  home_site: $Logistics.Depot.Site.site_code

Stability row threshold: 0
Delete percentage threshold: 50
Update percentage threshold: 50
*/
select account_id, name, vat_number, home_site
from values
  ('C001', 'Tulip Traders', 'NL001', 'AMS'),
  ('C002', 'Harbour Goods', 'NL002', 'RTM'),
  ('C003', 'Brabant Bikes', null, 'EIN'),
  ('C004', 'Maas Mail', 'NL004', 'MST')
  as c(account_id, name, vat_number, home_site);
