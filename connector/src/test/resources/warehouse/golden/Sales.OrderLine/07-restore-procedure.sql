CREATE OR ALTER PROCEDURE [_].[Restore Sales.OrderLine]
    @load_id varchar(64),
    @restore_id varchar(64)
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    DECLARE @weaver_table_id varchar(300) = N'Sales.OrderLine';
    DECLARE @weaver_started_at datetime2(6) = SYSUTCDATETIME();
    DECLARE @weaver_message varchar(4000);
    -- Exactly once: a restore id already recorded answers with its history row.
    IF EXISTS (SELECT 1 FROM [_].[LoadHistory] WHERE [load_id] = @restore_id AND [table_id] = @weaver_table_id AND [status] = N'restored')
    BEGIN
        SELECT [load_id], [status], [message], CAST(1 AS bit) AS [already_applied] FROM [_].[LoadHistory] WHERE [load_id] = @restore_id AND [table_id] = @weaver_table_id;
        RETURN;
    END;
    -- The load restored to: a succeeded load whose mark is still in the row history.
    DECLARE @weaver_to bigint = (SELECT MAX([load_sequence]) FROM [_].[Undo Sales.OrderLine] WHERE [load_id] = @load_id AND [undo_kind] = N'L');
    DECLARE @weaver_status varchar(40) = (SELECT TOP 1 [status] FROM [_].[LoadHistory] WHERE [load_id] = @load_id AND [table_id] = @weaver_table_id ORDER BY CASE WHEN [status] = N'succeeded' THEN 0 ELSE 1 END);
    IF @weaver_to IS NULL
    BEGIN
        SET @weaver_message = CASE
            WHEN @weaver_status IS NULL THEN CONCAT(N'Sales.Sales.OrderLine has no load ''', @load_id, N''' in [_].[LoadHistory]; SHOW WEAVER LOADS FOR Sales.Sales.OrderLine lists its loads.')
            WHEN @weaver_status <> N'succeeded' THEN CONCAT(N'Load ''', @load_id, N''' of Sales.Sales.OrderLine has status ', @weaver_status, N'; only a succeeded load can be restored to.')
            ELSE CONCAT(N'Load ''', @load_id, N''' of Sales.Sales.OrderLine was undone by an earlier restore, so its rows are no longer kept; restore to a load still in effect.')
        END;
        THROW 50030, @weaver_message, 1;
    END;
    DECLARE @weaver_load_timestamp datetime2(6) = (SELECT MAX([load_timestamp]) FROM [_].[LoadHistory] WHERE [load_id] = @load_id AND [table_id] = @weaver_table_id AND [status] = N'succeeded');
    DECLARE @weaver_sequence bigint = (SELECT [load_sequence] FROM [_].[LoadState] WHERE [table_id] = @weaver_table_id);
    DECLARE @weaver_undone bigint = (SELECT COUNT_BIG(*) FROM [_].[Undo Sales.OrderLine] WHERE [undo_kind] = N'L' AND [load_sequence] > @weaver_to);
    DECLARE @weaver_removed bigint = 0, @weaver_put_back bigint = 0;
    -- The undo, in one transaction with the state and the history row.
    BEGIN TRANSACTION;
    -- Claim the next load sequence: a load or restore that committed meanwhile stops this.
    UPDATE [_].[LoadState] SET [last_load_id] = @load_id, [last_succeeded_at] = @weaver_load_timestamp, [load_sequence] = [load_sequence] + 1 WHERE [table_id] = @weaver_table_id AND [load_sequence] = @weaver_sequence;
    IF @@ROWCOUNT = 0
        THROW 50020, N'Sales.Sales.OrderLine: a load of this Table committed after the restore started; nothing was restored. Run it again.', 1;
    -- Keys first inserted after the load: removed.
    DELETE FROM [Sales].[OrderLine] WHERE EXISTS (
        SELECT 1 FROM (SELECT i.*, ROW_NUMBER() OVER (PARTITION BY i.[order_id], i.[line_no] ORDER BY i.[load_sequence]) AS [__weaver_first] FROM [_].[Undo Sales.OrderLine] AS i WHERE i.[undo_kind] IN (N'I', N'U') AND i.[load_sequence] > @weaver_to) AS u
        WHERE u.[__weaver_first] = 1 AND u.[undo_kind] = N'I' AND u.[order_id] = [OrderLine].[order_id] AND u.[line_no] = [OrderLine].[line_no]);
    SET @weaver_removed = @@ROWCOUNT;
    -- Keys first changed after the load, row still there: the image that load saved.
    UPDATE t SET
        [quantity] = u.[quantity],
        [amount] = u.[amount],
        [note] = u.[note],
        [Row insert datetime] = u.[Row insert datetime],
        [Row update datetime] = u.[Row update datetime],
        [Row delete datetime] = u.[Row delete datetime],
        [Row signature] = u.[Row signature]
    FROM [Sales].[OrderLine] AS t
    INNER JOIN (SELECT i.*, ROW_NUMBER() OVER (PARTITION BY i.[order_id], i.[line_no] ORDER BY i.[load_sequence]) AS [__weaver_first] FROM [_].[Undo Sales.OrderLine] AS i WHERE i.[undo_kind] IN (N'I', N'U') AND i.[load_sequence] > @weaver_to) AS u
        ON u.[order_id] = t.[order_id] AND u.[line_no] = t.[line_no] AND u.[__weaver_first] = 1 AND u.[undo_kind] = N'U';
    SET @weaver_put_back = @@ROWCOUNT;
    -- Keys first changed after the load whose row a later load removed: inserted again.
    INSERT INTO [Sales].[OrderLine] ([order_id], [line_no], [quantity], [amount], [note], [Row insert datetime], [Row update datetime], [Row delete datetime], [Row signature])
    SELECT u.[order_id], u.[line_no], u.[quantity], u.[amount], u.[note], u.[Row insert datetime], u.[Row update datetime], u.[Row delete datetime], u.[Row signature] FROM (SELECT i.*, ROW_NUMBER() OVER (PARTITION BY i.[order_id], i.[line_no] ORDER BY i.[load_sequence]) AS [__weaver_first] FROM [_].[Undo Sales.OrderLine] AS i WHERE i.[undo_kind] IN (N'I', N'U') AND i.[load_sequence] > @weaver_to) AS u
    WHERE u.[__weaver_first] = 1 AND u.[undo_kind] = N'U' AND NOT EXISTS (SELECT 1 FROM [Sales].[OrderLine] AS t WHERE u.[order_id] = t.[order_id] AND u.[line_no] = t.[line_no]);
    SET @weaver_put_back = @weaver_put_back + @@ROWCOUNT;
    -- The history table: the undone loads' versions go; each key's newest is current again.
    DELETE FROM [Sales].[OrderLine__History] WHERE [load_id] IN (SELECT [load_id] FROM [_].[Undo Sales.OrderLine] WHERE [undo_kind] = N'L' AND [load_sequence] > @weaver_to);
    UPDATE v SET [valid_to] = CAST('9999-12-31T00:00:00' AS datetime2(6)), [is_current] = 1
    FROM [Sales].[OrderLine__History] AS v
    WHERE v.[is_current] = 0 AND NOT EXISTS (
        SELECT 1 FROM [Sales].[OrderLine__History] AS n WHERE n.[order_id] = v.[order_id] AND n.[line_no] = v.[line_no] AND n.[valid_from] > v.[valid_from]);
    -- The undone loads' row history goes with them.
    DELETE FROM [_].[Undo Sales.OrderLine] WHERE [load_sequence] > @weaver_to;
    -- History.
    INSERT INTO [_].[LoadHistory] ([load_id], [table_id], [status], [started_at], [finished_at], [load_timestamp],
        [rows_inserted], [rows_updated], [rows_deleted], [rows_revived], [rows_unchanged], [rows_rejected],
        [target_live_rows_before], [target_live_rows_after], [gates_waived], [message])
    VALUES (@restore_id, @weaver_table_id, N'restored', @weaver_started_at, SYSUTCDATETIME(), @weaver_load_timestamp,
        0, 0, 0, 0, 0, 0,
        0, (SELECT COUNT_BIG(*) FROM [Sales].[OrderLine] WHERE [Row delete datetime] = CAST('9999-12-31T00:00:00' AS datetime2(6))), 0,
        CONCAT(N'restored to load ', @load_id, N': ', @weaver_undone, N' later load(s) undone, ', @weaver_put_back, N' row(s) put back, ', @weaver_removed, N' row(s) removed; load state rolled back'));
    COMMIT TRANSACTION;
    SELECT [load_id], [status], [message], CAST(0 AS bit) AS [already_applied] FROM [_].[LoadHistory] WHERE [load_id] = @restore_id AND [table_id] = @weaver_table_id;
END;
