SET XACT_ABORT ON;
BEGIN TRANSACTION;
DELETE FROM [_].[TableDictionary] WHERE [table_id] = N'Sales.ExchangeRate';
INSERT INTO [_].[TableDictionary] ([table_id], [schema_name], [object_name], [target], [form], [source_path], [description], [lineage], [owner], [tags], [primary_key], [incremental], [has_load_procedure], [identity_column], [comparison_columns], [delete_percentage_threshold], [update_percentage_threshold], [stability_row_threshold], [delta_min_reader_version], [delta_min_writer_version], [declaration_signature], [built_at])
VALUES (N'Sales.ExchangeRate', N'Sales', N'ExchangeRate', N'warehouse', N'tsql', N'Warehouse/Sales/Sales.ExchangeRate.sql', N'Today''s exchange rates, replaced on every load.', N'Central bank feed.', NULL, N'[]', N'[]', 0, 1, NULL, N'[]', 5, 20, 1000000, NULL, NULL, N'bb5f8a451b071f3904f643feff1c9401e3faeae06a5fd6fb573887b9c7dcfd3f', CAST('2026-01-02T03:04:05.123456' AS datetime2(6)));
DELETE FROM [_].[ColumnDictionary] WHERE [table_id] = N'Sales.ExchangeRate';
INSERT INTO [_].[ColumnDictionary] ([table_id], [column_name], [ordinal], [data_type], [nullable], [managed_role], [note], [note_reference])
VALUES (N'Sales.ExchangeRate', N'currency', 0, N'char(3)', 1, NULL, NULL, NULL),
    (N'Sales.ExchangeRate', N'rate', 1, N'decimal(18, 8)', 1, NULL, NULL, NULL),
    (N'Sales.ExchangeRate', N'Row insert datetime', 2, N'datetime2(6)', 0, N'row_insert_datetime', N'When Weaver first inserted the row.', NULL),
    (N'Sales.ExchangeRate', N'Row update datetime', 3, N'datetime2(6)', 0, N'row_update_datetime', N'When Weaver last changed the row.', NULL),
    (N'Sales.ExchangeRate', N'Row delete datetime', 4, N'datetime2(6)', 0, N'row_delete_datetime', N'When the row was soft-deleted; 9999-12-31 for live rows.', NULL);
DELETE FROM [_].[KeyDictionary] WHERE [table_id] = N'Sales.ExchangeRate';
DELETE FROM [_].[ForeignKeyDictionary] WHERE [table_id] = N'Sales.ExchangeRate';
DELETE FROM [_].[Dependency] WHERE [table_id] = N'Sales.ExchangeRate';
DELETE FROM [_].[TableDictionary] WHERE [table_id] = N'Sales.ExchangeRate__History';
DELETE FROM [_].[ColumnDictionary] WHERE [table_id] = N'Sales.ExchangeRate__History';
DELETE FROM [_].[Dependency] WHERE [table_id] = N'Sales.ExchangeRate__History';
DELETE FROM [_].[Registry] WHERE [object_id] = N'Sales.ExchangeRate';
INSERT INTO [_].[Registry] ([object_id], [object_kind], [declaration_signature], [structure_signature], [weaver_version], [installed_at], [creation_defaults])
VALUES (N'Sales.ExchangeRate', N'table', N'bb5f8a451b071f3904f643feff1c9401e3faeae06a5fd6fb573887b9c7dcfd3f', N'68bb2027e966bc4ca263d30dd16ecec37198285168453199e6982e7aba6aa7d6', N'0.1.0', CAST('2026-01-02T03:04:05.123456' AS datetime2(6)), N'{}');
IF NOT EXISTS (SELECT 1 FROM [_].[LoadState] WHERE [table_id] = N'Sales.ExchangeRate')
    INSERT INTO [_].[LoadState] ([table_id], [last_load_id], [last_succeeded_at], [last_delta_version], [bookmark], [load_sequence]) VALUES (N'Sales.ExchangeRate', NULL, NULL, NULL, NULL, 0);
COMMIT TRANSACTION;
