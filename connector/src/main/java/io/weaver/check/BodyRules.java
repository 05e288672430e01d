package io.weaver.check;

import static io.weaver.metadata.TableKeys.TABLE_ID;

import io.weaver.findings.FindingSink;
import io.weaver.findings.RuleIds;
import io.weaver.findings.SourcePos;
import io.weaver.metadata.TableBody;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.python.PythonModule;
import io.weaver.metadata.python.PythonScanner;
import io.weaver.metadata.sql.SqlBodyAnalysis;
import io.weaver.metadata.sql.SqlDialect;
import io.weaver.metadata.sql.SqlStatement;
import io.weaver.metadata.sql.SqlToken;
import io.weaver.metadata.sql.StaticColumn;
import io.weaver.metadata.sql.StaticColumns;
import java.util.List;
import java.util.Optional;

/**
 * Rules about a Table's body: the Python class and its {@code read(self)}, or the statements of a
 * Spark SQL / T-SQL program (terminators, GO, result-query count, the delete-key query, dynamic
 * SQL).
 */
final class BodyRules {
  private BodyRules() {}

  /**
   * The class name is the third spelling of the Table ID (docs/table-contract.md, "Workspace
   * layout": Table ID, file name and class must agree), so a Table class under another name is an
   * id-mismatch as well as a python-class finding: renaming either the class or the Table ID fixes
   * it.
   */
  private static void classMismatch(TableDeclaration table, PythonModule module, FindingSink sink) {
    if (!table.authoredKeys().containsKey(TABLE_ID)) {
      return; // required-key-missing already says what to add
    }
    module.classes().stream()
        .filter(PythonModule.PythonClass::inheritsTable)
        .findFirst()
        .or(() -> module.classes().stream().findFirst())
        .ifPresent(
            cls ->
                sink.error(
                    RuleIds.ID_MISMATCH,
                    cls.pos(),
                    "class '"
                        + cls.name()
                        + "' does not match Table ID '"
                        + table.tableId()
                        + "'; the class of that Table ID is '"
                        + table.tableId().pythonName()
                        + "' (Schema__Object, exactly, including case): rename the class or fix"
                        + " the Table ID"));
  }

  /** Checks a Python Table module's class; the source is the whole file text. */
  static void python(TableDeclaration table, String source, FindingSink sink) {
    String className = table.tableId().pythonName();
    PythonModule module = PythonScanner.scan(source);
    Optional<PythonModule.PythonClass> found = module.findClass(className);
    if (found.isEmpty()) {
      classMismatch(table, module, sink);
      sink.error(
          RuleIds.PYTHON_CLASS,
          new SourcePos(1, 1),
          "no top-level class '"
              + className
              + "(Table)'; define 'class "
              + className
              + "(Table):' with a synchronous 'def read(self):'"
              + module.classes().stream()
                  .findFirst()
                  .map(
                      c ->
                          " (found class '"
                              + c.name()
                              + "'; the class name must match the Table ID)")
                  .orElse(""));
      return;
    }
    PythonModule.PythonClass cls = found.get();
    if (!cls.inheritsTable()) {
      sink.error(
          RuleIds.PYTHON_CLASS,
          cls.pos(),
          "class '"
              + className
              + "' must inherit Table (from weaver import Table); write 'class "
              + className
              + "(Table):'");
    }
    Optional<PythonModule.Method> read = cls.method("read");
    if (read.isEmpty()) {
      sink.error(
          RuleIds.PYTHON_CLASS,
          cls.pos(),
          "class '"
              + className
              + "' has no 'def read(self):'; implement it to return the staging DataFrame");
    } else if (read.get().async()) {
      sink.error(
          RuleIds.PYTHON_CLASS,
          read.get().pos(),
          "read() of '" + className + "' is async; make it a synchronous 'def read(self):'");
    } else if (!isSelfOnly(read.get().parameters())) {
      sink.error(
          RuleIds.PYTHON_CLASS,
          read.get().pos(),
          "read() of '"
              + className
              + "' must take only self, not ("
              + String.join(", ", read.get().parameters())
              + ")");
    }
  }

  private static boolean isSelfOnly(List<String> parameters) {
    return parameters.size() == 1 && parameters.get(0).replaceAll("\\s", "").matches("self(:.*)?");
  }

