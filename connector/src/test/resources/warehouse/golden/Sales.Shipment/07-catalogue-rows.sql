SET XACT_ABORT ON;
BEGIN TRANSACTION;
DELETE FROM [_].[TableDictionary] WHERE [table_id] = N'Sales.Shipment';
INSERT INTO [_].[TableDictionary] ([table_id], [schema_name], [object_name], [target], [form], [source_path], [description], [lineage], [owner], [tags], [primary_key], [incremental], [has_load_procedure], [identity_column], [comparison_columns], [delete_percentage_threshold], [update_percentage_threshold], [stability_row_threshold], [delta_min_reader_version], [delta_min_writer_version], [declaration_signature], [built_at])
VALUES (N'Sales.Shipment', N'Sales', N'Shipment', N'warehouse', N'tsql', N'Warehouse/Sales/Sales.Shipment.sql', N'Shipments with their latest status; the carrier''s snapshot may repeat or reorder them.', N'Carrier tracking feed.', NULL, N'[]', N'["shipment_id"]', 0, 1, NULL, N'["status","status_at","carrier"]', 5, 20, 1000000, NULL, NULL, N'2e7c3ff9c5fcda0e70d7a2a4a731f75e6bc612b5411c93f50535f20994063f6d', CAST('2026-01-02T03:04:05.123456' AS datetime2(6)));
DELETE FROM [_].[ColumnDictionary] WHERE [table_id] = N'Sales.Shipment';
INSERT INTO [_].[ColumnDictionary] ([table_id], [column_name], [ordinal], [data_type], [nullable], [managed_role], [note], [note_reference])
VALUES (N'Sales.Shipment', N'shipment_id', 0, N'varchar(20)', 0, NULL, NULL, NULL),
    (N'Sales.Shipment', N'status', 1, N'varchar(20)', 1, NULL, NULL, NULL),
    (N'Sales.Shipment', N'status_at', 2, N'datetime2(6)', 1, NULL, NULL, NULL),
    (N'Sales.Shipment', N'carrier', 3, N'varchar(100)', 1, NULL, NULL, NULL),
    (N'Sales.Shipment', N'Row insert datetime', 4, N'datetime2(6)', 0, N'row_insert_datetime', N'When Weaver first inserted the row.', NULL),
    (N'Sales.Shipment', N'Row update datetime', 5, N'datetime2(6)', 0, N'row_update_datetime', N'When Weaver last changed the row.', NULL),
    (N'Sales.Shipment', N'Row delete datetime', 6, N'datetime2(6)', 0, N'row_delete_datetime', N'When the row was soft-deleted; 9999-12-31 for live rows.', NULL),
    (N'Sales.Shipment', N'Row signature', 7, N'varbinary(32)', 0, N'row_signature', N'SHA-256 of the comparison columns.', NULL);
DELETE FROM [_].[KeyDictionary] WHERE [table_id] = N'Sales.Shipment';
INSERT INTO [_].[KeyDictionary] ([table_id], [key_kind], [key_ordinal], [column_name], [column_ordinal])
VALUES (N'Sales.Shipment', N'primary', 0, N'shipment_id', 0);
DELETE FROM [_].[ForeignKeyDictionary] WHERE [table_id] = N'Sales.Shipment';
DELETE FROM [_].[Dependency] WHERE [table_id] = N'Sales.Shipment';
DELETE FROM [_].[TableDictionary] WHERE [table_id] = N'Sales.Shipment__History';
DELETE FROM [_].[ColumnDictionary] WHERE [table_id] = N'Sales.Shipment__History';
DELETE FROM [_].[Dependency] WHERE [table_id] = N'Sales.Shipment__History';
DELETE FROM [_].[Registry] WHERE [object_id] = N'Sales.Shipment';
INSERT INTO [_].[Registry] ([object_id], [object_kind], [declaration_signature], [structure_signature], [weaver_version], [installed_at], [creation_defaults])
VALUES (N'Sales.Shipment', N'table', N'2e7c3ff9c5fcda0e70d7a2a4a731f75e6bc612b5411c93f50535f20994063f6d', N'af43237fc6d98f9f5d5366ed125acfaa21253fe514e0354d8f0686d9cc3efb60', N'0.1.0', CAST('2026-01-02T03:04:05.123456' AS datetime2(6)), N'{}');
IF NOT EXISTS (SELECT 1 FROM [_].[LoadState] WHERE [table_id] = N'Sales.Shipment')
    INSERT INTO [_].[LoadState] ([table_id], [last_load_id], [last_succeeded_at], [last_delta_version], [bookmark], [load_sequence]) VALUES (N'Sales.Shipment', NULL, NULL, NULL, NULL, 0);
COMMIT TRANSACTION;
