CREATE OR ALTER PROCEDURE [_].[Load Sales.Product]
    @load_id varchar(64),
    @load_timestamp datetime2(6),
    @waive_gates bit = 0
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    DECLARE @weaver_table_id varchar(300) = N'Sales.Product';
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
        THROW 50001, N'Sales.Sales.Product has no row in [_].[LoadState]; run build first', 1;
    -- Staging: the body's setup, then its result queries into session temp tables.
    CREATE TABLE #weaver_staging ([product_id] bigint NULL, [name] varchar(200) NULL, [price] decimal(10, 2) NULL, [weight_kg] float NULL, [launched] date NULL, [changed_at] datetime2(6) NULL, [active] bit NULL, [thumbnail] varbinary(max) NULL, [__weaver_signature] varbinary(32) NULL, [__weaver_expect_1] bit NULL, [__weaver_expect_2] bit NULL, [__weaver_expect_3] bit NULL, [__weaver_expect_4] bit NULL);
    WITH [__weaver_result] AS (
    select product_id, name, price, weight_kg, launched, changed_at, active, thumbnail
    from master.product
    )
    INSERT INTO #weaver_staging ([product_id], [name], [price], [weight_kg], [launched], [changed_at], [active], [thumbnail])
    SELECT [product_id], [name], [price], [weight_kg], [launched], [changed_at], [active], [thumbnail] FROM [__weaver_result];
    -- Validation: nothing is written when a check fails.
    IF EXISTS (SELECT 1 FROM #weaver_staging WHERE [product_id] IS NULL)
    BEGIN
        SET @weaver_message = CONCAT(N'Sales.Sales.Product: staging rows rejected, nothing written: column product_id: ', (SELECT COUNT_BIG(*) FROM #weaver_staging WHERE [product_id] IS NULL), N' null(s) in primary-key column', N'. Fix the body''s result and load again.');
        THROW 50001, @weaver_message, 1;
    END;
    IF EXISTS (SELECT 1 FROM #weaver_staging WHERE [name] IS NULL)
    BEGIN
        SET @weaver_message = CONCAT(N'Sales.Sales.Product: staging rows rejected, nothing written: column name: ', (SELECT COUNT_BIG(*) FROM #weaver_staging WHERE [name] IS NULL), N' null(s) in Not null column', N'; sample keys ', (SELECT STRING_AGG([k], N', ') FROM (SELECT TOP 5 CONVERT(varchar(400), x.[product_id]) AS [k] FROM #weaver_staging AS x WHERE x.[name] IS NULL ORDER BY [k]) AS [sample]), N'. Fix the body''s result and load again.');
        THROW 50001, @weaver_message, 1;
    END;
    IF EXISTS (SELECT 1 FROM #weaver_staging GROUP BY [product_id] HAVING COUNT_BIG(*) > 1)
    BEGIN
        SET @weaver_message = CONCAT(N'Sales.Sales.Product: staging rows rejected, nothing written: primary key product_id: duplicate row(s); sample keys ', (SELECT STRING_AGG([k], N', ') FROM (SELECT TOP 5 CONVERT(varchar(400), x.[product_id]) AS [k] FROM #weaver_staging AS x GROUP BY x.[product_id] HAVING COUNT_BIG(*) > 1 ORDER BY [k]) AS [sample]), N'. Fix the body''s result and load again.');
        THROW 50001, @weaver_message, 1;
    END;
    -- Row signatures of the staged rows (the same bytes as a Lakehouse row_signature), and each row's expectation flags (1: the rule is false or null).
    UPDATE s SET
        s.[__weaver_signature] = HASHBYTES('SHA2_256', ((((((CASE WHEN [s].[name] IS NULL THEN 0x00 ELSE ((0x01 + CAST(CAST(DATALENGTH(CAST(CAST(CAST([s].[name] AS nvarchar(max)) COLLATE Latin1_General_100_BIN2_UTF8 AS varchar(max)) AS varbinary(max))) AS int) AS binary(4))) + CAST(CAST(CAST([s].[name] AS nvarchar(max)) COLLATE Latin1_General_100_BIN2_UTF8 AS varchar(max)) AS varbinary(max))) END + CASE WHEN [s].[price] IS NULL THEN 0x00 ELSE ((0x01 + CAST(CAST(DATALENGTH(CAST(CONVERT(varchar(50), [s].[price]) AS varbinary(max))) AS int) AS binary(4))) + CAST(CONVERT(varchar(50), [s].[price]) AS varbinary(max))) END) + CASE WHEN [s].[weight_kg] IS NULL THEN 0x00 ELSE (SELECT TOP (1) ((0x01 + CAST(CAST(DATALENGTH([_w].[txt]) AS int) AS binary(4))) + [_w].[txt]) FROM (SELECT CONVERT(varchar(30), [s].[weight_kg], 3) AS [s]) AS [_f] CROSS APPLY (SELECT PATINDEX('%[Ee]%', [_f].[s]) AS [e]) AS [_g] CROSS APPLY (SELECT REPLACE(REPLACE(LEFT([_f].[s], ([_g].[e] - 1)), '-', ''), '.', '') AS [d]) AS [_m] CROSS APPLY (SELECT CAST(SUBSTRING([_f].[s], ([_g].[e] + 1), 30) AS int) AS [x]) AS [_x] CROSS APPLY (SELECT CONVERT(varchar(30), [s].[weight_kg], 2) AS [s]) AS [_f16] CROSS APPLY (SELECT PATINDEX('%[Ee]%', [_f16].[s]) AS [e]) AS [_g16] CROSS APPLY (SELECT REPLACE(REPLACE(LEFT([_f16].[s], ([_g16].[e] - 1)), '-', ''), '.', '') AS [d]) AS [_m16] CROSS APPLY (SELECT CAST(SUBSTRING([_f16].[s], ([_g16].[e] + 1), 30) AS int) AS [x]) AS [_x16] CROSS APPLY (VALUES (1), (2), (3), (4), (5), (6), (7), (8), (9), (10), (11), (12), (13), (14), (15), (16), (17)) AS [_p]([n]) CROSS APPLY (SELECT CAST(LEFT([_m].[d], [_p].[n]) AS bigint) AS [lo]) AS [_l] CROSS APPLY (SELECT SUBSTRING([_m].[d], ([_p].[n] + 1), 30) AS [rest]) AS [_r] CROSS APPLY (SELECT CASE WHEN (PATINDEX('%[1-9]%', [_r].[rest]) > 0) THEN ([_l].[lo] + 1) ELSE [_l].[lo] END AS [hi]) AS [_h] CROSS APPLY (SELECT (([_x].[x] + 1) - [_p].[n]) AS [q]) AS [_q] CROSS APPLY (SELECT CASE WHEN (TRY_CAST(((CONVERT(varchar(20), [_l].[lo]) + 'E') + CONVERT(varchar(12), [_q].[q])) AS float) = ABS([s].[weight_kg])) THEN 1 ELSE 0 END AS [lok]) AS [_a] CROSS APPLY (SELECT CASE WHEN (([_h].[hi] <> [_l].[lo]) AND (TRY_CAST(((CONVERT(varchar(20), [_h].[hi]) + 'E') + CONVERT(varchar(12), [_q].[q])) AS float) = ABS([s].[weight_kg]))) THEN 1 ELSE 0 END AS [hok]) AS [_b] CROSS APPLY (SELECT CASE WHEN (([_a].[lok] = 1) AND ([_b].[hok] = 1)) THEN CASE WHEN ([_r].[rest] > LEFT('50000000000000000', LEN([_r].[rest]))) THEN [_h].[hi] WHEN ([_r].[rest] < LEFT('50000000000000000', LEN([_r].[rest]))) THEN [_l].[lo] WHEN ([_p].[n] = 16) THEN CASE WHEN ((LEFT([_m16].[d], 16) = LEFT([_m].[d], 16)) AND ([_x16].[x] = [_x].[x])) THEN [_l].[lo] ELSE [_h].[hi] END WHEN (([_l].[lo] % 2) = 0) THEN [_l].[lo] ELSE [_h].[hi] END WHEN ([_a].[lok] = 1) THEN [_l].[lo] ELSE [_h].[hi] END AS [best]) AS [_c] CROSS APPLY (SELECT CONVERT(varchar(20), [_c].[best]) AS [bd]) AS [_t] CROSS APPLY (SELECT (PATINDEX('%[1-9]%', REVERSE([_t].[bd])) - 1) AS [tz]) AS [_z] CROSS APPLY (SELECT LEFT([_t].[bd], (LEN([_t].[bd]) - [_z].[tz])) AS [sig]) AS [_y] CROSS APPLY (SELECT ([_q].[q] + [_z].[tz]) AS [ex]) AS [_k] CROSS APPLY (SELECT (LEN([_y].[sig]) + [_k].[ex]) AS [pt]) AS [_o] CROSS APPLY (SELECT CAST(CASE WHEN ([s].[weight_kg] = 0) THEN '0.0' ELSE (CASE WHEN ([s].[weight_kg] < 0) THEN '-' ELSE '' END + CASE WHEN ([_k].[ex] >= 0) THEN (([_y].[sig] + REPLICATE('0', [_k].[ex])) + '.0') WHEN ([_o].[pt] > 0) THEN ((LEFT([_y].[sig], [_o].[pt]) + '.') + SUBSTRING([_y].[sig], ([_o].[pt] + 1), 20)) ELSE (('0.' + REPLICATE('0', (0 - [_o].[pt]))) + [_y].[sig]) END) END AS varbinary(max)) AS [txt]) AS [_w] WHERE (([_a].[lok] = 1) OR ([_b].[hok] = 1)) ORDER BY [_p].[n]) END) + CASE WHEN [s].[launched] IS NULL THEN 0x00 ELSE ((0x01 + CAST(CAST(DATALENGTH(CAST(CONVERT(char(10), [s].[launched], 23) AS varbinary(max))) AS int) AS binary(4))) + CAST(CONVERT(char(10), [s].[launched], 23) AS varbinary(max))) END) + CASE WHEN [s].[changed_at] IS NULL THEN 0x00 ELSE ((0x01 + CAST(CAST(DATALENGTH(CAST((((CONVERT(char(19), CAST([s].[changed_at] AS datetime2(7)), 126) + '.') + RIGHT(('000000' + CONVERT(varchar(7), DATEPART(microsecond, CAST([s].[changed_at] AS datetime2(7))))), 6)) + 'Z') AS varbinary(max))) AS int) AS binary(4))) + CAST((((CONVERT(char(19), CAST([s].[changed_at] AS datetime2(7)), 126) + '.') + RIGHT(('000000' + CONVERT(varchar(7), DATEPART(microsecond, CAST([s].[changed_at] AS datetime2(7))))), 6)) + 'Z') AS varbinary(max))) END) + CASE WHEN [s].[active] IS NULL THEN 0x00 ELSE ((0x01 + CAST(CAST(DATALENGTH(CAST(CASE WHEN ([s].[active] = 1) THEN 'true' ELSE 'false' END AS varbinary(max))) AS int) AS binary(4))) + CAST(CASE WHEN ([s].[active] = 1) THEN 'true' ELSE 'false' END AS varbinary(max))) END) + CASE WHEN [s].[thumbnail] IS NULL THEN 0x00 ELSE ((0x01 + CAST(CAST(DATALENGTH(CAST([s].[thumbnail] AS varbinary(max))) AS int) AS binary(4))) + CAST([s].[thumbnail] AS varbinary(max))) END)),
        s.[__weaver_expect_1] = CASE WHEN (price > 0) THEN 0 ELSE 1 END,
        s.[__weaver_expect_2] = CASE WHEN (active = 0 or thumbnail is not null) THEN 0 ELSE 1 END,
        s.[__weaver_expect_3] = CASE WHEN ([launched] <= CAST([changed_at] AS date)) THEN 0 ELSE 1 END,
        s.[__weaver_expect_4] = CASE WHEN (weight_kg is null or weight_kg between 0 and 1000) THEN 0 ELSE 1 END
    FROM #weaver_staging AS s;
    -- Expectations: a row violates a rule that is false or null. Counted over staging, decided before anything is written.
    DECLARE @weaver_staged bigint, @weaver_expect_1 bigint, @weaver_expect_2 bigint, @weaver_expect_3 bigint, @weaver_expect_4 bigint, @weaver_quarantined bigint;
    SELECT
        @weaver_staged = COUNT_BIG(*),
        @weaver_expect_1 = COUNT_BIG(CASE WHEN s.[__weaver_expect_1] = 1 THEN 1 END),
        @weaver_expect_2 = COUNT_BIG(CASE WHEN s.[__weaver_expect_2] = 1 THEN 1 END),
        @weaver_expect_3 = COUNT_BIG(CASE WHEN s.[__weaver_expect_3] = 1 THEN 1 END),
        @weaver_expect_4 = COUNT_BIG(CASE WHEN s.[__weaver_expect_4] = 1 THEN 1 END),
        @weaver_quarantined = COUNT_BIG(CASE WHEN (s.[__weaver_expect_1] = 1 OR s.[__weaver_expect_2] = 1) THEN 1 END)
    FROM #weaver_staging AS s;
    DECLARE @weaver_expectation_failure varchar(4000);
    IF @weaver_expect_1 > 0 AND 100 * @weaver_expect_1 > 2.5 * @weaver_staged
        SET @weaver_expectation_failure = CONCAT(@weaver_expectation_failure + N'; ', N'expectation ''price isn''t zero'' (price > 0) would quarantine ', @weaver_expect_1, N' of ', @weaver_staged, N' staging rows (', CAST(ROUND(100.0 * @weaver_expect_1 / @weaver_staged, 2) AS decimal(5, 2)), N'%), above its max percentage 2.5', N'; sample keys ', (SELECT STRING_AGG([k], N', ') FROM (SELECT TOP 5 (SELECT x.[product_id] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [k] FROM #weaver_staging AS x WHERE x.[__weaver_expect_1] = 1 ORDER BY [k]) AS [sample]));
    IF @weaver_expect_3 > 0
        SET @weaver_expectation_failure = CONCAT(@weaver_expectation_failure + N'; ', N'expectation ''launched before changed'' ([launched] <= CAST([changed_at] AS date)) fails: ', @weaver_expect_3, N' of ', @weaver_staged, N' staging rows violate it', N'; sample keys ', (SELECT STRING_AGG([k], N', ') FROM (SELECT TOP 5 (SELECT x.[product_id] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [k] FROM #weaver_staging AS x WHERE x.[__weaver_expect_3] = 1 ORDER BY [k]) AS [sample]));
    IF @weaver_expectation_failure IS NOT NULL
    BEGIN
        SET @weaver_message = CONCAT(N'Sales.Sales.Product: staging rows rejected by expectations, nothing written: ', @weaver_expectation_failure, N'. Fix the delivery, or change the expectation''s ''on violation''.');
        THROW 50001, @weaver_message, 1;
    END;
    DECLARE @weaver_sample_4 nvarchar(max);
    IF @weaver_expect_4 > 0
        SET @weaver_sample_4 = (SELECT CONCAT(N'[', STRING_AGG(CONCAT(N'"', STRING_ESCAPE([k], 'json'), N'"'), N','), N']') FROM (SELECT TOP 20 (SELECT x.[product_id] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [k] FROM #weaver_staging AS x WHERE x.[__weaver_expect_4] = 1 ORDER BY [k]) AS [sample]);
    -- Change detection: I insert, U update (signature differs), R revive, N unchanged, D delete, Q quarantined (its target row stays as it is).
    CREATE TABLE #weaver_change ([product_id] bigint NOT NULL, [__weaver_op] char(1) NOT NULL, [__weaver_reject] varchar(40) NULL);
    INSERT INTO #weaver_change ([product_id], [__weaver_op])
    SELECT s.[product_id],
        CASE WHEN (s.[__weaver_expect_1] = 1 OR s.[__weaver_expect_2] = 1) THEN 'Q' WHEN t.[product_id] IS NULL THEN 'I' WHEN t.[Row delete datetime] <> @weaver_live THEN 'R' WHEN t.[Row signature] <> s.[__weaver_signature] THEN 'U' ELSE 'N' END
    FROM #weaver_staging AS s LEFT JOIN [Sales].[Product] AS t ON t.[product_id] = s.[product_id];
    -- Deletes: keep. Absent keys stay live as they are: no D, not counted, not gated.
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
    SELECT @weaver_live_before = COUNT_BIG(*) FROM [Sales].[Product] WHERE [Row delete datetime] = @weaver_live;
    DECLARE @weaver_refusal varchar(4000);
    -- Stability gates: both thresholds are 100, so no gate applies.
    -- The writes, in one transaction: changed rows only.
    BEGIN TRANSACTION;
    -- Claim the next load sequence: a load of this Table that committed meanwhile stops this one.
    UPDATE [_].[LoadState] SET [last_load_id] = @load_id, [last_succeeded_at] = @load_timestamp, [load_sequence] = [load_sequence] + 1 WHERE [table_id] = @weaver_table_id AND [load_sequence] = @weaver_sequence;
    IF @@ROWCOUNT = 0
        THROW 50020, N'Sales.Sales.Product: another load of this Table committed after this one started; nothing of this one was written. Run it again.', 1;
    -- Row history for RESTORE: this load's mark and what undoes its writes.
    INSERT INTO [_].[Undo Sales.Product] ([load_sequence], [load_id], [undo_kind]) VALUES (@weaver_sequence + 1, @load_id, N'L');
    INSERT INTO [_].[Undo Sales.Product] ([load_sequence], [load_id], [undo_kind], [product_id], [name], [price], [weight_kg], [launched], [changed_at], [active], [thumbnail], [Row insert datetime], [Row update datetime], [Row delete datetime], [Row signature])
    SELECT @weaver_sequence + 1, @load_id, N'U', t.[product_id], t.[name], t.[price], t.[weight_kg], t.[launched], t.[changed_at], t.[active], t.[thumbnail], t.[Row insert datetime], t.[Row update datetime], t.[Row delete datetime], t.[Row signature]
    FROM [Sales].[Product] AS t INNER JOIN #weaver_change AS c ON c.[product_id] = t.[product_id]
    WHERE c.[__weaver_op] IN ('U', 'R', 'D') AND c.[__weaver_reject] IS NULL;
    INSERT INTO [_].[Undo Sales.Product] ([load_sequence], [load_id], [undo_kind], [product_id])
    SELECT @weaver_sequence + 1, @load_id, N'I', c.[product_id]
    FROM #weaver_change AS c WHERE c.[__weaver_op] = 'I' AND c.[__weaver_reject] IS NULL;
    -- Updates and revivals: staging values, update time now, live again; insert time kept.
    UPDATE t SET
        [name] = s.[name],
        [price] = s.[price],
        [weight_kg] = s.[weight_kg],
        [launched] = s.[launched],
        [changed_at] = s.[changed_at],
        [active] = s.[active],
        [thumbnail] = s.[thumbnail],
        [Row update datetime] = @load_timestamp,
        [Row delete datetime] = @weaver_live,
        [Row signature] = s.[__weaver_signature]
    FROM [Sales].[Product] AS t
    INNER JOIN #weaver_change AS c ON c.[product_id] = t.[product_id]
    INNER JOIN #weaver_staging AS s ON s.[product_id] = c.[product_id]
    WHERE c.[__weaver_op] IN ('U', 'R') AND c.[__weaver_reject] IS NULL;
    -- Deletes: this load deletes no key (Deletes: keep leaves absent keys live).
    -- Inserts: insert and update time now, live; the identity column is generated.
    INSERT INTO [Sales].[Product] ([product_id], [name], [price], [weight_kg], [launched], [changed_at], [active], [thumbnail], [Row insert datetime], [Row update datetime], [Row delete datetime], [Row signature])
    SELECT s.[product_id], s.[name], s.[price], s.[weight_kg], s.[launched], s.[changed_at], s.[active], s.[thumbnail], @load_timestamp, @load_timestamp, @weaver_live, s.[__weaver_signature]
    FROM #weaver_staging AS s INNER JOIN #weaver_change AS c ON c.[product_id] = s.[product_id]
    WHERE c.[__weaver_op] = 'I' AND c.[__weaver_reject] IS NULL;
    -- What this load id recorded before (applied again after a restore) is replaced.
    DELETE FROM [_].[LoadQuarantine] WHERE [load_id] = @load_id AND [table_id] = @weaver_table_id;
    DELETE FROM [_].[LoadExpectation] WHERE [load_id] = @load_id AND [table_id] = @weaver_table_id;
    -- Quarantined rows, with the expectations they violate, their key and row as JSON.
    INSERT INTO [_].[LoadQuarantine] ([load_id], [table_id], [expectations], [key_json], [row_json])
    SELECT @load_id, @weaver_table_id, CONCAT(N'[', CONCAT_WS(N',', CASE WHEN s.[__weaver_expect_1] = 1 THEN N'"price isn''t zero"' END, CASE WHEN s.[__weaver_expect_2] = 1 THEN N'"has a thumbnail"' END), N']'),
        (SELECT s.[product_id] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES),
        (SELECT s.[product_id], s.[name], s.[price], s.[weight_kg], s.[launched], s.[changed_at], s.[active], s.[thumbnail] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)
    FROM #weaver_staging AS s
    WHERE (s.[__weaver_expect_1] = 1 OR s.[__weaver_expect_2] = 1);
    -- Counts per expectation, zeros included.
    INSERT INTO [_].[LoadExpectation] ([load_id], [table_id], [expectation], [action], [rows_violating], [sample_keys])
    VALUES (@load_id, @weaver_table_id, N'price isn''t zero', N'quarantine', @weaver_expect_1, N'[]'),
        (@load_id, @weaver_table_id, N'has a thumbnail', N'quarantine', @weaver_expect_2, N'[]'),
        (@load_id, @weaver_table_id, N'launched before changed', N'fail', @weaver_expect_3, N'[]'),
        (@load_id, @weaver_table_id, N'plausible weight', N'warn', @weaver_expect_4, COALESCE(@weaver_sample_4, N'[]'));
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
