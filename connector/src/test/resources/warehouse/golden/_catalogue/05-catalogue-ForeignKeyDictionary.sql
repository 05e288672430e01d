IF OBJECT_ID(N'[_].[ForeignKeyDictionary]', N'U') IS NULL
    CREATE TABLE [_].[ForeignKeyDictionary] (
        [table_id] varchar(8000) NOT NULL,
        [fk_ordinal] int NOT NULL,
        [child_column] varchar(8000) NOT NULL,
        [parent_identity] varchar(8000) NOT NULL,
        [parent_item] varchar(8000) NULL,
        [parent_table_id] varchar(8000) NOT NULL,
        [parent_column] varchar(8000) NOT NULL,
        [column_ordinal] int NOT NULL
    );
