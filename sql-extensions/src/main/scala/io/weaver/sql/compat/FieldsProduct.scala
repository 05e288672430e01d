package io.weaver.sql.compat

import java.util.{List => JList, Objects}

/**
 * The `Product` view, equality and hash of a Weaver plan node from its [[fields]], in constructor
 * order: what Spark's tree code (`makeCopy`, `transform`, plan comparison) reads of a case class.
 */
trait FieldsProduct extends Product {

  /** The node's fields in constructor order. */
  def fields(): JList[Object]

  override def productArity: Int = fields().size

  override def productElement(n: Int): Any = fields().get(n)

  override def canEqual(that: Any): Boolean = that != null && that.getClass == getClass

  override def equals(that: Any): Boolean = that match {
    case other: FieldsProduct => canEqual(other) && fields() == other.fields()
    case _ => false
  }

  override def hashCode(): Int = Objects.hash(getClass, fields())
}
