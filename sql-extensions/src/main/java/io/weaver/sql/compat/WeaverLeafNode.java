package io.weaver.sql.compat;

import io.weaver.catalyst.compat.ScalaSeqs;
import java.util.List;
import java.util.Objects;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeSet;
import org.apache.spark.sql.catalyst.plans.logical.LeafNode;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Statistics;
import org.apache.spark.sql.catalyst.trees.LeafLike;
import scala.Function1;
import scala.collection.immutable.IndexedSeq;
import scala.collection.immutable.Seq;

/**
 * Base of Weaver's unresolved statement nodes: a leaf {@link LogicalPlan} that stays unresolved
 * until Weaver's resolution rule replaces it with a runnable command.
 *
 * <p>Scala mixes trait methods into a class; Java does not, and a concrete method inherited from
 * {@code LogicalPlan} would silently win over the trait's default. So every method the traits
 * override is forwarded here explicitly, in the order Scala would linearize them.
 */
public abstract class WeaverLeafNode extends LogicalPlan implements LeafNode {

  protected WeaverLeafNode() {
    LeafLike.$init$(this);
    LeafNode.$init$(this);
  }

  /** The statement's parsed fields, in constructor order (the node's {@code Product} view). */
  protected abstract List<Object> fields();

  @Override
  public boolean resolved() {
    return false;
  }

  @Override
  public Seq<Attribute> output() {
    return ScalaSeqs.empty();
  }

  @Override
  public Seq<LogicalPlan> children() {
    return LeafNode.super.children();
  }

  @Override
  public LogicalPlan mapChildren(Function1<LogicalPlan, LogicalPlan> f) {
    return LeafNode.super.mapChildren(f);
  }

  @Override
  public LogicalPlan withNewChildrenInternal(IndexedSeq<LogicalPlan> newChildren) {
    return LeafNode.super.withNewChildrenInternal(newChildren);
  }

  @Override
  public AttributeSet producedAttributes() {
    return LeafNode.super.producedAttributes();
  }

  @Override
  public Statistics computeStats() {
    return LeafNode.super.computeStats();
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
    return canEqual(o) && fields().equals(((WeaverLeafNode) o).fields());
  }

  @Override
  public int hashCode() {
    return Objects.hash(getClass(), fields());
  }
}
