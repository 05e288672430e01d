package io.weaver.metadata;

import io.weaver.findings.SourcePos;
import io.weaver.metadata.sql.SqlBodyAnalysis;
import io.weaver.metadata.sql.SqlDialect;

/** The part of a Table file after its header. */
public sealed interface TableBody {

  /** A Python Table: the class that implements {@code read(self)}. */
  record Python(String className) implements TableBody {}

  /**
   * A Spark SQL or T-SQL program.
   *
   * @param text the body text (after the header comment)
   * @param start file position where {@code text} starts
   * @param analysis its statements, result queries and dynamic-SQL sites
   */
  record Sql(String text, SourcePos start, SqlDialect dialect, SqlBodyAnalysis analysis)
      implements TableBody {}
}
