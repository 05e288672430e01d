IF OBJECT_ID(N'[_].[LoadQuarantine]', N'U') IS NULL
    CREATE TABLE [_].[LoadQuarantine] (
        [load_id] varchar(8000) NOT NULL,
        [table_id] varchar(8000) NOT NULL,
        [expectations] varchar(max) NOT NULL,
        [key_json] varchar(max) NULL,
        [row_json] varchar(max) NOT NULL
    );
