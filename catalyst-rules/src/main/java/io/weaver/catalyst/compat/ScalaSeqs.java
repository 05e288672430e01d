package io.weaver.catalyst.compat;

import java.util.List;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/** Conversions between Java lists and the Scala 2.13 immutable sequences Spark's API takes. */
public final class ScalaSeqs {
  private ScalaSeqs() {}

  /** An immutable Scala copy of {@code list}. */
  public static <T> Seq<T> of(List<T> list) {
    return CollectionConverters.asScala(list).toSeq();
  }

  /** A Java copy of {@code seq}. */
  public static <T> List<T> toList(scala.collection.Seq<T> seq) {
    return List.copyOf(CollectionConverters.asJava(seq));
  }
}