  /** Checks a SQL body; returns the first result query's statically visible columns, if any. */
  static Optional<List<StaticColumn>> sql(
      TableDeclaration table, TableBody.Sql body, FindingSink sink) {
    SqlBodyAnalysis analysis = body.analysis();
    if (analysis.syntaxError().isPresent()) {
      var e = analysis.syntaxError().get();
      sink.error(RuleIds.SQL_SYNTAX, new SourcePos(e.line(), e.column()), e.getMessage());
      return Optional.empty();
    }
    statements(body.dialect(), analysis, sink);
    int results = analysis.resultQueries().size();
    boolean dynamic = !analysis.dynamicSqlAt().isEmpty();
    for (SqlToken at : analysis.dynamicSqlAt()) {
      sink.warning(
          RuleIds.DYNAMIC_SQL,
          new SourcePos(at.line(), at.column()),
          "dynamic SQL: result queries cannot be counted statically; the Warehouse endpoint"
              + " decides when Build or Load runs this Table");
    }
    SourcePos end = endOf(body, analysis);
    if (results == 0 && !dynamic) {
      sink.error(
          RuleIds.RESULT_QUERIES,
          end,
          "the body has no result query; end it with a query that returns the staging rows (SELECT …"
              + (body.dialect() == SqlDialect.SPARK ? ";" : "")
              + ")");
    } else if (results > 2) {
      SqlStatement third = analysis.resultQueries().get(2);
      sink.error(
          RuleIds.RESULT_QUERIES,
          new SourcePos(third.line(), third.column()),
          "the body has "
              + results
              + " result queries; at most two are allowed (staging rows, then delete keys). Turn"
              + " the others into setup statements (e.g. temporary views)");
    } else if (results == 2 && !(table.incremental() && table.keyed())) {
      SqlStatement second = analysis.resultQueries().get(1);
      sink.error(
          RuleIds.DELETE_QUERY,
          new SourcePos(second.line(), second.column()),
          "a second result query supplies delete keys, which needs 'Incremental: true' and a"
              + " 'Primary key'; declare both or remove the second query");
    }
    if (results == 2 && table.incremental() && table.keyed()) {
      deleteKeyColumns(table, analysis.resultQueries().get(1), body.dialect(), sink);
    }
    return analysis.resultQueries().isEmpty()
        ? Optional.empty()
        : StaticColumns.of(analysis.resultQueries().get(0), body.dialect());
  }

  /** The delete-key query returns exactly the primary-key columns (when they are visible). */
  private static void deleteKeyColumns(
      TableDeclaration table, SqlStatement query, SqlDialect dialect, FindingSink sink) {
    Optional<List<StaticColumn>> columns = StaticColumns.of(query, dialect);
    if (columns.isEmpty()) {
      return;
    }
    List<String> names = columns.get().stream().map(StaticColumn::name).toList();
    List<String> key = table.primaryKey().orElseThrow().columns();
    if (names.size() != key.size() || !names.containsAll(key)) {
      sink.error(
          RuleIds.DELETE_QUERY,
          new SourcePos(query.line(), query.column()),
          "the delete-key query returns ("
              + String.join(", ", names)
              + ") but must return exactly the primary-key columns ("
              + String.join(", ", key)
              + ")");
    }
  }

  /** Checks an authored test body: exactly one result query. */
  static void testQuery(TableBody.Sql body, FindingSink sink) {
    SqlBodyAnalysis analysis = body.analysis();
    if (analysis.syntaxError().isPresent()) {
      var e = analysis.syntaxError().get();
      sink.error(RuleIds.SQL_SYNTAX, new SourcePos(e.line(), e.column()), e.getMessage());
      return;
    }
    statements(body.dialect(), analysis, sink);
    if (analysis.resultQueries().size() != 1) {
      sink.error(
          RuleIds.RESULT_QUERIES,
          endOf(body, analysis),
          "a test has exactly one query whose rows are the violations; this one has "
              + analysis.resultQueries().size());
    }
  }

  private static void statements(SqlDialect dialect, SqlBodyAnalysis analysis, FindingSink sink) {
    for (SqlStatement statement : analysis.statements()) {
      if (statement.kind() == SqlStatement.Kind.GO_BATCH) {
        sink.error(
            RuleIds.GO_BATCH,
            new SourcePos(statement.line(), statement.column()),
            "GO is a client batch separator and is not accepted in a Table; remove it (end"
                + " statements with ; if you like)");
      } else if (dialect == SqlDialect.SPARK && !statement.terminated()) {
        SqlToken last = statement.tokens().get(statement.tokens().size() - 1);
        sink.error(
            RuleIds.STATEMENT_TERMINATOR,
            new SourcePos(last.line(), last.column() + last.text().length()),
            "this statement is not ended by ';'; every Spark SQL statement, including the last,"
                + " ends with ;");
      }
    }
  }

  private static SourcePos endOf(TableBody.Sql body, SqlBodyAnalysis analysis) {
    if (analysis.statements().isEmpty()) {
      return body.start();
    }
    SqlStatement last = analysis.statements().get(analysis.statements().size() - 1);
    return new SourcePos(last.line(), last.column());
  }
}
