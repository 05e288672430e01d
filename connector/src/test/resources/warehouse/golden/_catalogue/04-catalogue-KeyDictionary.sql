IF OBJECT_ID(N'[_].[KeyDictionary]', N'U') IS NULL
    CREATE TABLE [_].[KeyDictionary] (
        [table_id] varchar(8000) NOT NULL,
        [key_kind] varchar(8000) NOT NULL,
        [key_ordinal] int NOT NULL,
        [column_name] varchar(8000) NOT NULL,
        [column_ordinal] int NOT NULL
    );
