package io.weaver.catalyst.rules;

import java.util.List;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;

/**
 * Builds the command that runs an append to a Weaver table as a load ({@link WritesAsLoads}). The
 * session extension passes its DataFrame load command, which runs Weaver's engine.
 */
@FunctionalInterface
public interface LoadCommands {
  /**
   * The load of the Table {@code identity} with the rows of {@code query} as staging.
   *
   * @param waiveStabilityGates whether the write (or the table's options) set {@link
   *     TableContract#waiveStabilityGatesOption} to {@code true}
   * @param positionalColumns for a by-position write ({@code INSERT INTO id VALUES …}), the
   *     business columns in table order that the query's columns are renamed to; empty when the
   *     write matches columns by name
   */
  LogicalPlan load(
      String identity,
      LogicalPlan query,
      boolean waiveStabilityGates,
      List<String> positionalColumns);
}
