SET XACT_ABORT ON;
BEGIN TRANSACTION;
DELETE FROM [_].[TableDictionary] WHERE [table_id] = N'Sales.Product';
INSERT INTO [_].[TableDictionary] ([table_id], [schema_name], [object_name], [target], [form], [source_path], [description], [lineage], [owner], [tags], [primary_key], [incremental], [has_load_procedure], [identity_column], [comparison_columns], [delete_percentage_threshold], [update_percentage_threshold], [stability_row_threshold], [delta_min_reader_version], [delta_min_writer_version], [declaration_signature], [built_at])
VALUES (N'Sales.Product', N'Sales', N'Product', N'warehouse', N'tsql', N'Warehouse/Sales/Sales.Product.sql', N'Products with their prices and flags.', N'Product master.', NULL, N'[]', N'["product_id"]', 0, 1, NULL, N'["name","price","weight_kg","launched","changed_at","active","thumbnail"]', 100, 100, 1000000, NULL, NULL, N'442a5a7db9e3ca55b4ad408bc3b8f249d5ca341f480d91e6207709acab2220fe', CAST('2026-01-02T03:04:05.123456' AS datetime2(6)));
DELETE FROM [_].[ColumnDictionary] WHERE [table_id] = N'Sales.Product';
INSERT INTO [_].[ColumnDictionary] ([table_id], [column_name], [ordinal], [data_type], [nullable], [managed_role], [note], [note_reference])
VALUES (N'Sales.Product', N'product_id', 0, N'bigint', 0, NULL, NULL, NULL),
    (N'Sales.Product', N'name', 1, N'varchar(200)', 0, NULL, NULL, NULL),
    (N'Sales.Product', N'price', 2, N'decimal(10, 2)', 1, NULL, NULL, NULL),
    (N'Sales.Product', N'weight_kg', 3, N'float', 1, NULL, NULL, NULL),
    (N'Sales.Product', N'launched', 4, N'date', 1, NULL, NULL, NULL),
    (N'Sales.Product', N'changed_at', 5, N'datetime2(6)', 1, NULL, NULL, NULL),
    (N'Sales.Product', N'active', 6, N'bit', 1, NULL, NULL, NULL),
    (N'Sales.Product', N'thumbnail', 7, N'varbinary(max)', 1, NULL, NULL, NULL),
    (N'Sales.Product', N'Row insert datetime', 8, N'datetime2(6)', 0, N'row_insert_datetime', N'When Weaver first inserted the row.', NULL),
    (N'Sales.Product', N'Row update datetime', 9, N'datetime2(6)', 0, N'row_update_datetime', N'When Weaver last changed the row.', NULL),
    (N'Sales.Product', N'Row delete datetime', 10, N'datetime2(6)', 0, N'row_delete_datetime', N'When the row was soft-deleted; 9999-12-31 for live rows.', NULL),
    (N'Sales.Product', N'Row signature', 11, N'varbinary(32)', 0, N'row_signature', N'SHA-256 of the comparison columns.', NULL);
DELETE FROM [_].[KeyDictionary] WHERE [table_id] = N'Sales.Product';
INSERT INTO [_].[KeyDictionary] ([table_id], [key_kind], [key_ordinal], [column_name], [column_ordinal])
VALUES (N'Sales.Product', N'primary', 0, N'product_id', 0);
DELETE FROM [_].[ForeignKeyDictionary] WHERE [table_id] = N'Sales.Product';
DELETE FROM [_].[Dependency] WHERE [table_id] = N'Sales.Product';
DELETE FROM [_].[TableDictionary] WHERE [table_id] = N'Sales.Product__History';
DELETE FROM [_].[ColumnDictionary] WHERE [table_id] = N'Sales.Product__History';
DELETE FROM [_].[Dependency] WHERE [table_id] = N'Sales.Product__History';
DELETE FROM [_].[Registry] WHERE [object_id] = N'Sales.Product';
INSERT INTO [_].[Registry] ([object_id], [object_kind], [declaration_signature], [structure_signature], [weaver_version], [installed_at], [creation_defaults])
VALUES (N'Sales.Product', N'table', N'442a5a7db9e3ca55b4ad408bc3b8f249d5ca341f480d91e6207709acab2220fe', N'b1b50fe2ff807483b5f15dd000747bdd4308935ef1d35533e731ce7b1e5bfaa6', N'0.1.0', CAST('2026-01-02T03:04:05.123456' AS datetime2(6)), N'{}');
IF NOT EXISTS (SELECT 1 FROM [_].[LoadState] WHERE [table_id] = N'Sales.Product')
    INSERT INTO [_].[LoadState] ([table_id], [last_load_id], [last_succeeded_at], [last_delta_version], [bookmark], [load_sequence]) VALUES (N'Sales.Product', NULL, NULL, NULL, NULL, 0);
COMMIT TRANSACTION;
