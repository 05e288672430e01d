CREATE OR ALTER PROCEDURE [_].[Load Sales.OrderLine]
    @load_id varchar(64),
    @load_timestamp datetime2(6),
    @waive_gates bit = 0
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    DECLARE @weaver_table_id varchar(300) = N'Sales.OrderLine';
    DECLARE @weaver_started_at datetime2(6) = SYSUTCDATETIME();
    DECLARE @weaver_live datetime2(6) = CAST('9999-12-31T00:00:00' AS datetime2(6));
    DECLARE @weaver_message varchar(4000);
    -- Exactly once: a load id already applied answers with its history row, changes nothing.
    IF EXISTS (SELECT 1 FROM [_].[LoadHistory] WHERE [load_id] = @load_id AND [table_id] = @weaver_table_id AND [status] IN (N'succeeded', N'no_work'))
    BEGIN
        SELECT [load_id], [status], [rows_inserted], [rows_updated], [rows_deleted], [rows_revived], [rows_unchanged], [rows_rejected], [target_live_rows_before], [target_live_rows_after], [gates_waived], CAST(1 AS bit) AS [already_applied]
        FROM [_].[LoadHistory] WHERE [load_id] = @load_id AND [table_id] = @weaver_table_id;
        RETURN;
    END;
    DECLARE @last_load_timestamp datetime2(6) = COALESCE((SELECT [last_succeeded_at] FROM [_].[LoadState] WHERE [table_id] = @weaver_table_id), CAST('1900-01-01T00:00:00' AS datetime2(6)));
    -- The load sequence this load follows; Build creates the state row at 0.
    DECLARE @weaver_sequence bigint = (SELECT [load_sequence] FROM [_].[LoadState] WHERE [table_id] = @weaver_table_id);
    IF @weaver_sequence IS NULL
        THROW 50001, N'Sales.Sales.OrderLine has no row in [_].[LoadState]; run build first', 1;
    -- Staging: the body's setup, then its result queries into session temp tables.
    CREATE TABLE #weaver_staging ([order_id] varchar(20) NULL, [line_no] int NULL, [quantity] int NULL, [amount] decimal(12, 2) NULL, [note] varchar(400) NULL, [__weaver_signature] varbinary(32) NULL);
    WITH [__weaver_result] AS (
    select order_id, line_no, quantity, amount, note
    from shop.order_line_changes
    where changed_at > @last_load_timestamp and change_kind <> 'D'
    )
    INSERT INTO #weaver_staging ([order_id], [line_no], [quantity], [amount], [note])
    SELECT [order_id], [line_no], [quantity], [amount], [note] FROM [__weaver_result];
    CREATE TABLE #weaver_delete_keys ([order_id] varchar(20) NULL, [line_no] int NULL);
    WITH [__weaver_result] AS (
    select order_id, line_no
    from shop.order_line_changes
    where changed_at > @last_load_timestamp and change_kind = 'D'
    )
    INSERT INTO #weaver_delete_keys ([order_id], [line_no])
    SELECT [order_id], [line_no] FROM [__weaver_result];
    -- Validation: nothing is written when a check fails.
    IF EXISTS (SELECT 1 FROM #weaver_staging WHERE [order_id] IS NULL)
    BEGIN
        SET @weaver_message = CONCAT(N'Sales.Sales.OrderLine: staging rows rejected, nothing written: column order_id: ', (SELECT COUNT_BIG(*) FROM #weaver_staging WHERE [order_id] IS NULL), N' null(s) in primary-key column', N'. Fix the body''s result and load again.');
        THROW 50001, @weaver_message, 1;
    END;
    IF EXISTS (SELECT 1 FROM #weaver_staging WHERE [line_no] IS NULL)
    BEGIN
        SET @weaver_message = CONCAT(N'Sales.Sales.OrderLine: staging rows rejected, nothing written: column line_no: ', (SELECT COUNT_BIG(*) FROM #weaver_staging WHERE [line_no] IS NULL), N' null(s) in primary-key column', N'. Fix the body''s result and load again.');
        THROW 50001, @weaver_message, 1;
    END;
    IF EXISTS (SELECT 1 FROM #weaver_staging GROUP BY [order_id], [line_no] HAVING COUNT_BIG(*) > 1)
    BEGIN
        SET @weaver_message = CONCAT(N'Sales.Sales.OrderLine: staging rows rejected, nothing written: primary key order_id, line_no: duplicate row(s); sample keys ', (SELECT STRING_AGG([k], N', ') FROM (SELECT TOP 5 CONCAT(N'(', CONVERT(varchar(400), x.[order_id]), N', ', CONVERT(varchar(400), x.[line_no]), N')') AS [k] FROM #weaver_staging AS x GROUP BY x.[order_id], x.[line_no] HAVING COUNT_BIG(*) > 1 ORDER BY [k]) AS [sample]), N'. Fix the body''s result and load again.');
        THROW 50001, @weaver_message, 1;
    END;
    IF EXISTS (SELECT 1 FROM #weaver_delete_keys AS d WHERE EXISTS (SELECT 1 FROM #weaver_staging AS s WHERE s.[order_id] = d.[order_id] AND s.[line_no] = d.[line_no]))
    BEGIN
        SET @weaver_message = CONCAT(N'Sales.Sales.OrderLine: primary key order_id, line_no: keys both staged and in the delete keys, sample ', (SELECT STRING_AGG([k], N', ') FROM (SELECT TOP 5 CONCAT(N'(', CONVERT(varchar(400), d.[order_id]), N', ', CONVERT(varchar(400), d.[line_no]), N')') AS [k] FROM #weaver_delete_keys AS d WHERE EXISTS (SELECT 1 FROM #weaver_staging AS s WHERE s.[order_id] = d.[order_id] AND s.[line_no] = d.[line_no]) ORDER BY [k]) AS [sample]), N'; a key is either loaded or deleted. Nothing written.');
        THROW 50001, @weaver_message, 1;
    END;
    -- Row signatures of the staged rows (the same bytes as a Lakehouse row_signature).
    UPDATE s SET s.[__weaver_signature] = HASHBYTES('SHA2_256', (CASE WHEN [s].[quantity] IS NULL THEN 0x00 ELSE ((0x01 + CAST(CAST(DATALENGTH(CAST(CONVERT(varchar(20), [s].[quantity]) AS varbinary(max))) AS int) AS binary(4))) + CAST(CONVERT(varchar(20), [s].[quantity]) AS varbinary(max))) END + CASE WHEN [s].[amount] IS NULL THEN 0x00 ELSE ((0x01 + CAST(CAST(DATALENGTH(CAST(CONVERT(varchar(50), [s].[amount]) AS varbinary(max))) AS int) AS binary(4))) + CAST(CONVERT(varchar(50), [s].[amount]) AS varbinary(max))) END)) FROM #weaver_staging AS s;
    -- Change detection: I insert, U update (signature differs), R revive, N unchanged, D delete.
    CREATE TABLE #weaver_change ([order_id] varchar(20) NOT NULL, [line_no] int NOT NULL, [__weaver_op] char(1) NOT NULL, [__weaver_reject] varchar(40) NULL);
    INSERT INTO #weaver_change ([order_id], [line_no], [__weaver_op])
    SELECT s.[order_id], s.[line_no],
        CASE WHEN t.[order_id] IS NULL THEN 'I' WHEN t.[Row delete datetime] <> @weaver_live THEN 'R' WHEN t.[Row signature] <> s.[__weaver_signature] THEN 'U' ELSE 'N' END
    FROM #weaver_staging AS s LEFT JOIN [Sales].[OrderLine] AS t ON t.[order_id] = s.[order_id] AND t.[line_no] = s.[line_no];
    INSERT INTO #weaver_change ([order_id], [line_no], [__weaver_op])
    SELECT t.[order_id], t.[line_no], 'D' FROM [Sales].[OrderLine] AS t
    WHERE t.[Row delete datetime] = @weaver_live AND EXISTS (SELECT 1 FROM #weaver_delete_keys AS d WHERE d.[order_id] = t.[order_id] AND d.[line_no] = t.[line_no]);
    -- Counts, before anything is written.
    DECLARE @weaver_inserted bigint, @weaver_updated bigint, @weaver_revived bigint,
        @weaver_deleted bigint, @weaver_unchanged bigint, @weaver_rejected bigint, @weaver_live_before bigint;
    SELECT
        @weaver_inserted = COUNT_BIG(CASE WHEN [__weaver_op] = 'I' AND [__weaver_reject] IS NULL THEN 1 END),
        @weaver_updated = COUNT_BIG(CASE WHEN [__weaver_op] = 'U' AND [__weaver_reject] IS NULL THEN 1 END),
        @weaver_revived = COUNT_BIG(CASE WHEN [__weaver_op] = 'R' AND [__weaver_reject] IS NULL THEN 1 END),
        @weaver_deleted = COUNT_BIG(CASE WHEN [__weaver_op] = 'D' THEN 1 END),
        @weaver_unchanged = COUNT_BIG(CASE WHEN [__weaver_op] = 'N' THEN 1 END),
        @weaver_rejected = COUNT_BIG([__weaver_reject])
    FROM #weaver_change;
    SELECT @weaver_live_before = COUNT_BIG(*) FROM [Sales].[OrderLine] WHERE [Row delete datetime] = @weaver_live;
    DECLARE @weaver_refusal varchar(4000);
    -- Stability gates.
    IF @weaver_live_before > 0 AND @weaver_live_before >= 10
    BEGIN
        IF @weaver_deleted > 0 AND 100 * @weaver_deleted >= 0 * @weaver_live_before
            SET @weaver_refusal = CONCAT(@weaver_refusal + N'; ', @weaver_deleted, N' of ', @weaver_live_before, N' live rows (', CAST(ROUND(100.0 * @weaver_deleted / @weaver_live_before, 1) AS decimal(5, 1)), N'%) would be deleted; Delete percentage threshold is 0');
    END;
    IF @weaver_refusal IS NOT NULL AND @waive_gates = 0
    BEGIN
        SET @weaver_refusal = CONCAT(N'Sales.Sales.OrderLine: ', @weaver_refusal, N'. Waive the gates to apply.');
        THROW 50010, @weaver_refusal, 1;
    END;
    -- The writes, in one transaction: changed rows only.
    BEGIN TRANSACTION;
    -- Claim the next load sequence: a load of this Table that committed meanwhile stops this one.
    UPDATE [_].[LoadState] SET [last_load_id] = @load_id, [last_succeeded_at] = @load_timestamp, [load_sequence] = [load_sequence] + 1 WHERE [table_id] = @weaver_table_id AND [load_sequence] = @weaver_sequence;
    IF @@ROWCOUNT = 0
        THROW 50020, N'Sales.Sales.OrderLine: another load of this Table committed after this one started; nothing of this one was written. Run it again.', 1;
    -- Row history for RESTORE: this load's mark and what undoes its writes.
    INSERT INTO [_].[Undo Sales.OrderLine] ([load_sequence], [load_id], [undo_kind]) VALUES (@weaver_sequence + 1, @load_id, N'L');
    INSERT INTO [_].[Undo Sales.OrderLine] ([load_sequence], [load_id], [undo_kind], [order_id], [line_no], [quantity], [amount], [note], [Row insert datetime], [Row update datetime], [Row delete datetime], [Row signature])
    SELECT @weaver_sequence + 1, @load_id, N'U', t.[order_id], t.[line_no], t.[quantity], t.[amount], t.[note], t.[Row insert datetime], t.[Row update datetime], t.[Row delete datetime], t.[Row signature]
    FROM [Sales].[OrderLine] AS t INNER JOIN #weaver_change AS c ON c.[order_id] = t.[order_id] AND c.[line_no] = t.[line_no]
    WHERE c.[__weaver_op] IN ('U', 'R', 'D') AND c.[__weaver_reject] IS NULL;
    INSERT INTO [_].[Undo Sales.OrderLine] ([load_sequence], [load_id], [undo_kind], [order_id], [line_no])
    SELECT @weaver_sequence + 1, @load_id, N'I', c.[order_id], c.[line_no]
    FROM #weaver_change AS c WHERE c.[__weaver_op] = 'I' AND c.[__weaver_reject] IS NULL;
    -- Updates, revivals and inserts in one MERGE (spark.weaver.item.<Item>.warehouseDml=merge).
    MERGE INTO [Sales].[OrderLine] AS t
    USING (
        SELECT s.*, c.[__weaver_op] FROM #weaver_staging AS s INNER JOIN #weaver_change AS c ON c.[order_id] = s.[order_id] AND c.[line_no] = s.[line_no]
        WHERE c.[__weaver_op] IN ('I', 'U', 'R') AND c.[__weaver_reject] IS NULL
    ) AS s ON t.[order_id] = s.[order_id] AND t.[line_no] = s.[line_no]
    WHEN MATCHED THEN UPDATE SET
        t.[quantity] = s.[quantity],
        t.[amount] = s.[amount],
        t.[note] = s.[note],
        t.[Row update datetime] = @load_timestamp,
        t.[Row delete datetime] = @weaver_live,
        t.[Row signature] = s.[__weaver_signature]
    WHEN NOT MATCHED BY TARGET THEN INSERT ([order_id], [line_no], [quantity], [amount], [note], [Row insert datetime], [Row update datetime], [Row delete datetime], [Row signature])
        VALUES (s.[order_id], s.[line_no], s.[quantity], s.[amount], s.[note], @load_timestamp, @load_timestamp, @weaver_live, s.[__weaver_signature]);
    -- Hard deletes (Deletes: hard): the rows are removed; a key that returns is a new insert.
    DELETE FROM [Sales].[OrderLine] WHERE EXISTS (
        SELECT 1 FROM #weaver_change AS c WHERE c.[__weaver_op] = 'D'
        AND c.[order_id] = [OrderLine].[order_id] AND c.[line_no] = [OrderLine].[line_no]);
    -- The history table (History: true): each changed key's new version, then its previous one closed at the load's time.
    INSERT INTO [Sales].[OrderLine__History] ([order_id], [line_no], [quantity], [amount], [note], [valid_from], [valid_to], [is_current], [is_deleted], [load_id])
    SELECT v.[order_id], v.[line_no], v.[quantity], v.[amount], v.[note], @load_timestamp, @weaver_live, 1, 1, @load_id
    FROM [Sales].[OrderLine__History] AS v INNER JOIN #weaver_change AS c ON c.[order_id] = v.[order_id] AND c.[line_no] = v.[line_no]
    WHERE v.[is_current] = 1 AND c.[__weaver_op] = 'D';
    INSERT INTO [Sales].[OrderLine__History] ([order_id], [line_no], [quantity], [amount], [note], [valid_from], [valid_to], [is_current], [is_deleted], [load_id])
    SELECT t.[order_id], t.[line_no], t.[quantity], t.[amount], t.[note], @load_timestamp, @weaver_live, 1, CASE WHEN t.[Row delete datetime] = @weaver_live THEN 0 ELSE 1 END, @load_id
    FROM [Sales].[OrderLine] AS t INNER JOIN #weaver_change AS c ON c.[order_id] = t.[order_id] AND c.[line_no] = t.[line_no]
    WHERE c.[__weaver_op] IN ('I', 'U', 'R', 'D') AND c.[__weaver_reject] IS NULL;
    UPDATE v SET [valid_to] = @load_timestamp, [is_current] = 0
    FROM [Sales].[OrderLine__History] AS v INNER JOIN #weaver_change AS c ON c.[order_id] = v.[order_id] AND c.[line_no] = v.[line_no]
    WHERE v.[is_current] = 1 AND v.[valid_from] < @load_timestamp AND c.[__weaver_op] IN ('I', 'U', 'R', 'D') AND c.[__weaver_reject] IS NULL;
    -- History, in the same transaction as the rows and the state.
    INSERT INTO [_].[LoadHistory] ([load_id], [table_id], [status], [started_at], [finished_at], [load_timestamp],
        [rows_inserted], [rows_updated], [rows_deleted], [rows_revived], [rows_unchanged], [rows_rejected],
        [target_live_rows_before], [target_live_rows_after], [delta_version], [gates_waived], [message])
    VALUES (@load_id, @weaver_table_id, N'succeeded', @weaver_started_at, SYSUTCDATETIME(), @load_timestamp,
        @weaver_inserted, @weaver_updated, @weaver_deleted, @weaver_revived, @weaver_unchanged, @weaver_rejected,
        @weaver_live_before, @weaver_live_before + @weaver_inserted + @weaver_revived - @weaver_deleted, NULL, CASE WHEN @weaver_refusal IS NULL THEN 0 ELSE 1 END, @weaver_refusal);
    COMMIT TRANSACTION;
    SELECT [load_id], [status], [rows_inserted], [rows_updated], [rows_deleted], [rows_revived], [rows_unchanged], [rows_rejected], [target_live_rows_before], [target_live_rows_after], [gates_waived], CAST(0 AS bit) AS [already_applied]
    FROM [_].[LoadHistory] WHERE [load_id] = @load_id AND [table_id] = @weaver_table_id;
END;
