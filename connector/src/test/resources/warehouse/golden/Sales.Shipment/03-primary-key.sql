IF NOT EXISTS (
    SELECT 1 FROM sys.key_constraints
    WHERE [name] = N'PK Sales.Shipment' AND [parent_object_id] = OBJECT_ID(N'[Sales].[Shipment]')
)
    ALTER TABLE [Sales].[Shipment] ADD CONSTRAINT [PK Sales.Shipment] PRIMARY KEY NONCLUSTERED ([shipment_id]) NOT ENFORCED;
