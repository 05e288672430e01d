IF NOT EXISTS (
    SELECT 1 FROM sys.key_constraints
    WHERE [name] = N'PK Sales.Archive' AND [parent_object_id] = OBJECT_ID(N'[Sales].[Archive]')
)
    ALTER TABLE [Sales].[Archive] ADD CONSTRAINT [PK Sales.Archive] PRIMARY KEY NONCLUSTERED ([order_id]) NOT ENFORCED;
