package io.weaver.sql.compat

import org.apache.spark.sql.catalyst.expressions.Attribute
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

/**
 * Base of Weaver's unresolved statement nodes: a leaf [[LogicalPlan]] that stays unresolved until
 * Weaver's resolution rule replaces it with a runnable command (so it is never optimised or
 * planned). Scala, like [[WeaverLeafCommand]] and for the same reasons; the statements are Java
 * classes implementing [[fields]].
 */
abstract class WeaverLeafNode extends LogicalPlan with FieldsProduct {

  final override def children: Seq[LogicalPlan] = Nil

  final override protected def withNewChildrenInternal(
      newChildren: IndexedSeq[LogicalPlan]): LogicalPlan = {
    if (newChildren.nonEmpty) {
      throw new IllegalArgumentException(s"$nodeName is a leaf and takes no children")
    }
    this
  }

  override lazy val resolved: Boolean = false

  override def output: Seq[Attribute] = Nil
}
