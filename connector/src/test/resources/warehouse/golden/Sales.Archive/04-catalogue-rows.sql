SET XACT_ABORT ON;
BEGIN TRANSACTION;
DELETE FROM [_].[TableDictionary] WHERE [table_id] = N'Sales.Archive';
INSERT INTO [_].[TableDictionary] ([table_id], [schema_name], [object_name], [target], [form], [source_path], [description], [lineage], [owner], [tags], [primary_key], [incremental], [has_load_procedure], [identity_column], [comparison_columns], [delete_percentage_threshold], [update_percentage_threshold], [stability_row_threshold], [delta_min_reader_version], [delta_min_writer_version], [declaration_signature], [built_at])
VALUES (N'Sales.Archive', N'Sales', N'Archive', N'warehouse', N'tsql', N'Warehouse/Sales/Sales.Archive.sql', N'Archived orders; structure only, loaded by another process.', N'Archive job.', NULL, N'[]', N'["order_id"]', 0, 0, NULL, N'["archived_at"]', 5, 20, 1000000, NULL, NULL, N'c6205025b32c6843a6b5bba50486ac7f8d215ff7e3e07455a3ccc381ea1247c8', CAST('2026-01-02T03:04:05.123456' AS datetime2(6)));
DELETE FROM [_].[ColumnDictionary] WHERE [table_id] = N'Sales.Archive';
INSERT INTO [_].[ColumnDictionary] ([table_id], [column_name], [ordinal], [data_type], [nullable], [managed_role], [note], [note_reference])
VALUES (N'Sales.Archive', N'order_id', 0, N'varchar(20)', 0, NULL, NULL, NULL),
    (N'Sales.Archive', N'archived_at', 1, N'datetime2(6)', 1, NULL, NULL, NULL),
    (N'Sales.Archive', N'Row insert datetime', 2, N'datetime2(6)', 0, N'row_insert_datetime', N'When Weaver first inserted the row.', NULL),
    (N'Sales.Archive', N'Row update datetime', 3, N'datetime2(6)', 0, N'row_update_datetime', N'When Weaver last changed the row.', NULL),
    (N'Sales.Archive', N'Row delete datetime', 4, N'datetime2(6)', 0, N'row_delete_datetime', N'When the row was soft-deleted; 9999-12-31 for live rows.', NULL);
DELETE FROM [_].[KeyDictionary] WHERE [table_id] = N'Sales.Archive';
INSERT INTO [_].[KeyDictionary] ([table_id], [key_kind], [key_ordinal], [column_name], [column_ordinal])
VALUES (N'Sales.Archive', N'primary', 0, N'order_id', 0);
DELETE FROM [_].[ForeignKeyDictionary] WHERE [table_id] = N'Sales.Archive';
DELETE FROM [_].[Dependency] WHERE [table_id] = N'Sales.Archive';
DELETE FROM [_].[TableDictionary] WHERE [table_id] = N'Sales.Archive__History';
DELETE FROM [_].[ColumnDictionary] WHERE [table_id] = N'Sales.Archive__History';
DELETE FROM [_].[Dependency] WHERE [table_id] = N'Sales.Archive__History';
DELETE FROM [_].[Registry] WHERE [object_id] = N'Sales.Archive';
INSERT INTO [_].[Registry] ([object_id], [object_kind], [declaration_signature], [structure_signature], [weaver_version], [installed_at], [creation_defaults])
VALUES (N'Sales.Archive', N'table', N'c6205025b32c6843a6b5bba50486ac7f8d215ff7e3e07455a3ccc381ea1247c8', N'178f5706c50e0fe6012c19af7d86812b63fbdc2ded7ec86e237e6faafdd04eb2', N'0.1.0', CAST('2026-01-02T03:04:05.123456' AS datetime2(6)), N'{}');
COMMIT TRANSACTION;
