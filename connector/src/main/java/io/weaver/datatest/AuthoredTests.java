package io.weaver.datatest;

import io.weaver.metadata.DataTestDeclaration;
import io.weaver.metadata.SqlProgram;
import io.weaver.staging.ItemSession;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * An authored test ({@code Lakehouse/<Item>/Tests/<Name>.sql}) as a probe: its setup statements and
 * its one query run in an {@link ItemSession} of the item, so {@code Schema.Object} names that
 * item's tables; the query's rows are the violations.
 */
final class AuthoredTests {
  private final SparkSession spark;

  AuthoredTests(SparkSession spark) {
    this.spark = spark;
  }

  Probe of(DataTestDeclaration test) {
    return new Probe(
        test.testId(),
        test.item(),
        DataTestResult.AUTHORED,
        test.severity().word(),
        () -> run(test));
  }

  private Dataset<Row> run(DataTestDeclaration test) {
    SqlProgram program = SqlProgram.of(test.body());
    ItemSession session = ItemSession.of(spark, test.item(), "Test " + test.testId());
    for (String statement : program.setup()) {
      session.sql(statement);
    }
    return session.sql(program.stagingQuery());
  }
}
