CREATE OR ALTER PROCEDURE [_].[Load Sales.ExchangeRate]
    @load_id varchar(64),
    @load_timestamp datetime2(6),
    @waive_gates bit = 0
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    DECLARE @weaver_table_id varchar(300) = N'Sales.ExchangeRate';
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
        THROW 50001, N'Sales.Sales.ExchangeRate has no row in [_].[LoadState]; run build first', 1;
    -- Staging: the body's setup, then its result queries into session temp tables.
    CREATE TABLE #weaver_staging ([currency] char(3) NULL, [rate] decimal(18, 8) NULL, [__weaver_expect_1] bit NULL);
    WITH [__weaver_result] AS (
    select currency, rate from feed.exchange_rate
    )
    INSERT INTO #weaver_staging ([currency], [rate])
    SELECT [currency], [rate] FROM [__weaver_result];
    -- Each row's expectation flags (1: the rule is false or null).
    UPDATE s SET
        s.[__weaver_expect_1] = CASE WHEN (rate > 0) THEN 0 ELSE 1 END
    FROM #weaver_staging AS s;
    -- Expectations: a row violates a rule that is false or null. Counted over staging, decided before anything is written.
    DECLARE @weaver_staged bigint, @weaver_expect_1 bigint, @weaver_quarantined bigint;
    SELECT
        @weaver_staged = COUNT_BIG(*),
        @weaver_expect_1 = COUNT_BIG(CASE WHEN s.[__weaver_expect_1] = 1 THEN 1 END),
        @weaver_quarantined = COUNT_BIG(CASE WHEN s.[__weaver_expect_1] = 1 THEN 1 END)
    FROM #weaver_staging AS s;
    DECLARE @weaver_inserted bigint, @weaver_live_before bigint;
    SET @weaver_inserted = @weaver_staged - @weaver_quarantined;
    SELECT @weaver_live_before = COUNT_BIG(*) FROM [Sales].[ExchangeRate];
    -- The replacement, in one transaction.
    BEGIN TRANSACTION;
    -- Claim the next load sequence: a load of this Table that committed meanwhile stops this one.
    UPDATE [_].[LoadState] SET [last_load_id] = @load_id, [last_succeeded_at] = @load_timestamp, [load_sequence] = [load_sequence] + 1 WHERE [table_id] = @weaver_table_id AND [load_sequence] = @weaver_sequence;
    IF @@ROWCOUNT = 0
        THROW 50020, N'Sales.Sales.ExchangeRate: another load of this Table committed after this one started; nothing of this one was written. Run it again.', 1;
    -- Row history for RESTORE: this load's mark and what undoes its writes.
    INSERT INTO [_].[Undo Sales.ExchangeRate] ([load_sequence], [load_id], [undo_kind]) VALUES (@weaver_sequence + 1, @load_id, N'L');
    INSERT INTO [_].[Undo Sales.ExchangeRate] ([load_sequence], [load_id], [undo_kind], [currency], [rate], [Row insert datetime], [Row update datetime], [Row delete datetime])
    SELECT @weaver_sequence + 1, @load_id, N'X', [currency], [rate], [Row insert datetime], [Row update datetime], [Row delete datetime] FROM [Sales].[ExchangeRate];
    DELETE FROM [Sales].[ExchangeRate];
    INSERT INTO [Sales].[ExchangeRate] ([currency], [rate], [Row insert datetime], [Row update datetime], [Row delete datetime])
    SELECT s.[currency], s.[rate], @load_timestamp, @load_timestamp, @weaver_live
    FROM #weaver_staging AS s WHERE NOT s.[__weaver_expect_1] = 1;
    -- What this load id recorded before (applied again after a restore) is replaced.
    DELETE FROM [_].[LoadQuarantine] WHERE [load_id] = @load_id AND [table_id] = @weaver_table_id;
    DELETE FROM [_].[LoadExpectation] WHERE [load_id] = @load_id AND [table_id] = @weaver_table_id;
    -- Quarantined rows, with the expectations they violate, their key and row as JSON.
    INSERT INTO [_].[LoadQuarantine] ([load_id], [table_id], [expectations], [key_json], [row_json])
    SELECT @load_id, @weaver_table_id, N'["positive rate"]',
        NULL,
        (SELECT s.[currency], s.[rate] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)
    FROM #weaver_staging AS s
    WHERE s.[__weaver_expect_1] = 1;
    -- Counts per expectation, zeros included.
    INSERT INTO [_].[LoadExpectation] ([load_id], [table_id], [expectation], [action], [rows_violating], [sample_keys])
    VALUES (@load_id, @weaver_table_id, N'positive rate', N'quarantine', @weaver_expect_1, N'[]');
    DECLARE @weaver_refusal varchar(4000);
    -- History, in the same transaction as the rows and the state.
    INSERT INTO [_].[LoadHistory] ([load_id], [table_id], [status], [started_at], [finished_at], [load_timestamp],
        [rows_inserted], [rows_updated], [rows_deleted], [rows_revived], [rows_unchanged], [rows_rejected],
        [target_live_rows_before], [target_live_rows_after], [delta_version], [gates_waived], [message])
    VALUES (@load_id, @weaver_table_id, N'succeeded', @weaver_started_at, SYSUTCDATETIME(), @load_timestamp,
        @weaver_inserted, 0, @weaver_live_before, 0, 0, 0,
        @weaver_live_before, @weaver_inserted, NULL, CASE WHEN @weaver_refusal IS NULL THEN 0 ELSE 1 END, @weaver_refusal);
    COMMIT TRANSACTION;
    SELECT [load_id], [status], [rows_inserted], [rows_updated], [rows_deleted], [rows_revived], [rows_unchanged], [rows_rejected], [target_live_rows_before], [target_live_rows_after], [gates_waived], CAST(0 AS bit) AS [already_applied]
    FROM [_].[LoadHistory] WHERE [load_id] = @load_id AND [table_id] = @weaver_table_id;
END;
