IF OBJECT_ID(N'[_].[Undo Sales.Customer]', N'U') IS NULL
    CREATE TABLE [_].[Undo Sales.Customer] (
        [load_sequence] bigint NOT NULL,
        [load_id] varchar(64) NOT NULL,
        [undo_kind] char(1) NOT NULL,
        [customer_id] varchar(20) NULL,
        [email] varchar(200) NULL,
        [name] varchar(200) NULL,
        [segment] varchar(20) NULL,
        [Row insert datetime] datetime2(6) NULL,
        [Row update datetime] datetime2(6) NULL,
        [Row delete datetime] datetime2(6) NULL,
        [Row signature] varbinary(32) NULL
    );
