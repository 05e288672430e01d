CREATE OR ALTER PROCEDURE [_].[Load Sales.Customer]
    @load_id varchar(64),
    @load_timestamp datetime2(6),
    @waive_gates bit = 0
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    DECLARE @weaver_table_id varchar(300) = N'Sales.Customer';
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
        THROW 50001, N'Sales.Sales.Customer has no row in [_].[LoadState]; run build first', 1;
    -- Staging: the body's setup, then its result queries into session temp tables.
    CREATE TABLE #weaver_staging ([customer_id] varchar(20) NULL, [email] varchar(200) NULL, [name] varchar(200) NULL, [segment] varchar(20) NULL, [__weaver_signature] varbinary(32) NULL);
    declare @cutoff datetime2(6) = dateadd(day, -30, @load_timestamp);
    with active as (
        select customer_id, email, name, segment
        from shop.customer
        where last_seen >= @cutoff
    ),
    [__weaver_result] AS (
    select name, customer_id, email, segment
    from active
    )
    INSERT INTO #weaver_staging ([customer_id], [email], [name], [segment])
    SELECT [customer_id], [email], [name], [segment] FROM [__weaver_result];
    -- Validation: nothing is written when a check fails.
    IF EXISTS (SELECT 1 FROM #weaver_staging WHERE [customer_id] IS NULL)
    BEGIN
        SET @weaver_message = CONCAT(N'Sales.Sales.Customer: staging rows rejected, nothing written: column customer_id: ', (SELECT COUNT_BIG(*) FROM #weaver_staging WHERE [customer_id] IS NULL), N' null(s) in primary-key column', N'. Fix the body''s result and load again.');
        THROW 50001, @weaver_message, 1;
    END;
    IF EXISTS (SELECT 1 FROM #weaver_staging GROUP BY [customer_id] HAVING COUNT_BIG(*) > 1)
    BEGIN
        SET @weaver_message = CONCAT(N'Sales.Sales.Customer: staging rows rejected, nothing written: primary key customer_id: duplicate row(s); sample keys ', (SELECT STRING_AGG([k], N', ') FROM (SELECT TOP 5 CONVERT(varchar(400), x.[customer_id]) AS [k] FROM #weaver_staging AS x GROUP BY x.[customer_id] HAVING COUNT_BIG(*) > 1 ORDER BY [k]) AS [sample]), N'. Fix the body''s result and load again.');
        THROW 50001, @weaver_message, 1;
    END;
    -- Row signatures of the staged rows (the same bytes as a Lakehouse row_signature).
    UPDATE s SET s.[__weaver_signature] = HASHBYTES('SHA2_256', ((CASE WHEN [s].[email] IS NULL THEN 0x00 ELSE ((0x01 + CAST(CAST(DATALENGTH(CAST(CAST(CAST([s].[email] AS nvarchar(max)) COLLATE Latin1_General_100_BIN2_UTF8 AS varchar(max)) AS varbinary(max))) AS int) AS binary(4))) + CAST(CAST(CAST([s].[email] AS nvarchar(max)) COLLATE Latin1_General_100_BIN2_UTF8 AS varchar(max)) AS varbinary(max))) END + CASE WHEN [s].[name] IS NULL THEN 0x00 ELSE ((0x01 + CAST(CAST(DATALENGTH(CAST(CAST(CAST([s].[name] AS nvarchar(max)) COLLATE Latin1_General_100_BIN2_UTF8 AS varchar(max)) AS varbinary(max))) AS int) AS binary(4))) + CAST(CAST(CAST([s].[name] AS nvarchar(max)) COLLATE Latin1_General_100_BIN2_UTF8 AS varchar(max)) AS varbinary(max))) END) + CASE WHEN [s].[segment] IS NULL THEN 0x00 ELSE ((0x01 + CAST(CAST(DATALENGTH(CAST(CAST(CAST([s].[segment] AS nvarchar(max)) COLLATE Latin1_General_100_BIN2_UTF8 AS varchar(max)) AS varbinary(max))) AS int) AS binary(4))) + CAST(CAST(CAST([s].[segment] AS nvarchar(max)) COLLATE Latin1_General_100_BIN2_UTF8 AS varchar(max)) AS varbinary(max))) END)) FROM #weaver_staging AS s;
    -- Change detection: I insert, U update (signature differs), R revive, N unchanged, D delete.
    CREATE TABLE #weaver_change ([customer_id] varchar(20) NOT NULL, [__weaver_op] char(1) NOT NULL, [__weaver_reject] varchar(40) NULL);
    INSERT INTO #weaver_change ([customer_id], [__weaver_op])
    SELECT s.[customer_id],
        CASE WHEN t.[customer_id] IS NULL THEN 'I' WHEN t.[Row delete datetime] <> @weaver_live THEN 'R' WHEN t.[Row signature] <> s.[__weaver_signature] THEN 'U' ELSE 'N' END
    FROM #weaver_staging AS s LEFT JOIN [Sales].[Customer] AS t ON t.[customer_id] = s.[customer_id];
    INSERT INTO #weaver_change ([customer_id], [__weaver_op])
    SELECT t.[customer_id], 'D' FROM [Sales].[Customer] AS t
    WHERE t.[Row delete datetime] = @weaver_live AND NOT EXISTS (SELECT 1 FROM #weaver_staging AS s WHERE s.[customer_id] = t.[customer_id]);
    -- Unique key 1 (email): reason unique-key:1.
    WITH [__weaver_holder] AS (
        SELECT s.[email] FROM #weaver_staging AS s INNER JOIN #weaver_change AS c ON c.[customer_id] = s.[customer_id]
        WHERE c.[__weaver_op] IN ('I', 'U', 'R') AND c.[__weaver_reject] IS NULL AND s.[email] IS NOT NULL
        UNION ALL
        SELECT t.[email] FROM [Sales].[Customer] AS t
        WHERE t.[Row delete datetime] = @weaver_live AND t.[email] IS NOT NULL AND NOT EXISTS (SELECT 1 FROM #weaver_change AS c WHERE c.[customer_id] = t.[customer_id] AND (c.[__weaver_op] = 'D' OR (c.[__weaver_op] IN ('I', 'U', 'R') AND c.[__weaver_reject] IS NULL)))
    ), [__weaver_taken] AS (
        SELECT [email] FROM [__weaver_holder] GROUP BY [email] HAVING COUNT_BIG(*) > 1
    )
    UPDATE c SET c.[__weaver_reject] = N'unique-key:1'
    FROM #weaver_change AS c INNER JOIN #weaver_staging AS s ON s.[customer_id] = c.[customer_id]
    INNER JOIN [__weaver_taken] AS k ON k.[email] = s.[email]
    WHERE c.[__weaver_op] IN ('I', 'U', 'R') AND c.[__weaver_reject] IS NULL AND NOT (c.[__weaver_op] = 'U' AND EXISTS (SELECT 1 FROM [Sales].[Customer] AS t WHERE t.[customer_id] = c.[customer_id] AND t.[email] = s.[email]));
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
    SELECT @weaver_live_before = COUNT_BIG(*) FROM [Sales].[Customer] WHERE [Row delete datetime] = @weaver_live;
    DECLARE @weaver_refusal varchar(4000);
    -- Stability gates.
    IF @weaver_live_before > 0 AND @weaver_live_before >= 1000000
    BEGIN
        IF @weaver_deleted > 0 AND 100 * @weaver_deleted >= 5 * @weaver_live_before
            SET @weaver_refusal = CONCAT(@weaver_refusal + N'; ', @weaver_deleted, N' of ', @weaver_live_before, N' live rows (', CAST(ROUND(100.0 * @weaver_deleted / @weaver_live_before, 1) AS decimal(5, 1)), N'%) would be deleted; Delete percentage threshold is 5');
        IF @weaver_updated > 0 AND 100 * @weaver_updated >= 20 * @weaver_live_before
            SET @weaver_refusal = CONCAT(@weaver_refusal + N'; ', @weaver_updated, N' of ', @weaver_live_before, N' live rows (', CAST(ROUND(100.0 * @weaver_updated / @weaver_live_before, 1) AS decimal(5, 1)), N'%) would be updated; Update percentage threshold is 20');
    END;
    IF @weaver_refusal IS NOT NULL AND @waive_gates = 0
    BEGIN
        SET @weaver_refusal = CONCAT(N'Sales.Sales.Customer: ', @weaver_refusal, N'. Waive the gates to apply.');
        THROW 50010, @weaver_refusal, 1;
    END;
    -- The writes, in one transaction: changed rows only.
    BEGIN TRANSACTION;
    -- Claim the next load sequence: a load of this Table that committed meanwhile stops this one.
    UPDATE [_].[LoadState] SET [last_load_id] = @load_id, [last_succeeded_at] = @load_timestamp, [load_sequence] = [load_sequence] + 1 WHERE [table_id] = @weaver_table_id AND [load_sequence] = @weaver_sequence;
    IF @@ROWCOUNT = 0
        THROW 50020, N'Sales.Sales.Customer: another load of this Table committed after this one started; nothing of this one was written. Run it again.', 1;
    -- Row history for RESTORE: this load's mark and what undoes its writes.
    INSERT INTO [_].[Undo Sales.Customer] ([load_sequence], [load_id], [undo_kind]) VALUES (@weaver_sequence + 1, @load_id, N'L');
    INSERT INTO [_].[Undo Sales.Customer] ([load_sequence], [load_id], [undo_kind], [customer_id], [email], [name], [segment], [Row insert datetime], [Row update datetime], [Row delete datetime], [Row signature])
    SELECT @weaver_sequence + 1, @load_id, N'U', t.[customer_id], t.[email], t.[name], t.[segment], t.[Row insert datetime], t.[Row update datetime], t.[Row delete datetime], t.[Row signature]
    FROM [Sales].[Customer] AS t INNER JOIN #weaver_change AS c ON c.[customer_id] = t.[customer_id]
    WHERE c.[__weaver_op] IN ('U', 'R', 'D') AND c.[__weaver_reject] IS NULL;
    INSERT INTO [_].[Undo Sales.Customer] ([load_sequence], [load_id], [undo_kind], [customer_id])
    SELECT @weaver_sequence + 1, @load_id, N'I', c.[customer_id]
    FROM #weaver_change AS c WHERE c.[__weaver_op] = 'I' AND c.[__weaver_reject] IS NULL;
    -- Updates and revivals: staging values, update time now, live again; insert time kept.
    UPDATE t SET
        [email] = s.[email],
        [name] = s.[name],
        [segment] = s.[segment],
        [Row update datetime] = @load_timestamp,
        [Row delete datetime] = @weaver_live,
        [Row signature] = s.[__weaver_signature]
    FROM [Sales].[Customer] AS t
    INNER JOIN #weaver_change AS c ON c.[customer_id] = t.[customer_id]
    INNER JOIN #weaver_staging AS s ON s.[customer_id] = c.[customer_id]
    WHERE c.[__weaver_op] IN ('U', 'R') AND c.[__weaver_reject] IS NULL;
    -- Soft deletes: the delete time is the load timestamp; data, insert and update times stay.
    UPDATE t SET [Row delete datetime] = @load_timestamp
    FROM [Sales].[Customer] AS t INNER JOIN #weaver_change AS c ON c.[customer_id] = t.[customer_id]
    WHERE c.[__weaver_op] = 'D';
    -- Inserts: insert and update time now, live; the identity column is generated.
    INSERT INTO [Sales].[Customer] ([customer_id], [email], [name], [segment], [Row insert datetime], [Row update datetime], [Row delete datetime], [Row signature])
    SELECT s.[customer_id], s.[email], s.[name], s.[segment], @load_timestamp, @load_timestamp, @weaver_live, s.[__weaver_signature]
    FROM #weaver_staging AS s INNER JOIN #weaver_change AS c ON c.[customer_id] = s.[customer_id]
    WHERE c.[__weaver_op] = 'I' AND c.[__weaver_reject] IS NULL;
    -- The history table (History: true): each changed key's new version, then its previous one closed at the load's time.
    INSERT INTO [Sales].[Customer__History] ([customer_key], [customer_id], [email], [name], [segment], [valid_from], [valid_to], [is_current], [is_deleted], [load_id])
    SELECT t.[customer_key], t.[customer_id], t.[email], t.[name], t.[segment], @load_timestamp, @weaver_live, 1, CASE WHEN t.[Row delete datetime] = @weaver_live THEN 0 ELSE 1 END, @load_id
    FROM [Sales].[Customer] AS t INNER JOIN #weaver_change AS c ON c.[customer_id] = t.[customer_id]
    WHERE c.[__weaver_op] IN ('I', 'U', 'R', 'D') AND c.[__weaver_reject] IS NULL;
    UPDATE v SET [valid_to] = @load_timestamp, [is_current] = 0
    FROM [Sales].[Customer__History] AS v INNER JOIN #weaver_change AS c ON c.[customer_id] = v.[customer_id]
    WHERE v.[is_current] = 1 AND v.[valid_from] < @load_timestamp AND c.[__weaver_op] IN ('I', 'U', 'R', 'D') AND c.[__weaver_reject] IS NULL;
    -- Rejected rows, with their key and row as JSON; what this load id recorded before is replaced.
    DELETE FROM [_].[LoadRejection] WHERE [load_id] = @load_id AND [table_id] = @weaver_table_id;
    INSERT INTO [_].[LoadRejection] ([load_id], [table_id], [reason], [key_json], [row_json])
    SELECT @load_id, @weaver_table_id, c.[__weaver_reject],
        (SELECT s.[customer_id] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES),
        (SELECT s.[customer_id], s.[email], s.[name], s.[segment] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)
    FROM #weaver_change AS c INNER JOIN #weaver_staging AS s ON s.[customer_id] = c.[customer_id]
    WHERE c.[__weaver_reject] IS NOT NULL;
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
