IF OBJECT_ID(N'[Sales].[Customer__History]', N'U') IS NULL
BEGIN
    CREATE TABLE [Sales].[Customer__History] (
        [customer_key] bigint NULL,
        [customer_id] varchar(20) NULL,
        [email] varchar(200) NULL,
        [name] varchar(200) NULL,
        [segment] varchar(20) NULL,
        [valid_from] datetime2(6) NOT NULL,
        [valid_to] datetime2(6) NOT NULL,
        [is_current] bit NOT NULL,
        [is_deleted] bit NOT NULL,
        [load_id] varchar(64) NULL
    );
    INSERT INTO [Sales].[Customer__History] ([customer_key], [customer_id], [email], [name], [segment], [valid_from], [valid_to], [is_current], [is_deleted], [load_id])
    SELECT t.[customer_key], t.[customer_id], t.[email], t.[name], t.[segment],
        CASE WHEN t.[Row delete datetime] = CAST('9999-12-31T00:00:00' AS datetime2(6)) THEN t.[Row update datetime] ELSE t.[Row delete datetime] END, CAST('9999-12-31T00:00:00' AS datetime2(6)), 1, CASE WHEN t.[Row delete datetime] = CAST('9999-12-31T00:00:00' AS datetime2(6)) THEN 0 ELSE 1 END, NULL
    FROM [Sales].[Customer] AS t;
END;
