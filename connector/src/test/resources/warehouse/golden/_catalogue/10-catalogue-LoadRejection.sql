IF OBJECT_ID(N'[_].[LoadRejection]', N'U') IS NULL
    CREATE TABLE [_].[LoadRejection] (
        [load_id] varchar(8000) NOT NULL,
        [table_id] varchar(8000) NOT NULL,
        [reason] varchar(8000) NOT NULL,
        [key_json] varchar(max) NULL,
        [row_json] varchar(max) NULL
    );
