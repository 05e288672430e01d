package io.weaver.metadata;

import io.weaver.findings.SourcePos;
import io.weaver.workspace.Identity;
import io.weaver.workspace.SourceFile;
import io.weaver.workspace.TableId;
import io.weaver.workspace.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One Table, as declared: every key (docs/table-contract.md, "Headers", "Keys") parsed into its
 * type, defaults applied, plus where each authored key was written. Build and Load consume this;
 * nothing downstream re-reads the YAML.
 *
 * @param deltaDeletionVectors whether the Delta table keeps deletion vectors on (the default);
 *     false for tables that readers without deletion-vector support must read
 *     (docs/environments.md, "Readers outside Spark")
 * @param deletes what a load does with the keys it deletes: absent keys of a snapshot load, delete
 *     keys of an incremental one
 * @param sequenceColumn the business column that orders the versions of a key ({@code Sequence
 *     column}): a staging row older than the target's row of its key is not applied, and the newest
 *     of a delivery's rows of one key wins
 * @param history whether the Table keeps every version of each key in its history table, {@code
 *     <Schema>.<Object>__History} beside it ({@code History: true}, docs/table-contract.md)
 * @param expectations the row expectations, in declaration order
 * @param authoredKeys the keys the author wrote, with their positions (defaults that were not
 *     authored do not take part in the declaration signature)
 */
public record TableDeclaration(
    SourceFile source,
    TableId tableId,
    String description,
    Optional<String> lineage,
    Optional<String> owner,
    List<String> tags,
    List<Identity> dependencies,
    Optional<List<SchemaColumn>> schema,
    List<ColumnNote> columnNotes,
    Optional<ColumnSet> primaryKey,
    List<ColumnSet> uniqueKeys,
    List<ForeignKey> foreignKeys,
    List<String> notNull,
    Optional<String> identity,
    Optional<ColumnSet> comparisonColumns,
    boolean incremental,
    DeletionMode deletes,
    Optional<String> sequenceColumn,
    boolean history,
    boolean hasLoadProcedure,
    int deletePercentageThreshold,
    int updatePercentageThreshold,
    long stabilityRowThreshold,
    OptionalInt deltaMinReaderVersion,
    OptionalInt deltaMinWriterVersion,
    boolean deltaDeletionVectors,
    List<Expectation> expectations,
    Map<String, SourcePos> authoredKeys,
    TableBody body) {

  public TableDeclaration {
    tags = List.copyOf(tags);
    dependencies = List.copyOf(dependencies);
    schema = schema.map(List::copyOf);
    columnNotes = List.copyOf(columnNotes);
    uniqueKeys = List.copyOf(uniqueKeys);
    foreignKeys = List.copyOf(foreignKeys);
    notNull = List.copyOf(notNull);
    expectations = List.copyOf(expectations);
    authoredKeys = Map.copyOf(authoredKeys);
  }

  public String item() {
    return source.item();
  }

  public Target target() {
    return source.target();
  }

  /** {@code Item.Schema.Object}. */
  public String qualifiedName() {
    return item() + "." + tableId;
  }

  public Identity identityInWorkspace() {
    return new Identity(Optional.of(item()), tableId, false);
  }

  public boolean keyed() {
    return primaryKey.isPresent();
  }

  /** Where a key was authored, or the top of the file. */
  public SourcePos posOf(String key) {
    return authoredKeys.getOrDefault(key, new SourcePos(1, 1));
  }

  /** Declared business column names, when {@code Schema} is declared. */
  public Optional<List<String>> schemaColumnNames() {
    return schema.map(cols -> cols.stream().map(SchemaColumn::name).toList());
  }

  /** Columns that are physically NOT NULL: the primary key and {@code Not null}. */
  public List<String> requiredColumns() {
    List<String> required = new ArrayList<>(primaryKey.map(ColumnSet::columns).orElse(List.of()));
    notNull.stream().filter(c -> !required.contains(c)).forEach(required::add);
    return List.copyOf(required);
  }
}
