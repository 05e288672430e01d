package io.weaver.sql.compat;

import io.weaver.catalyst.compat.ScalaSeqs;
import java.util.List;
import java.util.Objects;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeSet;
import org.apache.spark.sql.catalyst.plans.logical.Command;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Statistics;
import org.apache.spark.sql.catalyst.trees.LeafLike;
import org.apache.spark.sql.catalyst.types.DataTypeUtils;
import org.apache.spark.sql.execution.command.LeafRunnableCommand;
import org.apache.spark.sql.execution.command.RunnableCommand;
import org.apache.spark.sql.execution.metric.SQLMetric;
import org.apache.spark.sql.types.StructType;
import scala.Enumeration;
import scala.Function1;
import scala.collection.immutable.IndexedSeq;
import scala.collection.immutable.Map;
import scala.collection.immutable.Seq;

/**
 * Base of Weaver's runnable commands: a Java implementation of Spark's Scala trait {@link
 * LeafRunnableCommand}, so Spark's own planner runs it ({@code ExecutedCommandExec}) and {@code
 * spark.sql(...)} executes it eagerly like any other command.
 *
 * <p>Java does not mix in trait methods, so each method the traits define is forwarded here
 * explicitly (the three child methods are LeafLike's, which Java sees as conflicting with
 * RunnableCommand's, so they are written out), and the trait field {@code nodePatterns} gets its
 * storage here and is set by {@code Command.$init$}.
 *
 * <p>Subclasses pass their output attributes to the constructor and list them last in {@link
 * #fields()}, and declare a public constructor taking exactly {@link #fields()}, so Spark's
 * reflective {@code makeCopy} can rebuild them with the same expression ids.
 */
public abstract class WeaverLeafCommand extends LogicalPlan implements LeafRunnableCommand {

  private final Seq<Attribute> output;
  private Seq<Enumeration.Value> nodePatterns;

  protected WeaverLeafCommand(Seq<Attribute> output) {
    this.output = Objects.requireNonNull(output, "output");
    LeafLike.$init$(this);
    Command.$init$(this);
    RunnableCommand.$init$(this);
  }

  /** Fresh output attributes (new expression ids) for a command returning {@code schema}. */
  @SuppressWarnings("unchecked")
  protected static Seq<Attribute> attributes(StructType schema) {
    return (Seq<Attribute>) (Seq<?>) DataTypeUtils.toAttributes(schema);
  }

  /** Runs the command; Spark calls this once per execution. */
  protected abstract List<Row> execute(SparkSession session);

  /** The command's fields in constructor order, output attributes last. */
  protected abstract List<Object> fields();

  @Override
  public final Seq<Row> run(SparkSession session) {
    return ScalaSeqs.of(execute(session));
  }

  @Override
  public Seq<Attribute> output() {
    return output;
  }

  @Override
  public AttributeSet producedAttributes() {
    return LeafRunnableCommand.super.producedAttributes();
  }

  @Override
  public Statistics stats() {
    return LeafRunnableCommand.super.stats();
  }

  @Override
  public Seq<Enumeration.Value> nodePatterns() {
    return nodePatterns;
  }

  @Override
  public void org$apache$spark$sql$catalyst$plans$logical$Command$_setter_$nodePatterns_$eq(
      Seq<Enumeration.Value> patterns) {
    this.nodePatterns = patterns;
  }

  @Override
  public Map<String, SQLMetric> metrics() {
    return LeafRunnableCommand.super.metrics();
  }

  @Override
  public Seq<LogicalPlan> children() {
    return ScalaSeqs.empty();
  }

  @Override
  public LogicalPlan mapChildren(Function1<LogicalPlan, LogicalPlan> f) {
    return this;
  }

  @Override
  public LogicalPlan withNewChildrenInternal(IndexedSeq<LogicalPlan> newChildren) {
    if (!newChildren.isEmpty()) {
      throw new IllegalArgumentException(nodeName() + " is a leaf and takes no children");
    }
    return this;
  }

  @Override
  public int productArity() {
    return fields().size();
  }

  @Override
  public Object productElement(int n) {
    return fields().get(n);
  }

  @Override
  public boolean canEqual(Object that) {
    return that != null && that.getClass() == getClass();
  }

  @Override
  public boolean equals(Object o) {
    return canEqual(o) && fields().equals(((WeaverLeafCommand) o).fields());
  }

  @Override
  public int hashCode() {
    return Objects.hash(getClass(), fields());
  }
}
