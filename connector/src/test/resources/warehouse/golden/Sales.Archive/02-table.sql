IF OBJECT_ID(N'[Sales].[Archive]', N'U') IS NULL
    CREATE TABLE [Sales].[Archive] (
        [order_id] varchar(20) NOT NULL,
        [archived_at] datetime2(6) NULL,
        [Row insert datetime] datetime2(6) NOT NULL,
        [Row update datetime] datetime2(6) NOT NULL,
        [Row delete datetime] datetime2(6) NOT NULL
    );
