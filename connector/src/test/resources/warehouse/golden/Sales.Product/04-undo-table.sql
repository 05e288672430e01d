IF OBJECT_ID(N'[_].[Undo Sales.Product]', N'U') IS NULL
    CREATE TABLE [_].[Undo Sales.Product] (
        [load_sequence] bigint NOT NULL,
        [load_id] varchar(64) NOT NULL,
        [undo_kind] char(1) NOT NULL,
        [product_id] bigint NULL,
        [name] varchar(200) NULL,
        [price] decimal(10, 2) NULL,
        [weight_kg] float NULL,
        [launched] date NULL,
        [changed_at] datetime2(6) NULL,
        [active] bit NULL,
        [thumbnail] varbinary(max) NULL,
        [Row insert datetime] datetime2(6) NULL,
        [Row update datetime] datetime2(6) NULL,
        [Row delete datetime] datetime2(6) NULL,
        [Row signature] varbinary(32) NULL
    );
