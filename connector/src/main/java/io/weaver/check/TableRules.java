package io.weaver.check;

import static io.weaver.metadata.TableKeys.*;

import io.weaver.findings.FindingSink;
import io.weaver.findings.RuleIds;
import io.weaver.findings.SourcePos;
import io.weaver.metadata.ColumnNote;
import io.weaver.metadata.ColumnSet;
import io.weaver.metadata.ForeignKey;
import io.weaver.metadata.ManagedColumns;
import io.weaver.metadata.SchemaColumn;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.sql.StaticColumn;
import io.weaver.workspace.Form;
import io.weaver.workspace.Identifiers;
import io.weaver.workspace.TableId;
import io.weaver.workspace.Target;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.CharType;
import org.apache.spark.sql.types.DataType;
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
import org.apache.spark.sql.types.VarcharType;

/**
 * The rules of one Table that need no other file: the incompatible combinations
 * (docs/table-contract.md, "Keys"), managed-name collisions and, when the business shape is known
 * (declared {@code Schema} or a statically visible query result), unknown and duplicate columns.
 */
final class TableRules {
  /** What a {@code Sequence column} message ends with: the choice the author has. */
  private static final String ORDERED_TYPES =
      "an integral number (tinyint, smallint, int, bigint), decimal, float, double, string, date,"
          + " timestamp or timestamp_ntz";

  /** The same for a Warehouse Table, whose {@code Schema} holds T-SQL types. */
  private static final String ORDERED_TSQL_TYPES =
      "an integral number (tinyint, smallint, int, bigint), decimal, numeric, float, real, char,"
          + " varchar, nchar, nvarchar, date, datetime2, datetime, smalldatetime or datetimeoffset";

  /** T-SQL types (without their length or precision) whose values order versions. */
  private static final Set<String> TSQL_ORDERED =
      Set.of(
          "tinyint",
          "smallint",
          "int",
          "bigint",
          "decimal",
          "numeric",
          "float",
          "real",
          "char",
          "varchar",
          "nchar",
          "nvarchar",
          "date",
          "datetime2",
          "datetime",
          "smalldatetime",
          "datetimeoffset");

  private final TableDeclaration table;
  private final FindingSink sink;

  private TableRules(TableDeclaration table, FindingSink sink) {
    this.table = table;
    this.sink = sink;
  }

  /**
   * Checks a Table. {@code resultColumns} are the first result query's columns when they are
   * statically visible.
   */
  static void check(
      TableDeclaration table, FindingSink sink, Optional<List<StaticColumn>> resultColumns) {
    TableRules rules = new TableRules(table, sink);
    rules.controlCharacters(resultColumns);
    rules.fileName();
    rules.combinations();
    rules.identity(resultColumns);
    table.schema().ifPresent(rules::managedNames);
    resultColumns.ifPresent(rules::resultShape);
    Optional<List<String>> business =
        table
            .schemaColumnNames()
            .or(() -> resultColumns.map(c -> c.stream().map(StaticColumn::name).toList()));
    business.ifPresent(rules::knownColumns);
    rules.sequenceColumn(business);
    rules.history();
  }

  /**
   * Every column name the Table declares or its query visibly returns, one line of visible
   * characters: a line break or other control character in a name would survive quoting in
   * generated SQL but break everything written line by line (comments, messages, logs).
   */
  private void controlCharacters(Optional<List<StaticColumn>> resultColumns) {
    table
        .schema()
        .ifPresent(cols -> cols.forEach(c -> controlCharacter(SCHEMA, c.name(), c.pos())));
    table
        .primaryKey()
        .ifPresent(k -> k.columns().forEach(c -> controlCharacter(PRIMARY_KEY, c, k.pos())));
    table
        .uniqueKeys()
        .forEach(k -> k.columns().forEach(c -> controlCharacter(UNIQUE_KEYS, c, k.pos())));
    table.notNull().forEach(c -> controlCharacter(NOT_NULL, c, table.posOf(NOT_NULL)));
    table
        .comparisonColumns()
        .ifPresent(k -> k.columns().forEach(c -> controlCharacter(COMPARISON_COLUMNS, c, k.pos())));
    table.identity().ifPresent(c -> controlCharacter(IDENTITY, c, table.posOf(IDENTITY)));
    table
        .sequenceColumn()
        .ifPresent(c -> controlCharacter(SEQUENCE_COLUMN, c, table.posOf(SEQUENCE_COLUMN)));
    for (ForeignKey fk : table.foreignKeys()) {
      fk.childColumns().columns().forEach(c -> controlCharacter(FOREIGN_KEYS, c, fk.pos()));
      fk.parentColumns().forEach(c -> controlCharacter(FOREIGN_KEYS, c, fk.pos()));
    }
    table.columnNotes().forEach(n -> controlCharacter(COLUMN_NOTES, n.column(), n.pos()));
    resultColumns.ifPresent(
        cols ->
            cols.forEach(
                c ->
                    controlCharacter(
                        "the query result", c.name(), new SourcePos(c.line(), c.column()))));
  }

