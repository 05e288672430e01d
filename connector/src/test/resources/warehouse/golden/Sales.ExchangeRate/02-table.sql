IF OBJECT_ID(N'[Sales].[ExchangeRate]', N'U') IS NULL
    CREATE TABLE [Sales].[ExchangeRate] (
        [currency] char(3) NULL,
        [rate] decimal(18, 8) NULL,
        [Row insert datetime] datetime2(6) NOT NULL,
        [Row update datetime] datetime2(6) NOT NULL,
        [Row delete datetime] datetime2(6) NOT NULL
    );
