SET XACT_ABORT ON;
BEGIN TRANSACTION;
DELETE FROM [_].[TableDictionary] WHERE [table_id] = N'Sales.OrderLine';
INSERT INTO [_].[TableDictionary] ([table_id], [schema_name], [object_name], [target], [form], [source_path], [description], [lineage], [owner], [tags], [primary_key], [incremental], [has_load_procedure], [identity_column], [comparison_columns], [delete_percentage_threshold], [update_percentage_threshold], [stability_row_threshold], [delta_min_reader_version], [delta_min_writer_version], [declaration_signature], [built_at])
VALUES (N'Sales.OrderLine', N'Sales', N'OrderLine', N'warehouse', N'tsql', N'Warehouse/Sales/Sales.OrderLine.sql', N'Order lines, delivered as changes since the last load.', N'Shop database, order_line change feed.', NULL, N'[]', N'["order_id","line_no"]', 1, 1, NULL, N'["quantity","amount"]', 0, 100, 10, NULL, NULL, N'3d75d4ecbff70d770d3777a6fa226c63df3569075d4d6f6d2a91ead3fb36a21d', CAST('2026-01-02T03:04:05.123456' AS datetime2(6)));
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
DELETE FROM [_].[TableDictionary] WHERE [table_id] = N'Sales.OrderLine__History';
INSERT INTO [_].[TableDictionary] ([table_id], [schema_name], [object_name], [target], [form], [source_path], [description], [lineage], [owner], [tags], [primary_key], [incremental], [has_load_procedure], [identity_column], [comparison_columns], [delete_percentage_threshold], [update_percentage_threshold], [stability_row_threshold], [delta_min_reader_version], [delta_min_writer_version], [declaration_signature], [built_at])
VALUES (N'Sales.OrderLine__History', N'Sales', N'OrderLine__History', N'warehouse', N'history', N'Warehouse/Sales/Sales.OrderLine.sql', N'Every version of Sales.OrderLine: one row per version of each key, written by its loads (History: true).', NULL, NULL, N'[]', N'["order_id","line_no","valid_from"]', 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, N'3d75d4ecbff70d770d3777a6fa226c63df3569075d4d6f6d2a91ead3fb36a21d', CAST('2026-01-02T03:04:05.123456' AS datetime2(6)));
DELETE FROM [_].[ColumnDictionary] WHERE [table_id] = N'Sales.OrderLine__History';
INSERT INTO [_].[ColumnDictionary] ([table_id], [column_name], [ordinal], [data_type], [nullable], [managed_role], [note], [note_reference])
VALUES (N'Sales.OrderLine__History', N'order_id', 0, N'varchar(20)', 1, NULL, NULL, NULL),
    (N'Sales.OrderLine__History', N'line_no', 1, N'int', 1, NULL, NULL, NULL),
    (N'Sales.OrderLine__History', N'quantity', 2, N'int', 1, NULL, NULL, NULL),
    (N'Sales.OrderLine__History', N'amount', 3, N'decimal(12, 2)', 1, NULL, NULL, NULL),
    (N'Sales.OrderLine__History', N'note', 4, N'varchar(400)', 1, NULL, NULL, NULL),
    (N'Sales.OrderLine__History', N'valid_from', 5, N'datetime2(6)', 0, N'valid_from', N'When this version became the key''s row.', NULL),
    (N'Sales.OrderLine__History', N'valid_to', 6, N'datetime2(6)', 0, N'valid_to', N'When a later version replaced it; 9999-12-31 while it is the key''s current version.', NULL),
    (N'Sales.OrderLine__History', N'is_current', 7, N'bit', 0, N'is_current', N'Whether this is the key''s newest version.', NULL),
    (N'Sales.OrderLine__History', N'is_deleted', 8, N'bit', 0, N'is_deleted', N'Whether this version records the key''s deletion (soft or hard).', NULL),
    (N'Sales.OrderLine__History', N'load_id', 9, N'varchar(64)', 1, N'load_id', N'The load that wrote this version; null for versions a catch-up wrote for loads it could not name.', NULL);
DELETE FROM [_].[Dependency] WHERE [table_id] = N'Sales.OrderLine__History';
INSERT INTO [_].[Dependency] ([table_id], [depends_on], [depends_on_item], [depends_on_table_id], [kind])
VALUES (N'Sales.OrderLine__History', N'Sales.OrderLine', N'Sales', N'Sales.OrderLine', N'history');
DELETE FROM [_].[Registry] WHERE [object_id] = N'Sales.OrderLine';
INSERT INTO [_].[Registry] ([object_id], [object_kind], [declaration_signature], [structure_signature], [weaver_version], [installed_at], [creation_defaults])
VALUES (N'Sales.OrderLine', N'table', N'3d75d4ecbff70d770d3777a6fa226c63df3569075d4d6f6d2a91ead3fb36a21d', N'ff75513e8900b686d64ce136a1c63ae108db794f57ea5ec30ae35270fc27ed9a', N'0.1.0', CAST('2026-01-02T03:04:05.123456' AS datetime2(6)), N'{}');
IF NOT EXISTS (SELECT 1 FROM [_].[LoadState] WHERE [table_id] = N'Sales.OrderLine')
    INSERT INTO [_].[LoadState] ([table_id], [last_load_id], [last_succeeded_at], [last_delta_version], [bookmark], [load_sequence]) VALUES (N'Sales.OrderLine', NULL, NULL, NULL, NULL, 0);
COMMIT TRANSACTION;