  private void controlCharacter(String where, String name, SourcePos pos) {
    if (Identifiers.hasControl(name)) {
      sink.error(
          RuleIds.CONTROL_CHARACTER,
          pos,
          "column name '"
              + Identifiers.visible(name)
              + "' in "
              + (where.startsWith("the ") ? where : "'" + where + "'")
              + " contains a control character (a line break, tab or other invisible"
              + " character); rename the column to one line of visible characters");
    }
  }

  private void fileName() {
    if (!table.authoredKeys().containsKey(TABLE_ID)) {
      return;
    }
    boolean python = table.source().form() == Form.PYTHON;
    String expected = python ? table.tableId().pythonName() : table.tableId().toString();
    if (!table.source().stem().equals(expected)) {
      String ext = python ? ".py" : ".sql";
      sink.error(
          RuleIds.ID_MISMATCH,
          table.posOf(TABLE_ID),
          "Table ID '"
              + table.tableId()
              + "' does not match the file name '"
              + table.source().stem()
              + ext
              + "'; rename the file to '"
              + expected
              + ext
              + "' or fix the Table ID (they must agree exactly, including case)");
    }
  }

  private void combinations() {
    Optional<ColumnSet> pk = table.primaryKey();
    if (table.incremental() && pk.isEmpty()) {
      sink.error(
          RuleIds.INCREMENTAL_WITHOUT_KEY,
          table.posOf(INCREMENTAL),
          "'Incremental: true' needs a 'Primary key' to follow rows by; add one or remove"
              + " Incremental");
    }
    if (table.authoredKeys().containsKey(DELETES) && pk.isEmpty()) {
      sink.error(
          RuleIds.DELETES,
          table.posOf(DELETES),
          "'Deletes' needs a 'Primary key': a Table without one is replaced whole by each load,"
              + " so no key is ever deleted; add a key or remove Deletes");
    }
    table
        .comparisonColumns()
        .ifPresent(
            cc -> {
              if (pk.isEmpty()) {
                sink.error(
                    RuleIds.COMPARISON_COLUMNS,
                    table.posOf(COMPARISON_COLUMNS),
                    "'Comparison columns' needs a 'Primary key'; add one or remove Comparison"
                        + " columns");
              } else {
                cc.columns().stream()
                    .filter(pk.get()::contains)
                    .forEach(
                        c ->
                            sink.error(
                                RuleIds.COMPARISON_COLUMNS,
                                table.posOf(COMPARISON_COLUMNS),
                                "'Comparison columns' contains primary-key column '"
                                    + c
                                    + "'; key columns identify a row and are never compared,"
                                    + " remove it"));
              }
            });
    pk.ifPresent(
        key ->
            table.notNull().stream()
                .filter(key::contains)
                .forEach(
                    c ->
                        sink.error(
                            RuleIds.NOT_NULL_REPEATS_KEY,
                            table.posOf(NOT_NULL),
                            "'Not null' repeats primary-key column '"
                                + c
                                + "'; key columns are already not null, remove it")));
    uniqueKeys(pk);
    if (table.source().form() == Form.PYTHON && !table.hasLoadProcedure()) {
      sink.error(
          RuleIds.NO_LOAD_PYTHON,
          table.posOf(HAS_LOAD_PROCEDURE),
          "'Has load procedure: false' is accepted only for Spark SQL and T-SQL Tables; a Python"
              + " Table is loaded through read(), remove the key");
    }
  }

