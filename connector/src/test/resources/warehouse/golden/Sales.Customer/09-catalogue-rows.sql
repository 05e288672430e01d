SET XACT_ABORT ON;
BEGIN TRANSACTION;
DELETE FROM [_].[TableDictionary] WHERE [table_id] = N'Sales.Customer';
INSERT INTO [_].[TableDictionary] ([table_id], [schema_name], [object_name], [target], [form], [source_path], [description], [lineage], [owner], [tags], [primary_key], [incremental], [has_load_procedure], [identity_column], [comparison_columns], [delete_percentage_threshold], [update_percentage_threshold], [stability_row_threshold], [delta_min_reader_version], [delta_min_writer_version], [declaration_signature], [built_at])
VALUES (N'Sales.Customer', N'Sales', N'Customer', N'warehouse', N'tsql', N'Warehouse/Sales/Sales.Customer.sql', N'One row per customer of the web shop.', N'Shop database, customer table.', NULL, N'[]', N'["customer_id"]', 0, 1, N'customer_key', N'["email","name","segment"]', 5, 20, 1000000, NULL, NULL, N'11456d65dbf2d4084a7d674b2607a7a2da551667ed2a1870c6cb5f072c9ba82e', CAST('2026-01-02T03:04:05.123456' AS datetime2(6)));
DELETE FROM [_].[ColumnDictionary] WHERE [table_id] = N'Sales.Customer';
INSERT INTO [_].[ColumnDictionary] ([table_id], [column_name], [ordinal], [data_type], [nullable], [managed_role], [note], [note_reference])
VALUES (N'Sales.Customer', N'customer_key', 0, N'bigint', 0, N'identity', N'Weaver-generated surrogate key.', NULL),
    (N'Sales.Customer', N'customer_id', 1, N'varchar(20)', 0, NULL, NULL, NULL),
    (N'Sales.Customer', N'email', 2, N'varchar(200)', 1, NULL, NULL, NULL),
    (N'Sales.Customer', N'name', 3, N'varchar(200)', 1, NULL, NULL, NULL),
    (N'Sales.Customer', N'segment', 4, N'varchar(20)', 1, NULL, NULL, NULL),
    (N'Sales.Customer', N'Row insert datetime', 5, N'datetime2(6)', 0, N'row_insert_datetime', N'When Weaver first inserted the row.', NULL),
    (N'Sales.Customer', N'Row update datetime', 6, N'datetime2(6)', 0, N'row_update_datetime', N'When Weaver last changed the row.', NULL),
    (N'Sales.Customer', N'Row delete datetime', 7, N'datetime2(6)', 0, N'row_delete_datetime', N'When the row was soft-deleted; 9999-12-31 for live rows.', NULL),
    (N'Sales.Customer', N'Row signature', 8, N'varbinary(32)', 0, N'row_signature', N'SHA-256 of the comparison columns.', NULL);
DELETE FROM [_].[KeyDictionary] WHERE [table_id] = N'Sales.Customer';
INSERT INTO [_].[KeyDictionary] ([table_id], [key_kind], [key_ordinal], [column_name], [column_ordinal])
VALUES (N'Sales.Customer', N'primary', 0, N'customer_id', 0),
    (N'Sales.Customer', N'unique', 1, N'email', 1);
DELETE FROM [_].[ForeignKeyDictionary] WHERE [table_id] = N'Sales.Customer';
DELETE FROM [_].[Dependency] WHERE [table_id] = N'Sales.Customer';
DELETE FROM [_].[TableDictionary] WHERE [table_id] = N'Sales.Customer__History';
INSERT INTO [_].[TableDictionary] ([table_id], [schema_name], [object_name], [target], [form], [source_path], [description], [lineage], [owner], [tags], [primary_key], [incremental], [has_load_procedure], [identity_column], [comparison_columns], [delete_percentage_threshold], [update_percentage_threshold], [stability_row_threshold], [delta_min_reader_version], [delta_min_writer_version], [declaration_signature], [built_at])
VALUES (N'Sales.Customer__History', N'Sales', N'Customer__History', N'warehouse', N'history', N'Warehouse/Sales/Sales.Customer.sql', N'Every version of Sales.Customer: one row per version of each key, written by its loads (History: true).', NULL, NULL, N'[]', N'["customer_id","valid_from"]', 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, N'11456d65dbf2d4084a7d674b2607a7a2da551667ed2a1870c6cb5f072c9ba82e', CAST('2026-01-02T03:04:05.123456' AS datetime2(6)));
DELETE FROM [_].[ColumnDictionary] WHERE [table_id] = N'Sales.Customer__History';
INSERT INTO [_].[ColumnDictionary] ([table_id], [column_name], [ordinal], [data_type], [nullable], [managed_role], [note], [note_reference])
VALUES (N'Sales.Customer__History', N'customer_key', 0, N'bigint', 1, NULL, N'The Table''s surrogate key in this version.', NULL),
    (N'Sales.Customer__History', N'customer_id', 1, N'varchar(20)', 1, NULL, NULL, NULL),
    (N'Sales.Customer__History', N'email', 2, N'varchar(200)', 1, NULL, NULL, NULL),
    (N'Sales.Customer__History', N'name', 3, N'varchar(200)', 1, NULL, NULL, NULL),
    (N'Sales.Customer__History', N'segment', 4, N'varchar(20)', 1, NULL, NULL, NULL),
    (N'Sales.Customer__History', N'valid_from', 5, N'datetime2(6)', 0, N'valid_from', N'When this version became the key''s row.', NULL),
    (N'Sales.Customer__History', N'valid_to', 6, N'datetime2(6)', 0, N'valid_to', N'When a later version replaced it; 9999-12-31 while it is the key''s current version.', NULL),
    (N'Sales.Customer__History', N'is_current', 7, N'bit', 0, N'is_current', N'Whether this is the key''s newest version.', NULL),
    (N'Sales.Customer__History', N'is_deleted', 8, N'bit', 0, N'is_deleted', N'Whether this version records the key''s deletion (soft or hard).', NULL),
    (N'Sales.Customer__History', N'load_id', 9, N'varchar(64)', 1, N'load_id', N'The load that wrote this version; null for versions a catch-up wrote for loads it could not name.', NULL);
DELETE FROM [_].[Dependency] WHERE [table_id] = N'Sales.Customer__History';
INSERT INTO [_].[Dependency] ([table_id], [depends_on], [depends_on_item], [depends_on_table_id], [kind])
VALUES (N'Sales.Customer__History', N'Sales.Customer', N'Sales', N'Sales.Customer', N'history');
DELETE FROM [_].[Registry] WHERE [object_id] = N'Sales.Customer';
INSERT INTO [_].[Registry] ([object_id], [object_kind], [declaration_signature], [structure_signature], [weaver_version], [installed_at], [creation_defaults])
VALUES (N'Sales.Customer', N'table', N'11456d65dbf2d4084a7d674b2607a7a2da551667ed2a1870c6cb5f072c9ba82e', N'd6058c68f3f3ed19ad53e50bae77a15ea22d86b86eb5e48460c04c2ee4e1a350', N'0.1.0', CAST('2026-01-02T03:04:05.123456' AS datetime2(6)), N'{}');
IF NOT EXISTS (SELECT 1 FROM [_].[LoadState] WHERE [table_id] = N'Sales.Customer')
    INSERT INTO [_].[LoadState] ([table_id], [last_load_id], [last_succeeded_at], [last_delta_version], [bookmark], [load_sequence]) VALUES (N'Sales.Customer', NULL, NULL, NULL, NULL, 0);
COMMIT TRANSACTION;
