IF OBJECT_ID(N'[_].[Dependency]', N'U') IS NULL
    CREATE TABLE [_].[Dependency] (
        [table_id] varchar(8000) NOT NULL,
        [depends_on] varchar(8000) NOT NULL,
        [depends_on_item] varchar(8000) NULL,
        [depends_on_table_id] varchar(8000) NOT NULL,
        [kind] varchar(8000) NOT NULL
    );