  private void uniqueKeys(Optional<ColumnSet> pk) {
    List<ColumnSet> seen = new ArrayList<>();
    for (ColumnSet key : table.uniqueKeys()) {
      if (pk.isPresent() && key.sameColumns(pk.get())) {
        sink.error(
            RuleIds.UNIQUE_KEYS,
            key.pos(),
            "unique key ("
                + key
                + ") equals the primary key; the primary key is already unique, remove it");
      } else if (seen.stream().anyMatch(key::sameColumns)) {
        sink.error(
            RuleIds.UNIQUE_KEYS, key.pos(), "unique key (" + key + ") is listed twice; keep one");
      }
      seen.add(key);
    }
  }

  private void identity(Optional<List<StaticColumn>> resultColumns) {
    if (table.identity().isEmpty()) {
      return;
    }
    String identity = table.identity().get();
    SourcePos pos = table.posOf(IDENTITY);
    if (table.schemaColumnNames().map(cols -> cols.contains(identity)).orElse(false)) {
      sink.error(
          RuleIds.IDENTITY,
          pos,
          "Identity column '"
              + identity
              + "' also appears in Schema; Weaver adds and generates it, remove it from Schema");
    }
    if (table.primaryKey().map(pk -> pk.columns().equals(List.of(identity))).orElse(false)) {
      sink.error(
          RuleIds.IDENTITY,
          pos,
          "Identity column '"
              + identity
              + "' is the primary key; the key must come from the data, choose business columns");
    }
    ManagedColumns.collision(table.target(), identity)
        .ifPresent(
            m ->
                sink.error(
                    RuleIds.IDENTITY,
                    pos,
                    "Identity column '"
                        + identity
                        + "' collides with managed column '"
                        + m
                        + "'; rename it"));
    resultColumns.ifPresent(
        cols ->
            cols.stream()
                .filter(c -> c.name().equals(identity))
                .forEach(
                    c ->
                        sink.error(
                            RuleIds.IDENTITY,
                            new SourcePos(c.line(), c.column()),
                            "the query returns Identity column '"
                                + identity
                                + "'; Weaver generates it, remove it from the query")));
  }

  /**
   * The {@code Sequence column} (docs/table-contract.md, "Sequence column"): needs a primary key;
   * names one business column (when the shape is known), not a key column, not the Identity column,
   * and (when Schema declares it) of a type whose values order the versions of a key. The reader
   * has refused a list or several names already.
   */
  private void sequenceColumn(Optional<List<String>> business) {
    if (table.sequenceColumn().isEmpty()) {
      return;
    }
    String column = table.sequenceColumn().get();
    SourcePos pos = table.posOf(SEQUENCE_COLUMN);
    Optional<ColumnSet> pk = table.primaryKey();
    if (pk.isEmpty()) {
      sink.error(
          RuleIds.SEQUENCE_COLUMN,
          pos,
          "'Sequence column' needs a 'Primary key': sequence column '"
              + column
              + "' orders the versions of one key, and a Table without a key is replaced whole"
              + " by each load; add a key or remove Sequence column");
    } else if (pk.get().contains(column)) {
      sink.error(
          RuleIds.SEQUENCE_COLUMN,
          pos,
          "sequence column '"
              + column
              + "' is a primary-key column; key columns identify a row and never change between"
              + " its versions, so they cannot order them: choose a non-key column such as an"
              + " event time or a version number");
    }
    if (table.identity().map(column::equals).orElse(false)) {
      sink.error(
          RuleIds.SEQUENCE_COLUMN,
          pos,
          "sequence column '"
              + column
              + "' is the Identity column; Weaver generates it when a key is first inserted, so"
              + " it does not order the versions of a key: choose a business column such as an"
              + " event time or a version number");
      return;
    }
    if (business.isPresent() && !business.get().contains(column)) {
      String shape = table.schema().isPresent() ? "Schema" : "the query result";
      Optional<String> caseOnly =
          business.get().stream().filter(b -> b.equalsIgnoreCase(column)).findFirst();
      sink.error(
          RuleIds.SEQUENCE_COLUMN,
          pos,
          "sequence column '"
              + column
              + "' is not a column of "
              + shape
              + caseOnly
                  .map(c -> "; did you mean '" + c + "' (names are exact-case)?")
                  .orElse("; name one of its columns"));
      return;
    }
    table.schema().stream()
        .flatMap(List::stream)
        .filter(c -> c.name().equals(column))
        .findFirst()
        .ifPresent(c -> sequenceType(c, pos));
  }

