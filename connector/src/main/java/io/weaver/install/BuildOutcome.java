package io.weaver.install;

/**
 * What Build did with one Table.
 *
 * @param tableId item-qualified, {@code Item.Schema.Object}
 * @param action {@code created}, {@code unchanged}, {@code updated} (catalogue only), {@code
 *     altered} (columns added, NOT NULL relaxed, rows re-signed), {@code replaced}, {@code refused}
 *     (Build protection), {@code failed}, {@code skipped}
 * @param message what happened, in words
 */
public record BuildOutcome(String tableId, String action, String message) {

  /** True for outcomes that make the Build fail (exit code 1). */
  public boolean isFailure() {
    return action.equals("refused") || action.equals("failed");
  }
}
