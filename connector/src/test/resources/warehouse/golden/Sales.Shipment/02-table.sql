IF OBJECT_ID(N'[Sales].[Shipment]', N'U') IS NULL
    CREATE TABLE [Sales].[Shipment] (
        [shipment_id] varchar(20) NOT NULL,
        [status] varchar(20) NULL,
        [status_at] datetime2(6) NULL,
        [carrier] varchar(100) NULL,
        [Row insert datetime] datetime2(6) NOT NULL,
        [Row update datetime] datetime2(6) NOT NULL,
        [Row delete datetime] datetime2(6) NOT NULL,
        [Row signature] varbinary(32) NOT NULL
    );
