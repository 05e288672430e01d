package io.weaver.sql.commands;

import io.weaver.catalyst.compat.ScalaSeqs;
import io.weaver.catalyst.compat.SparkErrors;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.sql.compat.WeaverLeafCommand;
import java.util.List;
import java.util.Objects;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import scala.collection.immutable.Seq;

/**
 * Stands in for a Weaver statement this build parses but cannot run yet: running it fails with an
 * error naming the statement, instead of doing something half-way.
 */
public final class NotAvailableCommand extends WeaverLeafCommand {
  private final String keywords;
  private final String statement;

  /**
   * @param keywords the statement's leading keywords, e.g. {@code LOAD WEAVER}
   * @param statement a one-line description of the parsed statement, for the message
   */
  public NotAvailableCommand(String keywords, String statement) {
    this(keywords, statement, ScalaSeqs.<Attribute>empty());
  }

  /** The full constructor, used by Spark's reflective copy. */
  public NotAvailableCommand(String keywords, String statement, Seq<Attribute> output) {
    super(output);
    this.keywords = Objects.requireNonNull(keywords, "keywords");
    this.statement = Objects.requireNonNull(statement, "statement");
  }

  /** The command for a parsed statement {@code plan} whose leading keywords are given. */
  public static NotAvailableCommand of(String keywords, LogicalPlan plan) {
    return new NotAvailableCommand(keywords, plan.simpleString(25));
  }

  @Override
  public List<Row> execute(SparkSession session) {
    throw SparkErrors.analysis(
        WeaverErrorClass.WEAVER_STATEMENT_NOT_AVAILABLE,
        keywords + " is not available yet in this build (parsed as: " + statement + ").");
  }

  @Override
  public List<Object> fields() {
    return List.of(keywords, statement, output());
  }
}
