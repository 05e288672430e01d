package io.weaver.findings;

/**
 * The stable rule ids (docs/table-contract.md, "Check"; listed in docs/check-rules.md), one
 * constant each. Every production class that reports a finding takes its rule id from here: the
 * readers in {@code metadata} and {@code workspace} as well as the rules in {@code check}.
 */
public final class RuleIds {
  public static final String HEADER_MISSING = "header-missing";
  public static final String HEADER_INVALID = "header-invalid";
  public static final String UNKNOWN_KEY = "unknown-key";
  public static final String REQUIRED_KEY_MISSING = "required-key-missing";
  public static final String INVALID_VALUE = "invalid-value";
  public static final String ID_MISMATCH = "id-mismatch";
  public static final String DUPLICATE_ID = "duplicate-id";
  public static final String PYTHON_CLASS = "python-class";
  public static final String INCREMENTAL_WITHOUT_KEY = "incremental-without-key";
  public static final String COMPARISON_COLUMNS = "comparison-columns";
  public static final String NOT_NULL_REPEATS_KEY = "not-null-repeats-key";
  public static final String UNIQUE_KEYS = "unique-keys";
  public static final String FOREIGN_KEYS = "foreign-keys";
  public static final String IDENTITY = "identity";
  public static final String MANAGED_NAME = "managed-name";
  public static final String NO_LOAD_PYTHON = "no-load-python";
  public static final String UNKNOWN_COLUMN = "unknown-column";
  public static final String DUPLICATE_COLUMN = "duplicate-column";
  public static final String RESULT_QUERIES = "result-queries";
  public static final String DELETE_QUERY = "delete-query";
  public static final String STATEMENT_TERMINATOR = "statement-terminator";
  public static final String GO_BATCH = "go-batch";
  public static final String TARGET_KEY = "target-key";
  public static final String DEPENDENCY_UNKNOWN = "dependency-unknown";
  public static final String DEPENDENCY_CYCLE = "dependency-cycle";
  public static final String NOTE_REFERENCE = "note-reference";
  public static final String DYNAMIC_SQL = "dynamic-sql";

  /** Weaver's own: a query's visible columns disagree with the declared Schema. */
  public static final String SCHEMA_MISMATCH = "schema-mismatch";

  /** Weaver's own: a SQL body cannot be tokenized (unterminated string or comment). */
  public static final String SQL_SYNTAX = "sql-syntax";

  /** Weaver's own: the file is not valid UTF-8 text. */
  public static final String ENCODING = "encoding";

  /**
   * Weaver's own: an identifier (column, key column, Schema or object name) holds a control
   * character: a line break, tab, NUL or another character below U+0020, U+007F to U+009F, U+2028
   * or U+2029.
   */
  public static final String CONTROL_CHARACTER = "control-character";

  /** Weaver's own: the form of {@code Expectations} (names, keys, actions, ceilings). */
  public static final String EXPECTATIONS = "expectations";

  /**
   * Weaver's own: an expectation's rule does not parse, names a column outside the business shape,
   * a managed column or the Identity column, or uses an aggregate, a window or a subquery.
   */
  public static final String EXPECTATION_RULE = "expectation-rule";

  /**
   * Weaver's own: {@code Deletes} is not soft, hard or keep, or is declared on a Table without a
   * primary key (whose load replaces every row).
   */
  public static final String DELETES = "deletes";

  /**
   * Weaver's own: {@code Sequence column} is declared on a Table without a primary key, names a
   * column outside the business shape, a key column, the Identity column or a column whose type
   * does not order (docs/table-contract.md, "Sequence column").
   */
  public static final String SEQUENCE_COLUMN = "sequence-column";

  /**
   * Weaver's own: {@code History: true} on a Table without a primary key or on a Warehouse Table,
   * or a Table whose object name ends in {@code __History}, the history tables' suffix
   * (docs/table-contract.md, "History").
   */
  public static final String HISTORY = "history";

  private RuleIds() {}
}
