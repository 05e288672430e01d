IF OBJECT_ID(N'[Sales].[OrderLine]', N'U') IS NULL
    CREATE TABLE [Sales].[OrderLine] (
        [order_id] varchar(20) NOT NULL,
        [line_no] int NOT NULL,
        [quantity] int NULL,
        [amount] decimal(12, 2) NULL,
        [note] varchar(400) NULL,
        [Row insert datetime] datetime2(6) NOT NULL,
        [Row update datetime] datetime2(6) NOT NULL,
        [Row delete datetime] datetime2(6) NOT NULL,
        [Row signature] varbinary(32) NOT NULL
    );
