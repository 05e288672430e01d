IF OBJECT_ID(N'[Sales].[Customer]', N'U') IS NULL
    CREATE TABLE [Sales].[Customer] (
        [customer_key] bigint IDENTITY NOT NULL,
        [customer_id] varchar(20) NOT NULL,
        [email] varchar(200) NULL,
        [name] varchar(200) NULL,
        [segment] varchar(20) NULL,
        [Row insert datetime] datetime2(6) NOT NULL,
        [Row update datetime] datetime2(6) NOT NULL,
        [Row delete datetime] datetime2(6) NOT NULL,
        [Row signature] varbinary(32) NOT NULL
    );
