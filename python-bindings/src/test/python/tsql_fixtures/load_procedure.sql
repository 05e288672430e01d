CREATE OR ALTER PROCEDURE [_].[Load Sales.Order]
    @load_id varchar(36),
    @load_timestamp datetime2(6),
    @waive_gates bit = 0
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    DECLARE @msg nvarchar(4000) = N'', @rows bigint = 0, @inserted bigint = 0, @updated bigint = 0;
    DECLARE @started datetime2(6) = SYSUTCDATETIME();

    CREATE TABLE #staging (
        [order_id] varchar(20) COLLATE Latin1_General_100_BIN2_UTF8 NOT NULL,
        [amount] decimal(10,2) NULL,
        [ordered_at] datetime2(6) NULL,
        [Row signature] varbinary(32) NULL
    );

    BEGIN TRY
        WITH [source] AS (
            SELECT o.[order_id], o.[amount], o.[ordered_at]
            FROM [Landing].[Orders] AS o
            WHERE o.[amount] IS NOT NULL
        )
        INSERT INTO #staging ([order_id], [amount], [ordered_at])
        SELECT [order_id], [amount], [ordered_at] FROM [source];

        SELECT @rows = COUNT_BIG(*) FROM #staging;

        IF @waive_gates = 0 AND EXISTS (
            SELECT s.[order_id] FROM #staging AS s
            GROUP BY s.[order_id] HAVING COUNT_BIG(*) > 1
        )
        BEGIN
            SET @msg = N'Duplicate keys in [Sales].[Order]: ' + (
                SELECT STRING_AGG(d.[order_id], N', ') WITHIN GROUP (ORDER BY d.[order_id])
                FROM (
                    SELECT TOP 10 s.[order_id] FROM #staging AS s
                    GROUP BY s.[order_id] HAVING COUNT_BIG(*) > 1
                    ORDER BY s.[order_id]
                ) AS d
            );
            THROW 50001, @msg, 1;
        END;

        IF EXISTS (SELECT 1 FROM #staging AS s WHERE s.[order_id] = N'') THROW 50002, N'Empty key', 1;

        UPDATE s SET [Row signature] = HASHBYTES('SHA2_256',
              0x01 + CAST(DATALENGTH(s.[order_id]) AS binary(4)) + CAST(s.[order_id] AS varbinary(max))
            + CASE WHEN s.[amount] IS NULL THEN 0x00
                   ELSE 0x01 + CAST(DATALENGTH(CONVERT(varchar(30), s.[amount], 3)) AS binary(4))
                        + CAST(CONVERT(varchar(30), s.[amount], 3) AS varbinary(max)) END
            + CASE WHEN s.[ordered_at] IS NULL THEN 0x00
                   ELSE 0x01 + CAST(CONVERT(char(19), CAST(s.[ordered_at] AS datetime2(6)), 126)
                        + RIGHT('000000' + CAST(DATEPART(microsecond, s.[ordered_at]) AS varchar(6)), 6)
                        AS varbinary(max)) END)
        FROM #staging AS s;

        SET @msg = (
            SELECT TOP 1 CASE p.n WHEN 1 THEN N'first' WHEN 2 THEN N'second' ELSE N'third' END
            FROM (VALUES (1), (2), (3)) AS p(n)
            WHERE p.n >= 1
            ORDER BY p.n
        );

        BEGIN TRANSACTION;

        UPDATE t SET
            t.[amount] = s.[amount],
            t.[Row update datetime] = @load_timestamp,
            t.[Row signature] = s.[Row signature]
        FROM [Sales].[Order] AS t
        INNER JOIN #staging AS s ON s.[order_id] = t.[order_id] COLLATE Latin1_General_100_BIN2_UTF8
        WHERE t.[Row signature] <> s.[Row signature];
        SET @updated = @@ROWCOUNT;

        UPDATE t SET t.[Row delete datetime] = @load_timestamp
        FROM [Sales].[Order] AS t
        WHERE NOT EXISTS (SELECT 1 FROM #staging AS s WHERE s.[order_id] = t.[order_id]);

        INSERT INTO [Sales].[Order] ([order_id], [amount], [Row insert datetime], [Row update datetime],
            [Row delete datetime], [Row signature])
        SELECT s.[order_id], s.[amount], @load_timestamp, @load_timestamp, '9999-12-31', s.[Row signature]
        FROM #staging AS s
        WHERE NOT EXISTS (SELECT 1 FROM [Sales].[Order] AS t WHERE t.[order_id] = s.[order_id]);
        SET @inserted = @@ROWCOUNT;

        INSERT INTO [_].[LoadHistory] ([load_id], [table_name], [rows], [inserted], [updated], [started], [finished])
        VALUES (@load_id, N'Sales.Order', @rows, @inserted, @updated, @started, SYSUTCDATETIME());

        COMMIT TRANSACTION;
    END TRY
    BEGIN CATCH
        IF @@TRANCOUNT > 0 ROLLBACK TRANSACTION;
        THROW;
    END CATCH;
END
