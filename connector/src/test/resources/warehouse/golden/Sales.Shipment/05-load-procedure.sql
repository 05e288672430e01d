CREATE OR ALTER PROCEDURE [_].[Load Sales.Shipment]
    @load_id varchar(64),
    @load_timestamp datetime2(6),
    @waive_gates bit = 0
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    DECLARE @weaver_table_id varchar(300) = N'Sales.Shipment';
    DECLARE @weaver_started_at datetime2(6) = SYSUTCDATETIME();
    DECLARE @weaver_live datetime2(6) = CAST('9999-12-31T00:00:00' AS datetime2(6));
    DECLARE @weaver_message varchar(4000);
    -- Exactly once: a load id already applied answers with its history row, changes nothing.
    IF EXISTS (SELECT 1 FROM [_].[LoadHistory] WHERE [load_id] = @load_id AND [table_id] = @weaver_table_id AND [status] IN (N'succeeded', N'no_work'))
    BEGIN
        SELECT [load_id], [status], [rows_inserted], [rows_updated], [rows_deleted], [rows_revived], [rows_unchanged], [rows_rejected], [target_live_rows_before], [target_live_rows_after], [gates_waived], [rows_stale], CAST(1 AS bit) AS [already_applied]
        FROM [_].[LoadHistory] WHERE [load_id] = @load_id AND [table_id] = @weaver_table_id;
        RETURN;
    END;
    DECLARE @last_load_timestamp datetime2(6) = COALESCE((SELECT [last_succeeded_at] FROM [_].[LoadState] WHERE [table_id] = @weaver_table_id), CAST('1900-01-01T00:00:00' AS datetime2(6)));
    -- The load sequence this load follows; Build creates the state row at 0.
    DECLARE @weaver_sequence bigint = (SELECT [load_sequence] FROM [_].[LoadState] WHERE [table_id] = @weaver_table_id);
    IF @weaver_sequence IS NULL
        THROW 50001, N'Sales.Sales.Shipment has no row in [_].[LoadState]; run build first', 1;
    -- Staging: the body's setup, then its result queries into session temp tables.
    CREATE TABLE #weaver_staging ([shipment_id] varchar(20) NULL, [status] varchar(20) NULL, [status_at] datetime2(6) NULL, [carrier] varchar(100) NULL, [__weaver_signature] varbinary(32) NULL, [__weaver_expect_1] bit NULL, [__weaver_rank] bigint NULL);
    WITH [__weaver_result] AS (
    select shipment_id, status, status_at, carrier
    from carrier.shipment_status
    )
    INSERT INTO #weaver_staging ([shipment_id], [status], [status_at], [carrier])
    SELECT [shipment_id], [status], [status_at], [carrier] FROM [__weaver_result];
    -- Validation: nothing is written when a check fails.
    IF EXISTS (SELECT 1 FROM #weaver_staging WHERE [shipment_id] IS NULL)
    BEGIN
        SET @weaver_message = CONCAT(N'Sales.Sales.Shipment: staging rows rejected, nothing written: column shipment_id: ', (SELECT COUNT_BIG(*) FROM #weaver_staging WHERE [shipment_id] IS NULL), N' null(s) in primary-key column', N'. Fix the body''s result and load again.');
        THROW 50001, @weaver_message, 1;
    END;
    IF EXISTS (SELECT 1 FROM #weaver_staging WHERE [status_at] IS NULL)
    BEGIN
        SET @weaver_message = CONCAT(N'Sales.Sales.Shipment: staging rows rejected, nothing written: column status_at: ', (SELECT COUNT_BIG(*) FROM #weaver_staging WHERE [status_at] IS NULL), N' null(s) in sequence column', N'; sample keys ', (SELECT STRING_AGG([k], N', ') FROM (SELECT TOP 5 CONVERT(varchar(400), x.[shipment_id]) AS [k] FROM #weaver_staging AS x WHERE x.[status_at] IS NULL ORDER BY [k]) AS [sample]), N'. Fix the body''s result and load again.');
        THROW 50001, @weaver_message, 1;
    END;
    -- Sequence column status_at: each staging row's rank among its key's rows, newest first (1: the key's highest value).
    UPDATE s SET s.[__weaver_rank] = r.[__weaver_rank]
    FROM #weaver_staging AS s INNER JOIN (
        SELECT x.[shipment_id], x.[status_at], RANK() OVER (PARTITION BY x.[shipment_id] ORDER BY x.[status_at] DESC) AS [__weaver_rank]
        FROM #weaver_staging AS x GROUP BY x.[shipment_id], x.[status_at]
    ) AS r ON r.[shipment_id] = s.[shipment_id] AND r.[status_at] = s.[status_at];
    IF EXISTS (SELECT 1 FROM #weaver_staging WHERE [__weaver_rank] = 1 GROUP BY [shipment_id] HAVING COUNT_BIG(*) > 1)
    BEGIN
        SET @weaver_message = CONCAT(N'Sales.Sales.Shipment: staging rows rejected, nothing written: primary key shipment_id: row(s) repeat their key''s highest status_at, so which one is newest is unknown; sample keys ', (SELECT STRING_AGG([k], N', ') FROM (SELECT TOP 5 CONVERT(varchar(400), x.[shipment_id]) AS [k] FROM #weaver_staging AS x WHERE x.[__weaver_rank] = 1 GROUP BY x.[shipment_id] HAVING COUNT_BIG(*) > 1 ORDER BY [k]) AS [sample]), N'. Fix the body''s result and load again.');
        THROW 50001, @weaver_message, 1;
    END;
    -- Row signatures of the staged rows (the same bytes as a Lakehouse row_signature), and each row's expectation flags (1: the rule is false or null).
    UPDATE s SET
        s.[__weaver_signature] = HASHBYTES('SHA2_256', ((CASE WHEN [s].[status] IS NULL THEN 0x00 ELSE ((0x01 + CAST(CAST(DATALENGTH(CAST(CAST(CAST([s].[status] AS nvarchar(max)) COLLATE Latin1_General_100_BIN2_UTF8 AS varchar(max)) AS varbinary(max))) AS int) AS binary(4))) + CAST(CAST(CAST([s].[status] AS nvarchar(max)) COLLATE Latin1_General_100_BIN2_UTF8 AS varchar(max)) AS varbinary(max))) END + CASE WHEN [s].[status_at] IS NULL THEN 0x00 ELSE ((0x01 + CAST(CAST(DATALENGTH(CAST((((CONVERT(char(19), CAST([s].[status_at] AS datetime2(7)), 126) + '.') + RIGHT(('000000' + CONVERT(varchar(7), DATEPART(microsecond, CAST([s].[status_at] AS datetime2(7))))), 6)) + 'Z') AS varbinary(max))) AS int) AS binary(4))) + CAST((((CONVERT(char(19), CAST([s].[status_at] AS datetime2(7)), 126) + '.') + RIGHT(('000000' + CONVERT(varchar(7), DATEPART(microsecond, CAST([s].[status_at] AS datetime2(7))))), 6)) + 'Z') AS varbinary(max))) END) + CASE WHEN [s].[carrier] IS NULL THEN 0x00 ELSE ((0x01 + CAST(CAST(DATALENGTH(CAST(CAST(CAST([s].[carrier] AS nvarchar(max)) COLLATE Latin1_General_100_BIN2_UTF8 AS varchar(max)) AS varbinary(max))) AS int) AS binary(4))) + CAST(CAST(CAST([s].[carrier] AS nvarchar(max)) COLLATE Latin1_General_100_BIN2_UTF8 AS varchar(max)) AS varbinary(max))) END)),
        s.[__weaver_expect_1] = CASE WHEN (status in ('booked', 'shipped', 'delivered', 'returned')) THEN 0 ELSE 1 END
    FROM #weaver_staging AS s;
    -- Expectations: a row violates a rule that is false or null. Counted over staging, decided before anything is written.
    DECLARE @weaver_staged bigint, @weaver_expect_1 bigint, @weaver_quarantined bigint;
    SELECT
        @weaver_staged = COUNT_BIG(*),
        @weaver_expect_1 = COUNT_BIG(CASE WHEN s.[__weaver_expect_1] = 1 THEN 1 END),
        @weaver_quarantined = COUNT_BIG(CASE WHEN s.[__weaver_expect_1] = 1 THEN 1 END)
    FROM #weaver_staging AS s;
    -- Stale rows superseded by a newer row of their key in this delivery: counted, never applied.
    DECLARE @weaver_superseded bigint = (SELECT COUNT_BIG(*) FROM #weaver_staging WHERE [__weaver_rank] > 1);
    DELETE FROM #weaver_staging WHERE [__weaver_rank] > 1;
    -- Change detection: I insert, U update (signature differs), R revive, N unchanged, D delete, Q quarantined (its target row stays as it is), S stale (status_at below the target row's: nothing changes).
    CREATE TABLE #weaver_change ([shipment_id] varchar(20) NOT NULL, [__weaver_op] char(1) NOT NULL, [__weaver_reject] varchar(40) NULL);
    INSERT INTO #weaver_change ([shipment_id], [__weaver_op])
    SELECT s.[shipment_id],
        CASE WHEN s.[__weaver_expect_1] = 1 THEN 'Q' WHEN t.[shipment_id] IS NULL THEN 'I' WHEN t.[Row delete datetime] = @weaver_live AND t.[Row signature] = s.[__weaver_signature] THEN 'N' WHEN s.[status_at] < t.[status_at] THEN 'S' WHEN t.[Row delete datetime] <> @weaver_live THEN 'R' ELSE 'U' END
    FROM #weaver_staging AS s LEFT JOIN [Sales].[Shipment] AS t ON t.[shipment_id] = s.[shipment_id];
    INSERT INTO #weaver_change ([shipment_id], [__weaver_op])
    SELECT t.[shipment_id], 'D' FROM [Sales].[Shipment] AS t
    WHERE t.[Row delete datetime] = @weaver_live AND NOT EXISTS (SELECT 1 FROM #weaver_staging AS s WHERE s.[shipment_id] = t.[shipment_id]);
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
    SELECT @weaver_live_before = COUNT_BIG(*) FROM [Sales].[Shipment] WHERE [Row delete datetime] = @weaver_live;
    DECLARE @weaver_stale bigint = @weaver_superseded + (SELECT COUNT_BIG(*) FROM #weaver_change WHERE [__weaver_op] = 'S');
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
        SET @weaver_refusal = CONCAT(N'Sales.Sales.Shipment: ', @weaver_refusal, N'. Waive the gates to apply.');
        THROW 50010, @weaver_refusal, 1;
    END;
    -- The writes, in one transaction: changed rows only.
    BEGIN TRANSACTION;
    -- Claim the next load sequence: a load of this Table that committed meanwhile stops this one.
    UPDATE [_].[LoadState] SET [last_load_id] = @load_id, [last_succeeded_at] = @load_timestamp, [load_sequence] = [load_sequence] + 1 WHERE [table_id] = @weaver_table_id AND [load_sequence] = @weaver_sequence;
    IF @@ROWCOUNT = 0
        THROW 50020, N'Sales.Sales.Shipment: another load of this Table committed after this one started; nothing of this one was written. Run it again.', 1;
    -- Row history for RESTORE: this load's mark and what undoes its writes.
    INSERT INTO [_].[Undo Sales.Shipment] ([load_sequence], [load_id], [undo_kind]) VALUES (@weaver_sequence + 1, @load_id, N'L');
    INSERT INTO [_].[Undo Sales.Shipment] ([load_sequence], [load_id], [undo_kind], [shipment_id], [status], [status_at], [carrier], [Row insert datetime], [Row update datetime], [Row delete datetime], [Row signature])
    SELECT @weaver_sequence + 1, @load_id, N'U', t.[shipment_id], t.[status], t.[status_at], t.[carrier], t.[Row insert datetime], t.[Row update datetime], t.[Row delete datetime], t.[Row signature]
    FROM [Sales].[Shipment] AS t INNER JOIN #weaver_change AS c ON c.[shipment_id] = t.[shipment_id]
    WHERE c.[__weaver_op] IN ('U', 'R', 'D') AND c.[__weaver_reject] IS NULL;
    INSERT INTO [_].[Undo Sales.Shipment] ([load_sequence], [load_id], [undo_kind], [shipment_id])
    SELECT @weaver_sequence + 1, @load_id, N'I', c.[shipment_id]
    FROM #weaver_change AS c WHERE c.[__weaver_op] = 'I' AND c.[__weaver_reject] IS NULL;
    -- Updates and revivals: staging values, update time now, live again; insert time kept.
    UPDATE t SET
        [status] = s.[status],
        [status_at] = s.[status_at],
        [carrier] = s.[carrier],
        [Row update datetime] = @load_timestamp,
        [Row delete datetime] = @weaver_live,
        [Row signature] = s.[__weaver_signature]
    FROM [Sales].[Shipment] AS t
    INNER JOIN #weaver_change AS c ON c.[shipment_id] = t.[shipment_id]
    INNER JOIN #weaver_staging AS s ON s.[shipment_id] = c.[shipment_id]
    WHERE c.[__weaver_op] IN ('U', 'R') AND c.[__weaver_reject] IS NULL;
    -- Soft deletes: the delete time is the load timestamp; data, insert and update times stay.
    UPDATE t SET [Row delete datetime] = @load_timestamp
    FROM [Sales].[Shipment] AS t INNER JOIN #weaver_change AS c ON c.[shipment_id] = t.[shipment_id]
    WHERE c.[__weaver_op] = 'D';
    -- Inserts: insert and update time now, live; the identity column is generated.
    INSERT INTO [Sales].[Shipment] ([shipment_id], [status], [status_at], [carrier], [Row insert datetime], [Row update datetime], [Row delete datetime], [Row signature])
    SELECT s.[shipment_id], s.[status], s.[status_at], s.[carrier], @load_timestamp, @load_timestamp, @weaver_live, s.[__weaver_signature]
    FROM #weaver_staging AS s INNER JOIN #weaver_change AS c ON c.[shipment_id] = s.[shipment_id]
    WHERE c.[__weaver_op] = 'I' AND c.[__weaver_reject] IS NULL;
    -- What this load id recorded before (applied again after a restore) is replaced.
    DELETE FROM [_].[LoadQuarantine] WHERE [load_id] = @load_id AND [table_id] = @weaver_table_id;
    DELETE FROM [_].[LoadExpectation] WHERE [load_id] = @load_id AND [table_id] = @weaver_table_id;
    -- Quarantined rows, with the expectations they violate, their key and row as JSON.
    INSERT INTO [_].[LoadQuarantine] ([load_id], [table_id], [expectations], [key_json], [row_json])
    SELECT @load_id, @weaver_table_id, N'["known status"]',
        (SELECT s.[shipment_id] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES),
        (SELECT s.[shipment_id], s.[status], s.[status_at], s.[carrier] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)
    FROM #weaver_staging AS s
    WHERE s.[__weaver_expect_1] = 1;
    -- Counts per expectation, zeros included.
    INSERT INTO [_].[LoadExpectation] ([load_id], [table_id], [expectation], [action], [rows_violating], [sample_keys])
    VALUES (@load_id, @weaver_table_id, N'known status', N'quarantine', @weaver_expect_1, N'[]');
    -- History, in the same transaction as the rows and the state.
    INSERT INTO [_].[LoadHistory] ([load_id], [table_id], [status], [started_at], [finished_at], [load_timestamp],
        [rows_inserted], [rows_updated], [rows_deleted], [rows_revived], [rows_unchanged], [rows_rejected],
        [target_live_rows_before], [target_live_rows_after], [delta_version], [gates_waived], [message], [rows_stale])
    VALUES (@load_id, @weaver_table_id, N'succeeded', @weaver_started_at, SYSUTCDATETIME(), @load_timestamp,
        @weaver_inserted, @weaver_updated, @weaver_deleted, @weaver_revived, @weaver_unchanged, @weaver_rejected,
        @weaver_live_before, @weaver_live_before + @weaver_inserted + @weaver_revived - @weaver_deleted, NULL, CASE WHEN @weaver_refusal IS NULL THEN 0 ELSE 1 END, @weaver_refusal, @weaver_stale);
    COMMIT TRANSACTION;
    SELECT [load_id], [status], [rows_inserted], [rows_updated], [rows_deleted], [rows_revived], [rows_unchanged], [rows_rejected], [target_live_rows_before], [target_live_rows_after], [gates_waived], [rows_stale], CAST(0 AS bit) AS [already_applied]
    FROM [_].[LoadHistory] WHERE [load_id] = @load_id AND [table_id] = @weaver_table_id;
END;
