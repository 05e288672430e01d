package io.weaver.sql.compat;

import java.util.List;
import scala.collection.immutable.Seq;

/**
 * The statements' name for {@link io.weaver.catalyst.compat.ScalaSeqs}, the one implementation of
 * the conversions between Java lists and the Scala 2.13 immutable sequences Spark's API takes.
 */
public final class ScalaSeqs {
  private ScalaSeqs() {}

  /** An immutable Scala copy of {@code list}. */
  public static <T> Seq<T> of(List<T> list) {
    return io.weaver.catalyst.compat.ScalaSeqs.of(list);
  }

  /** The empty immutable Scala sequence. */
  public static <T> Seq<T> empty() {
    return io.weaver.catalyst.compat.ScalaSeqs.empty();
  }

  /** A Java copy of {@code seq}. */
  public static <T> List<T> toList(scala.collection.Seq<T> seq) {
    return io.weaver.catalyst.compat.ScalaSeqs.toList(seq);
  }
}
