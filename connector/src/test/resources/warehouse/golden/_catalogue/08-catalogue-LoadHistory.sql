IF OBJECT_ID(N'[_].[LoadHistory]', N'U') IS NULL
    CREATE TABLE [_].[LoadHistory] (
        [load_id] varchar(8000) NOT NULL,
        [table_id] varchar(8000) NOT NULL,
        [status] varchar(8000) NOT NULL,
        [started_at] datetime2(6) NULL,
        [finished_at] datetime2(6) NULL,
        [load_timestamp] datetime2(6) NULL,
        [rows_inserted] bigint NULL,
        [rows_updated] bigint NULL,
        [rows_deleted] bigint NULL,
        [rows_revived] bigint NULL,
        [rows_unchanged] bigint NULL,
        [rows_rejected] bigint NULL,
        [target_live_rows_before] bigint NULL,
        [target_live_rows_after] bigint NULL,
        [delta_version] bigint NULL,
        [gates_waived] bit NULL,
        [message] varchar(8000) NULL,
        [rows_stale] bigint NULL
    );
IF COL_LENGTH(N'[_].[LoadHistory]', N'rows_stale') IS NULL
    ALTER TABLE [_].[LoadHistory] ADD [rows_stale] bigint NULL;
