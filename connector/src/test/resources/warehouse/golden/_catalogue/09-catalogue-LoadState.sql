IF OBJECT_ID(N'[_].[LoadState]', N'U') IS NULL
    CREATE TABLE [_].[LoadState] (
        [table_id] varchar(8000) NOT NULL,
        [last_load_id] varchar(8000) NULL,
        [last_succeeded_at] datetime2(6) NULL,
        [last_delta_version] bigint NULL,
        [bookmark] varchar(8000) NULL,
        [load_sequence] bigint NOT NULL
    );
