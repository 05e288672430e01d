package io.weaver.install;

import io.weaver.metadata.ColumnNote;
import io.weaver.metadata.ColumnSet;
import io.weaver.metadata.ForeignKey;
import io.weaver.metadata.ManagedColumns;
import io.weaver.metadata.SchemaColumn;
import io.weaver.metadata.SqlProgram;
import io.weaver.metadata.TableBody;
import io.weaver.metadata.TableDeclaration;
import io.weaver.staging.SqlStaging;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Establishes a Table's business shape: the declared {@code Schema} with its type texts parsed by
 * Spark, or the staging query's shape, analysed (not executed) in an isolated session after its
 * session-shaping setup statements. The shape rules of Check (docs/table-contract.md, "Check") are
 * applied to an inferred shape here, since Check could not see it.
 */
final class ShapeResolver {
  private final SparkSession spark;

  ShapeResolver(SparkSession spark) {
    this.spark = spark;
  }

  TableShape shape(TableDeclaration table) {
    if (table.schema().isPresent()) {
      return declared(table);
    }
    return inferred(table);
  }

  private TableShape declared(TableDeclaration table) {
    List<String> required = table.requiredColumns();
    List<BuiltColumn> columns = new ArrayList<>();
    for (SchemaColumn column : table.schema().orElseThrow()) {
      DataType type;
      try {
        type = DataType.fromDDL(column.type());
      } catch (Exception e) {
        throw new BuildProblem(
            where(table, column.pos().line())
                + "column '"
                + column.name()
                + "' has type '"
                + column.type()
                + "', which Spark does not accept ("
                + firstLine(e.getMessage())
                + "); use a Spark SQL type such as string, bigint, decimal(18,2), timestamp");
      }
      columns.add(new BuiltColumn(column.name(), type, !required.contains(column.name())));
    }
    return new TableShape(columns, false);
  }

  private TableShape inferred(TableDeclaration table) {
    TableBody.Sql body = (TableBody.Sql) table.body();
    StructType schema;
    try {
      schema = SqlStaging.forShape(spark, table, SqlProgram.of(body)).staging().schema();
    } catch (Exception e) {
      throw new BuildProblem(
          where(table, body.start().line())
              + "the staging query cannot be analysed: "
              + firstLine(e.getMessage())
              + ". Fix the query, or build the Tables it reads first",
          e);
    }
    List<String> required = table.requiredColumns();
    List<BuiltColumn> columns = new ArrayList<>();
    for (StructField field : schema.fields()) {
      columns.add(
          new BuiltColumn(field.name(), field.dataType(), !required.contains(field.name())));
    }
    TableShape shape = new TableShape(columns, true);
    checkInferred(table, shape);
    return shape;
  }

  /**
   * The shape rules of Check (docs/table-contract.md, "Check") on an inferred shape; all problems
   * in one message.
   */
  private static void checkInferred(TableDeclaration table, TableShape shape) {
    List<String> problems = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (String name : shape.names()) {
      if (!seen.add(name.toLowerCase(Locale.ROOT))) {
        problems.add(
            "the query returns column '"
                + name
                + "' more than once (or differing only in case) [duplicate-column]");
      }
      ManagedColumns.collision(table.target(), name)
          .ifPresent(
              m ->
                  problems.add(
                      "the query returns '"
                          + name
                          + "', which collides with managed column '"
                          + m
                          + "' [managed-name]"));
      if (table.identity().map(name::equals).orElse(false)) {
        problems.add(
            "the query returns Identity column '" + name + "'; Weaver generates it [identity]");
      }
    }
    List<String> names = shape.names();
    List<String> referenced = new ArrayList<>();
    table.primaryKey().map(ColumnSet::columns).ifPresent(referenced::addAll);
    table.uniqueKeys().forEach(k -> referenced.addAll(k.columns()));
    referenced.addAll(table.notNull());
    table.comparisonColumns().map(ColumnSet::columns).ifPresent(referenced::addAll);
    table.foreignKeys().stream()
        .map(ForeignKey::childColumns)
        .forEach(k -> referenced.addAll(k.columns()));
    table.columnNotes().stream().map(ColumnNote::column).forEach(referenced::add);
    referenced.stream()
        .distinct()
        .filter(c -> !names.contains(c))
        .forEach(
            c ->
                problems.add(
                    "column '"
                        + c
                        + "' is named in the header but the query does not return it (it returns "
                        + String.join(", ", names)
                        + ") [unknown-column]"));
    if (!problems.isEmpty()) {
      throw new BuildProblem(where(table, 0) + String.join("; ", problems));
    }
  }

  static String where(TableDeclaration table, int line) {
    return table.source().relativePath()
        + (line > 0 ? ":" + line : "")
        + ": "
        + table.qualifiedName()
        + ": ";
  }

  static String firstLine(String message) {
    if (message == null) {
      return "unknown error";
    }
    return message.lines().map(String::strip).filter(l -> !l.isEmpty()).findFirst().orElse(message);
  }
}
