IF OBJECT_ID(N'[_].[ColumnDictionary]', N'U') IS NULL
    CREATE TABLE [_].[ColumnDictionary] (
        [table_id] varchar(8000) NOT NULL,
        [column_name] varchar(8000) NOT NULL,
        [ordinal] int NOT NULL,
        [data_type] varchar(8000) NOT NULL,
        [nullable] bit NOT NULL,
        [managed_role] varchar(8000) NULL,
        [note] varchar(8000) NULL,
        [note_reference] varchar(8000) NULL
    );
