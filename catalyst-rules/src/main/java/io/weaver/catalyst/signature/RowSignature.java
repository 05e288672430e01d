package io.weaver.catalyst.signature;

import io.weaver.catalyst.compat.SparkColumns;
import java.io.Serializable;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.codegen.CodeBlock;
import org.apache.spark.sql.catalyst.expressions.codegen.CodegenContext;
import org.apache.spark.sql.catalyst.expressions.codegen.ExprCode;
import org.apache.spark.sql.catalyst.expressions.codegen.FalseLiteral$;
import org.apache.spark.sql.catalyst.expressions.codegen.JavaCode;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.unsafe.types.UTF8String;
import scala.collection.immutable.IndexedSeq;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * {@code row_signature(c1, …, cN)}: SHA-256 over the {@link SignatureEncoding} of its children, as
 * 64 lowercase hex characters. Never null, deterministic, evaluated in the executors with generated
 * code that calls the encoders directly (primitives are not boxed).
 */
public final class RowSignature extends Expression implements Serializable {

  private static final long serialVersionUID = 1L;

  private static final String ENCODING = SignatureEncoding.class.getName();
  private static final String CATALYST = CatalystEncoding.class.getName();
  private static final ThreadLocal<MessageDigest> DIGEST = ThreadLocal.withInitial(RowBuffer::new);

  private final Seq<Expression> children;
  private transient Expression[] inputs;
  private transient ValueWriter[] writers;

  /**
   * @throws IllegalArgumentException when a resolved child has a type the signature does not
   *     support (checked again whenever the analyzer rebuilds the node with resolved children)
   */
  public RowSignature(Seq<Expression> children) {
    this.children = Objects.requireNonNull(children, "children");
    for (Expression child : CollectionConverters.asJava(children)) {
      if (child.resolved() && !SparkColumns.isUnconverted(child)) {
        CatalystEncoding.writerFor(child.dataType());
      }
    }
  }

  /** The signature of {@code columns}, in order, as a non-null string column. */
  public static Column rowSignature(List<Column> columns) {
    List<Expression> expressions = new ArrayList<>(columns.size());
    for (Column column : columns) {
      expressions.add(SparkColumns.expression(column));
    }
    return SparkColumns.column(new RowSignature(toSeq(expressions)));
  }

  @Override
  public Seq<Expression> children() {
    return children;
  }

  @Override
  public Expression withNewChildrenInternal(IndexedSeq<Expression> newChildren) {
    return new RowSignature(newChildren);
  }

  @Override
  public boolean nullable() {
    return false;
  }

  @Override
  public DataType dataType() {
    return DataTypes.StringType;
  }

  @Override
  public String prettyName() {
    return "row_signature";
  }

  @Override
  public Object eval(InternalRow input) {
    Expression[] in = inputs();
    ValueWriter[] out = writers();
    MessageDigest digest = DIGEST.get();
    for (int i = 0; i < in.length; i++) {
      Object value = in[i].eval(input);
      if (value == null) {
        SignatureEncoding.putNull(digest);
      } else {
        out[i].write(digest, value);
      }
    }
    return UTF8String.fromBytes(SignatureEncoding.finishHex(digest));
  }

  @Override
  public ExprCode doGenCode(CodegenContext ctx, ExprCode ev) {
    String digest =
        ctx.addMutableState(
            MessageDigest.class.getName(),
            "rowSignatureDigest",
            name -> name + " = new " + RowBuffer.class.getName() + "();",
            false,
            true);
    Expression[] in = inputs();
    List<String> steps = new ArrayList<>(in.length);
    for (Expression child : in) {
      ExprCode value = child.genCode(ctx);
      steps.add(
          value.code()
              + "\nif ("
              + value.isNull()
              + ") {\n  "
              + ENCODING
              + ".putNull("
              + digest
              + ");\n} else {\n  "
              + putCall(ctx, child.dataType(), digest, value.value().toString())
              + ";\n}");
    }
    String body =
        ctx.splitExpressionsWithCurrentInputs(
            toSeq(steps),
            "rowSignature",
            toSeq(List.of()),
            "void",
            code -> code,
            codes -> String.join(";\n", CollectionConverters.asJava(codes)) + ";");
    String code =
        body
            + "\nUTF8String "
            + ev.value()
            + " = UTF8String.fromBytes("
            + ENCODING
            + ".finishHex("
            + digest
            + "));";
    return ev.copy(block(code), FalseLiteral$.MODULE$, ev.value());
  }

  private static String putCall(CodegenContext ctx, DataType type, String digest, String value) {
    if (type instanceof StringType) {
      return CATALYST + ".putUtf8String(" + digest + ", " + value + ")";
    } else if (type instanceof ByteType
        || type instanceof ShortType
        || type instanceof IntegerType
        || type instanceof LongType) {
      return ENCODING + ".putLong(" + digest + ", (long) " + value + ")";
    } else if (type instanceof DecimalType decimal) {
      return CATALYST + ".putDecimal(" + digest + ", " + value + ", " + decimal.scale() + ")";
    } else if (type instanceof FloatType) {
      return ENCODING + ".putFloat(" + digest + ", " + value + ")";
    } else if (type instanceof DoubleType) {
      return ENCODING + ".putDouble(" + digest + ", " + value + ")";
    } else if (type instanceof BooleanType) {
      return ENCODING + ".putBoolean(" + digest + ", " + value + ")";
    } else if (type instanceof DateType) {
      return ENCODING + ".putDate(" + digest + ", " + value + ")";
    } else if (type instanceof TimestampType || type instanceof TimestampNTZType) {
      return ENCODING + ".putTimestampMicros(" + digest + ", " + value + ")";
    } else if (type instanceof BinaryType) {
      return ENCODING + ".putBinary(" + digest + ", " + value + ")";
    }
    // Arrays, maps and structs walk their elements through a prebuilt writer tree.
    String writer =
        ctx.addReferenceObj(
            "rowSignatureWriter", CatalystEncoding.writerFor(type), ValueWriter.class.getName());
    return writer + ".write(" + digest + ", " + value + ")";
  }

  private Expression[] inputs() {
    if (inputs == null) {
      inputs = CollectionConverters.asJava(children).toArray(new Expression[0]);
    }
    return inputs;
  }

  private ValueWriter[] writers() {
    if (writers == null) {
      Expression[] in = inputs();
      ValueWriter[] built = new ValueWriter[in.length];
      for (int i = 0; i < in.length; i++) {
        built[i] = CatalystEncoding.writerFor(in[i].dataType());
      }
      writers = built;
    }
    return writers;
  }

  private static CodeBlock block(String code) {
    return new CodeBlock(toSeq(List.of(code)), toSeq(List.<JavaCode>of()));
  }

  private static <T> Seq<T> toSeq(List<T> list) {
    return CollectionConverters.asScala(list).toList();
  }

  // scala.Product: the children are the only constructor argument, so makeCopy works too.

  @Override
  public int productArity() {
    return 1;
  }

  @Override
  public Object productElement(int n) {
    if (n == 0) {
      return children;
    }
    throw new IndexOutOfBoundsException(Integer.toString(n));
  }

  @Override
  public boolean canEqual(Object that) {
    return that instanceof RowSignature;
  }

  @Override
  public boolean equals(Object other) {
    return this == other || (other instanceof RowSignature that && children.equals(that.children));
  }

  @Override
  public int hashCode() {
    return 31 * "row_signature".hashCode() + children.hashCode();
  }
}
