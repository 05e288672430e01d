IF OBJECT_ID(N'[_].[Undo Sales.ExchangeRate]', N'U') IS NULL
    CREATE TABLE [_].[Undo Sales.ExchangeRate] (
        [load_sequence] bigint NOT NULL,
        [load_id] varchar(64) NOT NULL,
        [undo_kind] char(1) NOT NULL,
        [currency] char(3) NULL,
        [rate] decimal(18, 8) NULL,
        [Row insert datetime] datetime2(6) NULL,
        [Row update datetime] datetime2(6) NULL,
        [Row delete datetime] datetime2(6) NULL
    );
