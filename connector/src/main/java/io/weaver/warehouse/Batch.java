package io.weaver.warehouse;

/**
 * One generated T-SQL batch: sent to the endpoint as one call (the Warehouse takes no {@code GO}),
 * pinned as one golden file.
 *
 * @param name what it does, also its golden file's name ({@code table}, {@code load-procedure}, …)
 * @param sql the batch text
 */
public record Batch(String name, String sql) {}
