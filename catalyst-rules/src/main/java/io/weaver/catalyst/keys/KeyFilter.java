package io.weaver.catalyst.keys;

import io.weaver.catalyst.compat.SparkColumns;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.Objects;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.codegen.CodeBlock;
import org.apache.spark.sql.catalyst.expressions.codegen.CodegenContext;
import org.apache.spark.sql.catalyst.expressions.codegen.ExprCode;
import org.apache.spark.sql.catalyst.expressions.codegen.FalseLiteral$;
import org.apache.spark.sql.catalyst.expressions.codegen.JavaCode;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.util.sketch.BloomFilter;
import scala.collection.immutable.IndexedSeq;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * {@code weaver_key_filter(hash, '<label>')}: true when the long {@code hash} may be in a set of
 * key hashes held as a Bloom filter, false when it is certainly not (a null hash is never in the
 * set).
 *
 * <p>Unlike Spark's {@code might_contain} over a binary literal, its SQL text names the set by a
 * short label, not by its bytes: Delta writes a MERGE condition's SQL into the commit's history,
 * where a filter of 200,000 keys would otherwise take a quarter of a megabyte. The bytes travel
 * with the expression to the executors (with the task, as the plan's other literals do).
 */
public final class KeyFilter extends Expression implements Serializable {

  private static final long serialVersionUID = 1L;

  private final Expression child;
  private final KeySet keys;

  public KeyFilter(Expression child, KeySet keys) {
    this.child = Objects.requireNonNull(child, "child");
    this.keys = Objects.requireNonNull(keys, "keys");
  }

  /** A predicate on {@code hash} (a long column): may its value be one of {@code keys}? */
  public static Column mightContain(Column hash, KeySet keys) {
    return SparkColumns.column(new KeyFilter(SparkColumns.expression(hash), keys));
  }

  @Override
  public Seq<Expression> children() {
    return CollectionConverters.asScala(java.util.List.of(child)).toList();
  }

  @Override
  public Expression withNewChildrenInternal(IndexedSeq<Expression> newChildren) {
    return new KeyFilter(newChildren.apply(0), keys);
  }

  @Override
  public boolean nullable() {
    return false;
  }

  @Override
  public DataType dataType() {
    return DataTypes.BooleanType;
  }

  @Override
  public String prettyName() {
    return "weaver_key_filter";
  }

  @Override
  public String sql() {
    return prettyName() + "(" + child.sql() + ", '" + keys + "')";
  }

  @Override
  public scala.collection.Iterator<Object> stringArgs() {
    return CollectionConverters.asScala(java.util.List.<Object>of(child, keys.toString()))
        .iterator();
  }

  @Override
  public Object eval(InternalRow input) {
    Object hash = child.eval(input);
    return hash != null && keys.filter().mightContainLong((Long) hash);
  }

  @Override
  public ExprCode doGenCode(CodegenContext ctx, ExprCode ev) {
    if (!(child.dataType() instanceof LongType)) {
      throw new IllegalStateException(
          "weaver_key_filter needs a long hash, not " + child.dataType());
    }
    String filter = ctx.addReferenceObj("keyFilter", keys.filter(), BloomFilter.class.getName());
    ExprCode hash = child.genCode(ctx);
    String code =
        hash.code()
            + "\nboolean "
            + ev.value()
            + " = !"
            + hash.isNull()
            + " && "
            + filter
            + ".mightContainLong("
            + hash.value()
            + ");";
    return ev.copy(
        new CodeBlock(
            CollectionConverters.asScala(java.util.List.of(code)).toList(),
            CollectionConverters.asScala(java.util.List.<JavaCode>of()).toList()),
        FalseLiteral$.MODULE$,
        ev.value());
  }

  // scala.Product: the constructor's arguments, so makeCopy works too.

  @Override
  public int productArity() {
    return 2;
  }

  @Override
  public Object productElement(int n) {
    return switch (n) {
      case 0 -> child;
      case 1 -> keys;
      default -> throw new IndexOutOfBoundsException(Integer.toString(n));
    };
  }

  @Override
  public boolean canEqual(Object that) {
    return that instanceof KeyFilter;
  }

  @Override
  public boolean equals(Object other) {
    return this == other
        || (other instanceof KeyFilter that && child.equals(that.child) && keys.equals(that.keys));
  }

  @Override
  public int hashCode() {
    return 31 * child.hashCode() + keys.hashCode();
  }

  /**
   * A serialised Bloom filter of key hashes with a short label (its size and a digest of its
   * bytes); two sets are equal when their bytes are. The filter is read once per JVM copy.
   */
  public static final class KeySet implements Serializable {
    private static final long serialVersionUID = 1L;

    private final byte[] bytes;
    private final String label;
    private final int hash;
    private transient volatile BloomFilter filter;

    public KeySet(byte[] bytes, long keyCount) {
      this.bytes = bytes.clone();
      this.label = keyCount + " keys, " + bytes.length + " bytes, " + digest(this.bytes);
      // Plans hash their expressions often; the bytes (up to 240 kB) are hashed once.
      this.hash = java.util.Arrays.hashCode(this.bytes);
    }

    /** The set of {@code filter}'s hashes, for {@code keyCount} keys. */
    public static KeySet of(BloomFilter filter, long keyCount) {
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      try {
        filter.writeTo(out);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return new KeySet(out.toByteArray(), keyCount);
    }

    BloomFilter filter() {
      BloomFilter f = filter;
      if (f == null) {
        try {
          f = BloomFilter.readFrom(new ByteArrayInputStream(bytes));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        filter = f;
      }
      return f;
    }

    public int sizeInBytes() {
      return bytes.length;
    }

    private static String digest(byte[] bytes) {
      try {
        byte[] sha = java.security.MessageDigest.getInstance("SHA-256").digest(bytes);
        return java.util.HexFormat.of().formatHex(sha, 0, 6);
      } catch (java.security.NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public boolean equals(Object other) {
      return this == other
          || (other instanceof KeySet that
              && hash == that.hash
              && java.util.Arrays.equals(bytes, that.bytes));
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public String toString() {
      return label;
    }
  }
}
