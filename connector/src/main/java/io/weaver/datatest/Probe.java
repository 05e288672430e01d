package io.weaver.datatest;

import java.util.function.Supplier;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * One test before it runs: its identity and how to get its violating rows. The rows are a lazy
 * plan; {@link DataTestRunner} counts them (one job) and samples them only when there are any.
 */
record Probe(
    String testId,
    String tableId,
    String kind,
    String severity,
    Supplier<Dataset<Row>> violations) {

  /** A test that cannot run (a table not built, a parent Weaver cannot read): it fails. */
  static final class Unavailable extends RuntimeException {
    Unavailable(String message) {
      super(message);
    }
  }
}
