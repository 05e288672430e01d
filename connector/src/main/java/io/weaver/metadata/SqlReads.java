package io.weaver.metadata;

import io.weaver.compat.SqlReferences;
import io.weaver.findings.SourcePos;
import io.weaver.metadata.sql.SqlStatement;
import io.weaver.workspace.Form;
import io.weaver.workspace.Identifiers;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The names a Spark SQL Table's statements read, found with Spark's parser and no session: the
 * statements Build runs (setup, staging query, delete-key query), each name once, in first-seen
 * order.
 */
final class SqlReads {
  private SqlReads() {}

  /** Every multipart name read; empty for Python and T-SQL Tables. */
  static List<WorkspaceDependencies.Read> of(TableDeclaration table) {
    if (table.source().form() != Form.SPARK_SQL || !(table.body() instanceof TableBody.Sql body)) {
      return List.of();
    }
    List<WorkspaceDependencies.Read> reads = new ArrayList<>();
    List<List<String>> seen = new ArrayList<>();
    for (SqlStatement statement : SqlProgram.runnable(body)) {
      List<List<String>> names;
      try {
        names = SqlReferences.of(SqlProgram.text(body, statement));
      } catch (RuntimeException e) {
        continue; // Spark refuses it: shape inference reports it at Build, with its position
      }
      SourcePos pos = new SourcePos(statement.line(), statement.column());
      for (List<String> name : names) {
        if (!seen.contains(name)) {
          seen.add(name);
          reads.add(new WorkspaceDependencies.Read(name, pos));
        }
      }
    }
    return List.copyOf(reads);
  }

  /** A name as an author would write it: identifier parts bare, others in backticks. */
  static String display(List<String> name) {
    return name.stream()
        .map(part -> Identifiers.isIdentifier(part) ? part : Identifiers.quote(part))
        .collect(Collectors.joining("."));
  }
}
