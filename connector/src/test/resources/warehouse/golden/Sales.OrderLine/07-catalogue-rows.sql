SET XACT_ABORT ON;
BEGIN TRANSACTION;
DELETE FROM [_].[TableDictionary] WHERE [table_id] = N'Sales.OrderLine';
INSERT INTO [_].[TableDictionary] ([table_id], [schema_name], [object_name], [target], [form], [source_path], [description], [lineage], [owner], [tags], [primary_key], [incremental], [has_load_procedure], [identity_column], [comparison_columns], [delete_percentage_threshold], [update_percentage_threshold], [stability_row_threshold], [delta_min_reader_version], [delta_min_writer_version], [declaration_signature], [built_at])
VALUES (N'Sales.OrderLine', N'Sales', N'OrderLine', N'warehouse', N'tsql', N'Warehouse/Sales/Sales.OrderLine.sql', N'Order lines, delivered as changes since the last load.', N'Shop database, order_line change feed.', NULL, N'[]', N'["order_id","line_no"]', 1, 1, NULL, N'["quantity","amount"]', 0, 100, 10, NULL, NULL, N'b29436039afa0b0d8b3464214d151054aa078ec16a758251b09a0790dd9b6298', CAST('2026-01-02T03:04:05.123456' AS datetime2(6)));
DELETE FROM [_].[ColumnDictionary] WHERE [table_id] = N'Sales.OrderLine';
INSERT INTO [_].[ColumnDictionary] ([table_id], [column_name], [ordinal], [data_type], [nullable], [managed_role], [note], [note_reference])
VALUES (N'Sales.OrderLine', N'order_id', 0, N'varchar(20)', 0, NULL, NULL, NULL),
    (N'Sales.OrderLine', N'line_no', 1, N'int', 0, NULL, NULL, NULL),
    (N'Sales.OrderLine', N'quantity', 2, N'int', 1, NULL, NULL, NULL),
    (N'Sales.OrderLine', N'amount', 3, N'decimal(12, 2)', 1, NULL, NULL, NULL),
    (N'Sales.OrderLine', N'note', 4, N'varchar(400)', 1, NULL, NULL, NULL),
    (N'Sales.OrderLine', N'Row insert datetime', 5, N'datetime2(6)', 0, N'row_insert_datetime', N'When Weaver first inserted the row.', NULL),
    (N'Sales.OrderLine', N'Row update datetime', 6, N'datetime2(6)', 0, N'row_update_datetime', N'When Weaver last changed the row.', NULL),
    (N'Sales.OrderLine', N'Row delete datetime', 7, N'datetime2(6)', 0, N'row_delete_datetime', N'When the row was soft-deleted; 9999-12-31 for live rows.', NULL),
    (N'Sales.OrderLine', N'Row signature', 8, N'varbinary(32)', 0, N'row_signature', N'SHA-256 of the comparison columns.', NULL);
DELETE FROM [_].[KeyDictionary] WHERE [table_id] = N'Sales.OrderLine';
INSERT INTO [_].[KeyDictionary] ([table_id], [key_kind], [key_ordinal], [column_name], [column_ordinal])
VALUES (N'Sales.OrderLine', N'primary', 0, N'order_id', 0),
    (N'Sales.OrderLine', N'primary', 0, N'line_no', 1);
DELETE FROM [_].[ForeignKeyDictionary] WHERE [table_id] = N'Sales.OrderLine';
DELETE FROM [_].[Dependency] WHERE [table_id] = N'Sales.OrderLine';
DELETE FROM [_].[Registry] WHERE [object_id] = N'Sales.OrderLine';
INSERT INTO [_].[Registry] ([object_id], [object_kind], [declaration_signature], [structure_signature], [weaver_version], [installed_at], [creation_defaults])
VALUES (N'Sales.OrderLine', N'table', N'b29436039afa0b0d8b3464214d151054aa078ec16a758251b09a0790dd9b6298', N'ff75513e8900b686d64ce136a1c63ae108db794f57ea5ec30ae35270fc27ed9a', N'0.1.0', CAST('2026-01-02T03:04:05.123456' AS datetime2(6)), N'{}');
IF NOT EXISTS (SELECT 1 FROM [_].[LoadState] WHERE [table_id] = N'Sales.OrderLine')
    INSERT INTO [_].[LoadState] ([table_id], [last_load_id], [last_succeeded_at], [last_delta_version], [bookmark], [load_sequence]) VALUES (N'Sales.OrderLine', NULL, NULL, NULL, NULL, 0);
COMMIT TRANSACTION;
