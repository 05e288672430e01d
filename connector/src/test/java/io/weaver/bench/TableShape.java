package io.weaver.bench;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat_ws;
import static org.apache.spark.sql.functions.sha2;

import io.weaver.catalyst.signature.RowSignature;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * The shape of a benchmark's keyed target: its business columns, its primary key (one column or
 * several) and the body Build declares it with. Every approach derives its signatures, joins and
 * MERGE conditions from here, so the synthetic and the TPC-H workload share one implementation.
 *
 * @param columns the business columns, in table order (keys included)
 * @param key the primary key columns, in declared order
 * @param declarationBody a SQL body returning the columns with no rows (Build infers the shape)
 * @param expectations row expectations over the business columns that every row of the workload
 *     meets (the {@code weaver_expectations} approach declares them); empty for none
 */
record TableShape(
    List<String> columns, List<String> key, String declarationBody, List<Expect> expectations) {
  /** Prefix of the target's key columns where a join needs both sides' keys apart. */
  static final String TARGET_PREFIX = "t_";

  /**
   * One row expectation as a Table header declares it (docs/table-contract.md, "Expectations").
   *
   * @param action {@code warn}, {@code quarantine} or {@code fail}
   */
  record Expect(String name, String rule, String action) {}

  TableShape {
    columns = List.copyOf(columns);
    key = List.copyOf(key);
    expectations = List.copyOf(expectations);
    if (!columns.containsAll(key)) {
      throw new IllegalArgumentException("key " + key + " not among the columns " + columns);
    }
  }

  TableShape(List<String> columns, List<String> key, String declarationBody) {
    this(columns, key, declarationBody, List.of());
  }

  /** The header's {@code Expectations:} block (with its trailing newline), or "" for none. */
  String expectationsBlock() {
    if (expectations.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder("Expectations:\n");
    for (Expect e : expectations) {
      out.append("  ").append(e.name()).append(":\n");
      out.append("    rule: ").append(e.rule()).append('\n');
      out.append("    on violation: ").append(e.action()).append('\n');
    }
    return out.toString();
  }

  /** The non-key columns: what the row signature (Weaver's and the hand-written one) covers. */
  List<String> valueColumns() {
    return columns.stream().filter(c -> !key.contains(c)).toList();
  }

  /** Weaver's row signature over the comparison columns, as the engine computes it. */
  Column weaverSignature() {
    return RowSignature.rowSignature(valueColumns().stream().map(TableShape::column).toList());
  }

  /** The hand-written signature: {@code sha2(concat_ws('|', …), 256)} over the value columns. */
  Column hashSignature() {
    Column[] text =
        valueColumns().stream().map(c -> column(c).cast("string")).toArray(Column[]::new);
    return sha2(concat_ws("|", text), 256);
  }

  /** The target's key columns renamed with {@link #TARGET_PREFIX}, to join against staging. */
  List<Column> targetKeys() {
    return key.stream().map(k -> column(k).as(TARGET_PREFIX + k)).toList();
  }

  /** Staging's key equals the target's (renamed by {@link #targetKeys}). */
  Column keyJoin(Dataset<Row> staging) {
    Column on = null;
    for (String k : key) {
      Column eq = staging.col(quote(k)).equalTo(column(TARGET_PREFIX + k));
      on = on == null ? eq : on.and(eq);
    }
    return on;
  }

  /** The row of a full outer join is only in the target (key columns are NOT NULL). */
  Column onlyInTarget() {
    return column(key.get(0)).isNull();
  }

  /** The row of a full outer join is only in staging. */
  Column onlyInStaging() {
    return column(TARGET_PREFIX + key.get(0)).isNull();
  }

  /** Both sides' keys merged into the key columns, so a MERGE can match deletes too. */
  Dataset<Row> coalesceKeys(Dataset<Row> joined) {
    Dataset<Row> out = joined;
    for (String k : key) {
      out = out.withColumn(k, coalesce(column(k), column(TARGET_PREFIX + k)));
    }
    return out;
  }

  /** The MERGE condition between aliases {@code t} and {@code s}, identifiers quoted. */
  String mergeCondition() {
    return key.stream()
        .map(k -> "t." + quote(k) + " = s." + quote(k))
        .collect(Collectors.joining(" AND "));
  }

  /**
   * {@code column → s.column} for the given columns (MERGE {@code updateExpr}/{@code insertExpr}).
   */
  static Map<String, String> fromSource(List<String> names) {
    Map<String, String> set = new LinkedHashMap<>();
    names.forEach(c -> set.put(quote(c), "s." + quote(c)));
    return set;
  }

  /** The Table header's key line: {@code Primary key: a, b}. */
  String primaryKeyLine() {
    return "Primary key: " + String.join(", ", key);
  }

  static List<Column> columns(List<String> names) {
    List<Column> out = new ArrayList<>();
    names.forEach(n -> out.add(column(n)));
    return out;
  }

  static Column column(String name) {
    return col(quote(name));
  }

  /** A Spark SQL identifier, backquoted. */
  static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }
}
