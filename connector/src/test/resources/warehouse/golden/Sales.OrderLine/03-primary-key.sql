IF NOT EXISTS (
    SELECT 1 FROM sys.key_constraints
    WHERE [name] = N'PK Sales.OrderLine' AND [parent_object_id] = OBJECT_ID(N'[Sales].[OrderLine]')
)
    ALTER TABLE [Sales].[OrderLine] ADD CONSTRAINT [PK Sales.OrderLine] PRIMARY KEY NONCLUSTERED ([order_id], [line_no]) NOT ENFORCED;
