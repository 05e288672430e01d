IF OBJECT_ID(N'[_].[Undo Sales.OrderLine]', N'U') IS NULL
    CREATE TABLE [_].[Undo Sales.OrderLine] (
        [load_sequence] bigint NOT NULL,
        [load_id] varchar(64) NOT NULL,
        [undo_kind] char(1) NOT NULL,
        [order_id] varchar(20) NULL,
        [line_no] int NULL,
        [quantity] int NULL,
        [amount] decimal(12, 2) NULL,
        [note] varchar(400) NULL,
        [Row insert datetime] datetime2(6) NULL,
        [Row update datetime] datetime2(6) NULL,
        [Row delete datetime] datetime2(6) NULL,
        [Row signature] varbinary(32) NULL
    );
