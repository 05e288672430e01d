IF OBJECT_ID(N'[_].[Undo Sales.Shipment]', N'U') IS NULL
    CREATE TABLE [_].[Undo Sales.Shipment] (
        [load_sequence] bigint NOT NULL,
        [load_id] varchar(64) NOT NULL,
        [undo_kind] char(1) NOT NULL,
        [shipment_id] varchar(20) NULL,
        [status] varchar(20) NULL,
        [status_at] datetime2(6) NULL,
        [carrier] varchar(100) NULL,
        [Row insert datetime] datetime2(6) NULL,
        [Row update datetime] datetime2(6) NULL,
        [Row delete datetime] datetime2(6) NULL,
        [Row signature] varbinary(32) NULL
    );
