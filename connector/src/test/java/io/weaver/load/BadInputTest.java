package io.weaver.load;

import static io.weaver.load.TestTable.T1;
import static io.weaver.load.TestTable.T2;
import static io.weaver.load.TestTable.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.load.expectations.StagingValidator;
import io.weaver.load.records.LoadOutcome;
import io.weaver.load.records.LoadRequest;
import io.weaver.load.spec.LoadSpec;
import io.weaver.load.spec.LoadStatus;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Input refused before any write: each case names table and column, and history stays put. */
class BadInputTest {
  @TempDir static Path dir;
  private static TestTable table;
  private static long history;

  @BeforeAll
  static void seed() {
    LoadSpec base = TestTable.keyedSpec(dir, true);
    table = new TestTable(base.toBuilder().notNull(List.of("name")).build());
    assertEquals(
        LoadStatus.SUCCEEDED,
        table.load(table.rows(row(1, "a", 10), row(2, "b", 20)), T1).status());
    history = table.historySize();
  }

  private static String fails(LoadOutcome outcome) {
    assertEquals(LoadStatus.FAILED, outcome.status(), outcome.message());
    assertTrue(outcome.message().startsWith(TestTable.NAME + ": "), outcome.message());
    assertEquals(history, table.historySize(), "nothing written");
    return outcome.message();
  }

  @Test
  void duplicateKey() {
    String message =
        fails(table.load(table.rows(row(3, "c", 1), row(3, "d", 2), row(4, "e", 3)), T2));
    assertTrue(
        message.contains("primary key [`id`]: 1 duplicate row(s); sample keys [{\"id\":3}]"),
        message);
  }

  @Test
  void nullKeyAndNullInNotNullColumn() {
    StructType nullable =
        new StructType()
            .add("id", DataTypes.IntegerType)
            .add("name", DataTypes.StringType)
            .add("weight", DataTypes.IntegerType);
    String message =
        fails(table.load(table.rows(nullable, row(null, "c", 1), row(5, null, 2)), T2));
    assertTrue(message.contains("column `id`: 1 null(s) in primary-key column"), message);
    assertTrue(
        message.contains("column `name`: 1 null(s) in Not null column; sample [{\"id\":5}]"),
        message);
  }

  @Test
  void keyBothStagedAndDeleted() {
    String message =
        fails(table.loadWithDeletes(table.rows(row(1, "a", 11)), table.keys(1, 2), T2));
    assertTrue(
        message.contains(
            "primary key [`id`]: keys both staged and in the delete keys, sample [{\"id\":1}]"),
        message);
  }

  @Test
  void missingAndExtraColumns() {
    StructType wrong =
        new StructType()
            .add("id", DataTypes.IntegerType)
            .add("Name", DataTypes.StringType)
            .add("colour", DataTypes.StringType);
    String message = fails(table.load(table.rows(wrong, row(7, "x", "red")), T2));
    assertTrue(message.contains("missing column(s) [`name`, `weight`]"), message);
    assertTrue(message.contains("unexpected column(s) [`Name`, `colour`]"), message);
  }

  @Test
  void valueFailingItsCast() {
    StructType text =
        new StructType()
            .add("id", DataTypes.IntegerType)
            .add("name", DataTypes.StringType)
            .add("weight", DataTypes.StringType);
    String message =
        fails(table.load(table.rows(text, row(8, "h", "12"), row(9, "i", "heavy")), T2));
    assertTrue(message.contains("column `weight`: 1 value(s) cannot be cast to INT"), message);
    assertTrue(message.contains("{\"id\":9,\"weight\":\"heavy\"}"), message);
  }

  @Test
  void castableTextIsAccepted() {
    // Control for valueFailingItsCast: same shape, all values castable -> the load validates.
    StructType text =
        new StructType()
            .add("id", DataTypes.IntegerType)
            .add("name", DataTypes.StringType)
            .add("weight", DataTypes.StringType);
    StagingValidator.Validated v =
        new StagingValidator(table.spec)
            .validate(table.rows(text, row(8, "h", "12")), Optional.empty());
    assertEquals(1, v.rowCount());
    assertEquals(DataTypes.IntegerType, v.rows().schema().apply("weight").dataType());
  }

  @Test
  void deleteKeysOnNonIncrementalTable() {
    LoadSpec s = table.spec;
    LoadSpec full = s.toBuilder().incremental(false).build();
    Dataset<Row> staging = table.rows(row(1, "a", 10));
    String message =
        fails(
            LoadEngine.apply(
                table.spark,
                new LoadRequest(
                    full, staging, Optional.of(table.keys(2)), T2, "bad", 99, false, "{}"),
                FaultPoints.installed()));
    assertTrue(message.contains("delete keys but the Table is not incremental"), message);
  }
}
