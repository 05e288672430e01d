/*
Table ID: Customer.Account

Description: Business customers that ship parcels with us.

Lineage: CRM export, CSV in Files/landing/accounts.

Identity: account_sk

Primary key: account_id

Unique keys:
  - vat_number

Not null: [name]

Column notes:
  account_id: Customer number from the CRM.
  vat_number: VAT registration number; unique when present.
  home_site: $Logistics.Depot.Site.site_code

Expectations:
  account number format:
    rule: account_id rlike '^C[0-9]{3}$'
    on violation: quarantine
  has VAT number:
    rule: vat_number is not null
    on violation: warn

Stability row threshold: 0
Delete percentage threshold: 50
Update percentage threshold: 50
*/
create or replace temporary view accounts
using csv
options (path 'Files/landing/accounts', header 'true');

select account_id, name, nullif(vat_number, '') as vat_number, home_site
from accounts;
