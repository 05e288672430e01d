IF OBJECT_ID(N'[_].[LoadExpectation]', N'U') IS NULL
    CREATE TABLE [_].[LoadExpectation] (
        [load_id] varchar(8000) NOT NULL,
        [table_id] varchar(8000) NOT NULL,
        [expectation] varchar(8000) NOT NULL,
        [action] varchar(8000) NOT NULL,
        [rows_violating] bigint NOT NULL,
        [sample_keys] varchar(max) NULL
    );
