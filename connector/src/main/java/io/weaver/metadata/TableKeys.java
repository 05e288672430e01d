package io.weaver.metadata;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The exact-case header keys a Table and an authored test accept, with near-miss suggestions. */
public final class TableKeys {
  public static final String TABLE_ID = "Table ID";
  public static final String DESCRIPTION = "Description";
  public static final String LINEAGE = "Lineage";
  public static final String DEPENDENCIES = "Dependencies";
  public static final String OWNER = "Owner";
  public static final String TAGS = "Tags";
  public static final String SCHEMA = "Schema";
  public static final String COLUMN_NOTES = "Column notes";
  public static final String PRIMARY_KEY = "Primary key";
  public static final String UNIQUE_KEYS = "Unique keys";
  public static final String FOREIGN_KEYS = "Foreign keys";
  public static final String NOT_NULL = "Not null";
  public static final String IDENTITY = "Identity";
  public static final String COMPARISON_COLUMNS = "Comparison columns";
  public static final String INCREMENTAL = "Incremental";
  public static final String DELETES = "Deletes";
  public static final String SEQUENCE_COLUMN = "Sequence column";
  public static final String HISTORY = "History";
  public static final String HAS_LOAD_PROCEDURE = "Has load procedure";
  public static final String DELETE_THRESHOLD = "Delete percentage threshold";
  public static final String UPDATE_THRESHOLD = "Update percentage threshold";
  public static final String ROW_THRESHOLD = "Stability row threshold";
  public static final String DELTA_MIN_READER = "Delta minReaderVersion";
  public static final String DELTA_MIN_WRITER = "Delta minWriterVersion";
  public static final String DELTA_DELETION_VECTORS = "Delta deletion vectors";
  public static final String EXPECTATIONS = "Expectations";
  public static final String TEST_ID = "Test ID";
  public static final String SEVERITY = "Severity";

  /** Defaults (docs/table-contract.md, "Keys"). */
  public static final int DEFAULT_DELETE_THRESHOLD = 5;

  public static final int DEFAULT_UPDATE_THRESHOLD = 20;
  public static final long DEFAULT_ROW_THRESHOLD = 1_000_000L;
  public static final int CREATION_DEFAULT_MIN_READER = 3;
  public static final int CREATION_DEFAULT_MIN_WRITER = 7;

  public static final List<String> TABLE =
      List.of(
          TABLE_ID,
          DESCRIPTION,
          LINEAGE,
          DEPENDENCIES,
          OWNER,
          TAGS,
          SCHEMA,
          COLUMN_NOTES,
          PRIMARY_KEY,
          UNIQUE_KEYS,
          FOREIGN_KEYS,
          NOT_NULL,
          IDENTITY,
          COMPARISON_COLUMNS,
          INCREMENTAL,
          DELETES,
          SEQUENCE_COLUMN,
          HISTORY,
          HAS_LOAD_PROCEDURE,
          DELETE_THRESHOLD,
          UPDATE_THRESHOLD,
          ROW_THRESHOLD,
          DELTA_MIN_READER,
          DELTA_MIN_WRITER,
          DELTA_DELETION_VECTORS,
          EXPECTATIONS);

  /** The keys of one expectation under {@link #EXPECTATIONS}. */
  public static final String RULE = "rule";

  public static final String ON_VIOLATION = "on violation";
  public static final String MAX_PERCENTAGE = "max percentage";
  public static final List<String> EXPECTATION = List.of(RULE, ON_VIOLATION, MAX_PERCENTAGE);

  /** Keys that only a Lakehouse (Delta) Table accepts. */
  public static final List<String> DELTA_ONLY =
      List.of(DELTA_MIN_READER, DELTA_MIN_WRITER, DELTA_DELETION_VECTORS);

  public static final List<String> TEST = List.of(TEST_ID, DESCRIPTION, SEVERITY, OWNER, TAGS);

  private TableKeys() {}

  /** The accepted key closest to an unknown one, when it is close enough to be a typo. */
  public static Optional<String> suggest(String unknown, List<String> accepted) {
    String lower = unknown.toLowerCase(Locale.ROOT).strip();
    return accepted.stream()
        .filter(k -> distance(lower, k.toLowerCase(Locale.ROOT)) <= Math.max(2, k.length() / 4))
        .min(Comparator.comparingInt(k -> distance(lower, k.toLowerCase(Locale.ROOT))));
  }

  /** Levenshtein distance. */
  static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        current[j] =
            Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
