IF OBJECT_ID(N'[Sales].[OrderLine__History]', N'U') IS NULL
BEGIN
    CREATE TABLE [Sales].[OrderLine__History] (
        [order_id] varchar(20) NULL,
        [line_no] int NULL,
        [quantity] int NULL,
        [amount] decimal(12, 2) NULL,
        [note] varchar(400) NULL,
        [valid_from] datetime2(6) NOT NULL,
        [valid_to] datetime2(6) NOT NULL,
        [is_current] bit NOT NULL,
        [is_deleted] bit NOT NULL,
        [load_id] varchar(64) NULL
    );
    INSERT INTO [Sales].[OrderLine__History] ([order_id], [line_no], [quantity], [amount], [note], [valid_from], [valid_to], [is_current], [is_deleted], [load_id])
    SELECT t.[order_id], t.[line_no], t.[quantity], t.[amount], t.[note],
        CASE WHEN t.[Row delete datetime] = CAST('9999-12-31T00:00:00' AS datetime2(6)) THEN t.[Row update datetime] ELSE t.[Row delete datetime] END, CAST('9999-12-31T00:00:00' AS datetime2(6)), 1, CASE WHEN t.[Row delete datetime] = CAST('9999-12-31T00:00:00' AS datetime2(6)) THEN 0 ELSE 1 END, NULL
    FROM [Sales].[OrderLine] AS t;
END;