  /**
   * {@code History} (docs/table-contract.md, "History"): a keyed Table's that Weaver loads; and no
   * Table's object name ends in the history tables' suffix, so a history table's name is never a
   * declared Table's.
   */
  private void history() {
    String object = table.tableId().object();
    if (object.endsWith(TableId.HISTORY_SUFFIX)) {
      sink.error(
          RuleIds.HISTORY,
          table.posOf(TABLE_ID),
          "object name '"
              + object
              + "' ends in '"
              + TableId.HISTORY_SUFFIX
              + "', which names the history table of a Table with 'History: true'; rename the"
              + " Table");
    }
    if (!table.history()) {
      return;
    }
    SourcePos pos = table.posOf(HISTORY);
    if (!table.hasLoadProcedure()) {
      sink.error(
          RuleIds.HISTORY,
          pos,
          "'History: true' with 'Has load procedure: false': Weaver does not load this Table, so"
              + " it has no versions to keep; remove one of the two");
    } else if (table.primaryKey().isEmpty()) {
      sink.error(
          RuleIds.HISTORY,
          pos,
          "'History: true' needs a 'Primary key': history keeps the versions of each key, and a"
              + " Table without a key is replaced whole by each load; add a key or remove History");
    } else if (object.length() + TableId.HISTORY_SUFFIX.length() > Identifiers.MAX_LENGTH) {
      sink.error(
          RuleIds.HISTORY,
          pos,
          "the history table's name '"
              + object
              + TableId.HISTORY_SUFFIX
              + "' would be longer than "
              + Identifiers.MAX_LENGTH
              + " characters; shorten the object name to at most "
              + (Identifiers.MAX_LENGTH - TableId.HISTORY_SUFFIX.length())
              + " or remove History");
    }
  }

  /** Reports a declared type whose values do not order; a type Spark refuses is Build's. */
  private void sequenceType(SchemaColumn column, SourcePos pos) {
    boolean warehouse = table.target() == Target.WAREHOUSE;
    boolean orders;
    if (warehouse) {
      String base = column.type().strip().replaceFirst("\\s*\\(.*$", "").toLowerCase(Locale.ROOT);
      orders = TSQL_ORDERED.contains(base);
    } else {
      try {
        orders = ordersVersions(DataType.fromDDL(column.type()));
      } catch (RuntimeException e) {
        return;
      }
    }
    if (!orders) {
      sink.error(
          RuleIds.SEQUENCE_COLUMN,
          pos,
          "sequence column '"
              + column.name()
              + "' has type "
              + column.type()
              + ", whose values do not order the versions of a key; choose a column of "
              + (warehouse ? ORDERED_TSQL_TYPES : ORDERED_TYPES));
    }
  }

  private static boolean ordersVersions(DataType type) {
    return type instanceof ByteType
        || type instanceof ShortType
        || type instanceof IntegerType
        || type instanceof LongType
        || type instanceof DecimalType
        || type instanceof FloatType
        || type instanceof DoubleType
        || type instanceof StringType
        || type instanceof CharType
        || type instanceof VarcharType
        || type instanceof DateType
        || type instanceof TimestampType
        || type instanceof TimestampNTZType;
  }

  private void managedNames(List<SchemaColumn> columns) {
    for (SchemaColumn column : columns) {
      ManagedColumns.collision(table.target(), column.name())
          .ifPresent(
              m ->
                  sink.error(
                      RuleIds.MANAGED_NAME,
                      column.pos(),
                      "column '"
                          + column.name()
                          + "' collides with managed column '"
                          + m
                          + "'; rename it"));
    }
  }

