package io.weaver.metadata;

import io.weaver.workspace.Target;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The names of the columns Weaver adds and maintains (docs/table-contract.md, "Managed columns"),
 * per target.
 */
public final class ManagedColumns {
  public static final String INSERT_TIME = "row_insert_datetime";
  public static final String UPDATE_TIME = "row_update_datetime";
  public static final String DELETE_TIME = "row_delete_datetime";
  public static final String SIGNATURE = "row_signature";

  private static final List<String> LAKEHOUSE =
      List.of(INSERT_TIME, UPDATE_TIME, DELETE_TIME, SIGNATURE);
  private static final List<String> WAREHOUSE =
      List.of("Row insert datetime", "Row update datetime", "Row delete datetime", "Row signature");

  private ManagedColumns() {}

  /** Audit and signature column names of a target, in table order. */
  public static List<String> names(Target target) {
    return target == Target.LAKEHOUSE ? LAKEHOUSE : WAREHOUSE;
  }

  /** The managed name a column collides with, ignoring case. */
  public static Optional<String> collision(Target target, String column) {
    String lower = column.toLowerCase(Locale.ROOT);
    return names(target).stream().filter(n -> n.toLowerCase(Locale.ROOT).equals(lower)).findFirst();
  }
}
