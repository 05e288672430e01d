package io.weaver.sql.compat

import java.util.{List => JList, Objects}

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.{Row, SparkSession}
import org.apache.spark.sql.catalyst.expressions.Attribute
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.catalyst.types.DataTypeUtils
import org.apache.spark.sql.execution.command.RunnableCommand
import org.apache.spark.sql.types.StructType

/**
 * Base of Weaver's runnable commands: a [[RunnableCommand]] without children, so Spark's own
 * planner runs it (`ExecutedCommandExec`) and `spark.sql(...)` executes it eagerly like any other
 * command.
 *
 * Written in Scala because it mixes in Spark's traits: the compiler, not hand-written forwarders,
 * implements their members, so a Spark release that adds one needs a rebuild, not a code change.
 * The commands themselves are Java classes implementing [[execute]] and [[fields]]. The leaf
 * methods are written here rather than mixed in from `LeafLike`: its compiled forwarders carry no
 * generic signature, so javac would reject the Java subclasses.
 *
 * Subclasses pass their output attributes to the constructor and list them last in [[fields]], and
 * declare a public constructor taking exactly [[fields]], so Spark's reflective `makeCopy` can
 * rebuild them with the same expression ids.
 */
abstract class WeaverLeafCommand(override val output: Seq[Attribute])
    extends RunnableCommand
    with FieldsProduct {
  Objects.requireNonNull(output, "output")

  final override def children: Seq[LogicalPlan] = Nil

  final override protected def withNewChildrenInternal(
      newChildren: IndexedSeq[LogicalPlan]): LogicalPlan = {
    if (newChildren.nonEmpty) {
      throw new IllegalArgumentException(s"$nodeName is a leaf and takes no children")
    }
    this
  }

  /** Runs the command; Spark calls this once per execution. */
  def execute(session: SparkSession): JList[Row]

  /** The command's fields in constructor order, output attributes last ([[FieldsProduct]]). */
  override def fields(): JList[Object]

  final override def run(session: SparkSession): Seq[Row] = execute(session).asScala.toSeq
}

object WeaverLeafCommand {

  /** Fresh output attributes (new expression ids) for a command returning `schema`. */
  def attributes(schema: StructType): Seq[Attribute] = DataTypeUtils.toAttributes(schema)
}
