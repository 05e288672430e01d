IF NOT EXISTS (
    SELECT 1 FROM sys.key_constraints
    WHERE [name] = N'PK Sales.Customer' AND [parent_object_id] = OBJECT_ID(N'[Sales].[Customer]')
)
    ALTER TABLE [Sales].[Customer] ADD CONSTRAINT [PK Sales.Customer] PRIMARY KEY NONCLUSTERED ([customer_id]) NOT ENFORCED;
