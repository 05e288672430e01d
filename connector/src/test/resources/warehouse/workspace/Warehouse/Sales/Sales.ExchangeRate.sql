/*
Table ID: Sales.ExchangeRate

Description: Today's exchange rates, replaced on every load.

Lineage: Central bank feed.

Expectations:
  positive rate:
    rule: rate > 0 -- a rate of zero is a feed error
    on violation: quarantine

Schema:
  currency: char(3)
  rate: decimal(18, 8)
*/
select currency, rate from feed.exchange_rate
