MERGE [Sales].[Order] AS t
USING #staging AS s
    ON t.[order_id] = s.[order_id]
WHEN MATCHED AND t.[Row signature] <> s.[Row signature] THEN
    UPDATE SET t.[amount] = s.[amount], t.[Row signature] = s.[Row signature]
WHEN NOT MATCHED BY TARGET THEN
    INSERT ([order_id], [amount], [Row signature]) VALUES (s.[order_id], s.[amount], s.[Row signature])
WHEN NOT MATCHED BY SOURCE THEN
    UPDATE SET t.[Row delete datetime] = SYSUTCDATETIME();
