package io.weaver.sql.compat

import java.util.{List => JList, Objects}

import org.apache.spark.sql.catalyst.expressions.Attribute
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

/**
 * Base of Weaver's unresolved statement nodes: a leaf [[LogicalPlan]] that stays unresolved until
 * Weaver's resolution rule replaces it with a runnable command (so it is never optimised or
 * planned). Scala, like [[WeaverLeafCommand]] and for the same reasons; the statements are Java
 * classes implementing [[fields]].
 */
abstract class WeaverLeafNode extends LogicalPlan {

  final override def children: Seq[LogicalPlan] = Nil

  final override protected def withNewChildrenInternal(
      newChildren: IndexedSeq[LogicalPlan]): LogicalPlan = {
    if (newChildren.nonEmpty) {
      throw new IllegalArgumentException(s"$nodeName is a leaf and takes no children")
    }
    this
  }

  /** The statement's parsed fields, in constructor order (the node's `Product` view). */
  def fields(): JList[Object]

  override lazy val resolved: Boolean = false

  override def output: Seq[Attribute] = Nil

  override def productArity: Int = fields().size

  override def productElement(n: Int): Any = fields().get(n)

  override def canEqual(that: Any): Boolean = that != null && that.getClass == getClass

  override def equals(that: Any): Boolean = that match {
    case other: WeaverLeafNode => canEqual(other) && fields() == other.fields()
    case _ => false
  }

  override def hashCode(): Int = Objects.hash(getClass, fields())
}
