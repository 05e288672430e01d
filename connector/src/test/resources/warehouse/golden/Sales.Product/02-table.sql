IF OBJECT_ID(N'[Sales].[Product]', N'U') IS NULL
    CREATE TABLE [Sales].[Product] (
        [product_id] bigint NOT NULL,
        [name] varchar(200) NOT NULL,
        [price] decimal(10, 2) NULL,
        [weight_kg] float NULL,
        [launched] date NULL,
        [changed_at] datetime2(6) NULL,
        [active] bit NULL,
        [thumbnail] varbinary(max) NULL,
        [Row insert datetime] datetime2(6) NOT NULL,
        [Row update datetime] datetime2(6) NOT NULL,
        [Row delete datetime] datetime2(6) NOT NULL,
        [Row signature] varbinary(32) NOT NULL
    );
