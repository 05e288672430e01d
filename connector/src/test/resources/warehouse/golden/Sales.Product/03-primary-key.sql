IF NOT EXISTS (
    SELECT 1 FROM sys.key_constraints
    WHERE [name] = N'PK Sales.Product' AND [parent_object_id] = OBJECT_ID(N'[Sales].[Product]')
)
    ALTER TABLE [Sales].[Product] ADD CONSTRAINT [PK Sales.Product] PRIMARY KEY NONCLUSTERED ([product_id]) NOT ENFORCED;
