IF NOT EXISTS (
    SELECT 1 FROM sys.key_constraints
    WHERE [name] = N'UQ Sales.Customer 1' AND [parent_object_id] = OBJECT_ID(N'[Sales].[Customer]')
)
    ALTER TABLE [Sales].[Customer] ADD CONSTRAINT [UQ Sales.Customer 1] UNIQUE NONCLUSTERED ([email]) NOT ENFORCED;