  private void resultShape(List<StaticColumn> columns) {
    Set<String> seen = new HashSet<>();
    for (StaticColumn column : columns) {
      SourcePos pos = new SourcePos(column.line(), column.column());
      if (!seen.add(column.name().toLowerCase(Locale.ROOT))) {
        sink.error(
            RuleIds.DUPLICATE_COLUMN,
            pos,
            "the query returns column '"
                + column.name()
                + "' twice (names may not differ only in case); alias one of them");
      }
      if (table.schema().isEmpty()) {
        ManagedColumns.collision(table.target(), column.name())
            .ifPresent(
                m ->
                    sink.error(
                        RuleIds.MANAGED_NAME,
                        pos,
                        "the query returns '"
                            + column.name()
                            + "', which collides with managed column '"
                            + m
                            + "'; alias it"));
      }
    }
    table.schemaColumnNames().ifPresent(declared -> compareWithSchema(declared, columns));
  }

  private void compareWithSchema(List<String> declared, List<StaticColumn> columns) {
    List<String> returned = columns.stream().map(StaticColumn::name).toList();
    String identity = table.identity().orElse(null);
    for (StaticColumn column : columns) {
      if (!declared.contains(column.name()) && !column.name().equals(identity)) {
        Optional<String> caseOnly =
            declared.stream().filter(d -> d.equalsIgnoreCase(column.name())).findFirst();
        sink.error(
            RuleIds.SCHEMA_MISMATCH,
            new SourcePos(column.line(), column.column()),
            caseOnly
                .map(
                    d ->
                        "the query returns '"
                            + column.name()
                            + "' but Schema spells it '"
                            + d
                            + "'; use the exact declared spelling")
                .orElse(
                    "the query returns '"
                        + column.name()
                        + "', which Schema does not declare; declare it or remove it from the query"));
      }
    }
    for (String column : declared) {
      if (returned.stream().noneMatch(r -> r.equalsIgnoreCase(column))) {
        sink.error(
            RuleIds.SCHEMA_MISMATCH,
            table.posOf(SCHEMA),
            "Schema declares '"
                + column
                + "' but the query does not return it; return it or remove it from Schema");
      }
    }
  }

  private void knownColumns(List<String> business) {
    String shape = table.schema().isPresent() ? "Schema" : "the query result";
    table
        .primaryKey()
        .ifPresent(
            k -> columns(PRIMARY_KEY, k.columns(), table.posOf(PRIMARY_KEY), business, shape));
    table.uniqueKeys().forEach(k -> columns(UNIQUE_KEYS, k.columns(), k.pos(), business, shape));
    columns(NOT_NULL, table.notNull(), table.posOf(NOT_NULL), business, shape);
    table
        .comparisonColumns()
        .ifPresent(
            k ->
                columns(
                    COMPARISON_COLUMNS,
                    k.columns(),
                    table.posOf(COMPARISON_COLUMNS),
                    business,
                    shape));
    for (ForeignKey fk : table.foreignKeys()) {
      columns(FOREIGN_KEYS, fk.childColumns().columns(), fk.pos(), business, shape);
    }
    for (ColumnNote note : table.columnNotes()) {
      columns(COLUMN_NOTES, List.of(note.column()), note.pos(), business, shape);
    }
  }

  private void columns(
      String key, List<String> names, SourcePos pos, List<String> business, String shape) {
    for (String name : names) {
      if (!business.contains(name)) {
        Optional<String> caseOnly =
            business.stream().filter(b -> b.equalsIgnoreCase(name)).findFirst();
        sink.error(
            RuleIds.UNKNOWN_COLUMN,
            pos,
            "'"
                + key
                + "' names column '"
                + name
                + "', which "
                + shape
                + " does not have"
                + caseOnly
                    .map(c -> "; did you mean '" + c + "' (names are exact-case)?")
                    .orElse("; use a declared column"));
      }
    }
  }
}
