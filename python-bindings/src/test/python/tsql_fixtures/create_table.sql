IF OBJECT_ID(N'[Sales].[Order]', N'U') IS NULL
CREATE TABLE [Sales].[Order] (
    [Id] bigint IDENTITY NOT NULL,
    [order_id] varchar(20) NOT NULL,
    [amount] decimal(10,2) NULL,
    [Row insert datetime] datetime2(6) NOT NULL,
    [Row update datetime] datetime2(6) NOT NULL,
    [Row delete datetime] datetime2(6) NOT NULL,
    [Row signature] varbinary(32) NOT NULL
);
