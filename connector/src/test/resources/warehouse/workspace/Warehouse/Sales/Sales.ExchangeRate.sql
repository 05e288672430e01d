/*
Table ID: Sales.ExchangeRate

Description: Today's exchange rates, replaced on every load.

Lineage: Central bank feed.

Schema:
  currency: char(3)
  rate: decimal(18, 8)
*/
select currency, rate from feed.exchange_rate
