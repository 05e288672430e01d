package io.weaver.metadata;

import static io.weaver.metadata.TableKeys.*;

import io.weaver.findings.FindingSink;
import io.weaver.findings.RuleIds;
import io.weaver.findings.SourcePos;
import io.weaver.workspace.Form;
import io.weaver.workspace.Identifiers;
import io.weaver.workspace.Identity;
import io.weaver.workspace.SourceFile;
import io.weaver.workspace.TableId;
import io.weaver.workspace.Target;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a Table header (a YAML mapping) into a {@link TableDeclaration}: exact-case keys, each
 * value in its type and range, defaults applied. Every problem becomes a finding; the reader goes
 * on so that one run reports all of them.
 */
final class DeclarationReader {
  private static final Pattern FK_TARGET =
      Pattern.compile("^\\s*([^\\[\\]]+?)\\s*\\[([^\\[\\]]*)]\\s*$");

  /** Characters Delta refuses in column names unless column mapping is on. */
  private static final String DELTA_FORBIDDEN = " ,;{}()=";

  private final SourceFile source;
  private final FindingSink sink;
  private final Values values;

  DeclarationReader(SourceFile source, FindingSink sink) {
    this.source = source;
    this.sink = sink;
    this.values = new Values(sink);
  }

  /** Reads the declaration; empty only when no Table ID can be established at all. */
  Optional<TableDeclaration> read(YamlNode.Mapping header, TableBody body) {
    Map<String, SourcePos> authored = new LinkedHashMap<>();
    Map<String, YamlNode.Entry> entries = new LinkedHashMap<>();
    for (YamlNode.Entry entry : header.entries()) {
      if (!TABLE.contains(entry.key())) {
        unknownKey(entry, TABLE);
      } else if (entries.containsKey(entry.key())) {
        sink.error(
            RuleIds.HEADER_INVALID,
            entry.keyPos(),
            "key '" + entry.key() + "' appears twice in the header; keep one of them");
      } else if (source.target() == Target.WAREHOUSE && DELTA_ONLY.contains(entry.key())) {
        sink.error(
            RuleIds.TARGET_KEY,
            entry.keyPos(),
            "'"
                + entry.key()
                + "' applies to Lakehouse (Delta) Tables only; remove it from this Warehouse"
                + " Table");
      } else {
        entries.put(entry.key(), entry);
        authored.put(entry.key(), entry.keyPos());
      }
    }

    Optional<TableId> tableId = tableId(entries.get(TABLE_ID), header.pos());
    if (!entries.containsKey(DESCRIPTION)) {
      missing(DESCRIPTION, header.pos(), "one or two sentences that say what the table holds");
    }
    if (source.form() == Form.PYTHON && !entries.containsKey(SCHEMA)) {
      missing(SCHEMA, header.pos(), "a Python Table must declare its columns and types");
    }
    TableId id = tableId.orElseGet(() -> idFromFileName().orElse(null));
    if (id == null) {
      return Optional.empty();
    }
    Optional<ColumnSet> pk =
        get(entries, PRIMARY_KEY).flatMap(e -> values.columnSet(e, RuleIds.INVALID_VALUE));
    return Optional.of(
        new TableDeclaration(
            source,
            id,
            get(entries, DESCRIPTION).flatMap(values::text).orElse(""),
            get(entries, LINEAGE).flatMap(values::text),
            get(entries, OWNER).flatMap(values::text),
            get(entries, TAGS)
                .flatMap(e -> values.textList(e, false))
                .map(DeclarationReader::texts)
                .orElse(List.of()),
            get(entries, DEPENDENCIES).map(this::dependencies).orElse(List.of()),
            get(entries, SCHEMA).flatMap(this::schema),
            get(entries, COLUMN_NOTES).map(this::columnNotes).orElse(List.of()),
            pk,
            get(entries, UNIQUE_KEYS).map(this::uniqueKeys).orElse(List.of()),
            get(entries, FOREIGN_KEYS).map(this::foreignKeys).orElse(List.of()),
            get(entries, NOT_NULL)
                .flatMap(e -> values.textList(e, false))
                .map(DeclarationReader::texts)
                .orElse(List.of()),
            get(entries, IDENTITY).flatMap(values::text),
            get(entries, COMPARISON_COLUMNS)
                .flatMap(e -> values.columnSet(e, RuleIds.COMPARISON_COLUMNS)),
            get(entries, INCREMENTAL).flatMap(values::bool).orElse(false),
            get(entries, DELETES).flatMap(this::deletionMode).orElse(DeletionMode.SOFT),
            get(entries, SEQUENCE_COLUMN).flatMap(this::sequenceColumn),
            get(entries, HISTORY).flatMap(values::bool).orElse(false),
            get(entries, HAS_LOAD_PROCEDURE).flatMap(values::bool).orElse(true),
            get(entries, DELETE_THRESHOLD)
                .flatMap(e -> values.wholeNumber(e, 0, 100))
                .map(Long::intValue)
                .orElse(DEFAULT_DELETE_THRESHOLD),
            get(entries, UPDATE_THRESHOLD)
                .flatMap(e -> values.wholeNumber(e, 0, 100))
                .map(Long::intValue)
                .orElse(DEFAULT_UPDATE_THRESHOLD),
            get(entries, ROW_THRESHOLD)
                .flatMap(e -> values.wholeNumber(e, 0, Long.MAX_VALUE))
                .orElse(DEFAULT_ROW_THRESHOLD),
            optionalInt(get(entries, DELTA_MIN_READER).flatMap(e -> values.wholeNumber(e, 1, 3))),
            optionalInt(get(entries, DELTA_MIN_WRITER).flatMap(e -> values.wholeNumber(e, 1, 7))),
            get(entries, DELTA_DELETION_VECTORS).flatMap(values::bool).orElse(true),
            get(entries, EXPECTATIONS)
                .map(e -> new ExpectationReader(sink, values).read(e))
                .orElse(List.of()),
            authored,
            body));
  }

  /**
   * The {@code Deletes} mode, on either target (a Warehouse Table's generated procedure applies all
   * three).
   */
  private Optional<DeletionMode> deletionMode(YamlNode.Entry entry) {
    Optional<DeletionMode> mode =
        entry.value() instanceof YamlNode.Scalar s
            ? DeletionMode.of(s.text().strip())
            : Optional.empty();
    Optional<DeletionMode> lowerCase =
        entry.value() instanceof YamlNode.Scalar s
            ? DeletionMode.of(s.text().strip().toLowerCase(java.util.Locale.ROOT))
            : Optional.empty();
    if (mode.isEmpty() && lowerCase.isPresent()) {
      sink.error(
          RuleIds.DELETES,
          entry.value().pos(),
          "'Deletes' takes soft, hard or keep: write '"
              + lowerCase.get().word()
              + "', in lower case");
    } else if (mode.isEmpty()) {
      sink.error(
          RuleIds.DELETES,
          entry.value().pos(),
          "'Deletes' must be soft (the default: the row stays, marked deleted), hard (the row is"
              + " removed) or keep (absent keys are left as they are), not "
              + entry.value().describe());
    }
    return mode;
  }

  /**
   * The {@code Sequence column}: one column name. A list, a mapping or comma-separated names are
   * refused under rule {@code sequence-column}, at the key, since a key's versions are ordered by
   * one column; an empty value is {@code invalid-value}. Whether the column exists, is a key or has
   * an ordered type is Check's ({@code TableRules}): it needs the shape.
   */
  private Optional<String> sequenceColumn(YamlNode.Entry entry) {
    if (entry.value() instanceof YamlNode.Sequence || entry.value() instanceof YamlNode.Mapping) {
      sink.error(
          RuleIds.SEQUENCE_COLUMN,
          entry.keyPos(),
          "'Sequence column' names one column (Sequence column: event_time), not "
              + entry.value().describe()
              + "; a key's versions are ordered by a single column, choose the one that grows"
              + " with each version (an event time or a version number)");
      return Optional.empty();
    }
    Optional<String> text = values.text(entry);
    if (text.isPresent() && text.get().contains(",")) {
      sink.error(
          RuleIds.SEQUENCE_COLUMN,
          entry.keyPos(),
          "'Sequence column' names one column, not several ('"
              + text.get()
              + "'); a key's versions are ordered by a single column, choose the one that grows"
              + " with each version (an event time or a version number)");
      return Optional.empty();
    }
    return text;
  }

  private static Optional<YamlNode.Entry> get(Map<String, YamlNode.Entry> entries, String key) {
    return Optional.ofNullable(entries.get(key));
  }

  private static List<String> texts(List<YamlNode.Scalar> scalars) {
    return scalars.stream().map(YamlNode.Scalar::text).toList();
  }

  private static OptionalInt optionalInt(Optional<Long> value) {
    return value.map(v -> OptionalInt.of(v.intValue())).orElse(OptionalInt.empty());
  }

  private void unknownKey(YamlNode.Entry entry, List<String> accepted) {
    String message = "unknown key '" + entry.key() + "'";
    Optional<String> suggestion = TableKeys.suggest(entry.key(), accepted);
    message +=
        suggestion
            .map(s -> "; did you mean '" + s + "'?")
            .orElse("; remove it or use one of: " + String.join(", ", accepted));
    sink.error(RuleIds.UNKNOWN_KEY, entry.keyPos(), message);
  }

  /**
   * Reports a Schema or object name holding a control character (rule {@code control-character});
   * true when it did. Column names are Check's ({@code TableRules}): they need the shape.
   */
  private boolean controlCharacter(String what, String text, SourcePos pos) {
    if (!Identifiers.hasControl(text)) {
      return false;
    }
    sink.error(
        RuleIds.CONTROL_CHARACTER,
        pos,
        what
            + " '"
            + Identifiers.visible(text)
            + "' contains a control character (a line break, tab or other invisible character);"
            + " remove it: names must be one line of visible characters");
    return true;
  }

  private void missing(String key, SourcePos pos, String why) {
    sink.error(RuleIds.REQUIRED_KEY_MISSING, pos, "the header has no '" + key + "' key: " + why);
  }

  private Optional<TableId> tableId(YamlNode.Entry entry, SourcePos headerPos) {
    if (entry == null) {
      missing(TABLE_ID, headerPos, "add 'Table ID: Schema.Object' naming this Table");
      return Optional.empty();
    }
    Optional<String> text = values.text(entry);
    if (text.isEmpty()) {
      return Optional.empty();
    }
    if (controlCharacter("'Table ID'", text.get(), entry.value().pos())) {
      return Optional.empty();
    }
    Optional<TableId> id = TableId.parse(text.get());
    if (id.isEmpty()) {
      sink.error(
          RuleIds.INVALID_VALUE,
          entry.value().pos(),
          "'Table ID' must be Schema.Object (two identifiers: a letter or _, then letters, digits"
              + " or _), not '"
              + text.get()
              + "'");
    }
    return id;
  }

  /** The Table ID the file name implies, used to keep checking when the header has none. */
  private Optional<TableId> idFromFileName() {
    String stem = source.stem();
    if (source.form() == Form.PYTHON) {
      int split = stem.indexOf("__");
      return split <= 0
          ? Optional.empty()
          : TableId.parse(stem.substring(0, split) + "." + stem.substring(split + 2));
    }
    return TableId.parse(stem);
  }

  private List<Identity> dependencies(YamlNode.Entry entry) {
    List<Identity> result = new ArrayList<>();
    for (YamlNode.Scalar item : values.textList(entry, true).orElse(List.of())) {
      Optional<Identity> identity = Identity.parse(item.text());
      if (controlCharacter("dependency", item.text(), item.pos())) {
        continue;
      } else if (identity.isEmpty()) {
        sink.error(
            RuleIds.INVALID_VALUE,
            item.pos(),
            "dependency '"
                + item.text()
                + "' is not an identity; write Schema.Object, Files/Schema.Object or"
                + " Item.Schema.Object (no $)");
      } else {
        result.add(identity.get());
      }
    }
    return result;
  }

  private Optional<List<SchemaColumn>> schema(YamlNode.Entry entry) {
    Optional<YamlNode.Mapping> mapping = values.mapping(entry);
    if (mapping.isEmpty()) {
      return Optional.empty();
    }
    List<SchemaColumn> columns = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (YamlNode.Entry column : mapping.get().entries()) {
      String name = column.key();
      if (name.isBlank()) {
        sink.error(
            RuleIds.INVALID_VALUE, column.keyPos(), "a Schema column name is empty; name it");
        continue;
      }
      if (!seen.add(name.toLowerCase(java.util.Locale.ROOT))) {
        sink.error(
            RuleIds.DUPLICATE_COLUMN,
            column.keyPos(),
            "Schema declares column '"
                + name
                + "' more than once (names may not differ only in case); keep one");
        continue;
      }
      // A control character is Check's control-character rule, for every target.
      if (source.target() == Target.LAKEHOUSE
          && !Identifiers.hasControl(name)
          && name.chars().anyMatch(c -> DELTA_FORBIDDEN.indexOf(c) >= 0)) {
        sink.error(
            RuleIds.INVALID_VALUE,
            column.keyPos(),
            "column name '"
                + name
                + "' contains a space or one of ,;{}()= which Delta does not accept in column"
                + " names; rename it");
        continue;
      }
      if (!(column.value() instanceof YamlNode.Scalar type)
          || type.type() == YamlNode.ScalarType.NULL
          || type.text().isBlank()) {
        sink.error(
            RuleIds.INVALID_VALUE,
            column.value().pos(),
            "column '" + name + "' needs a type (e.g. string, bigint, decimal(18,2))");
        continue;
      }
      columns.add(new SchemaColumn(name, type.text().strip(), column.keyPos()));
    }
    return Optional.of(columns);
  }

  private List<ColumnNote> columnNotes(YamlNode.Entry entry) {
    List<ColumnNote> notes = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (YamlNode.Entry note :
        values.mapping(entry).map(YamlNode.Mapping::entries).orElse(List.of())) {
      if (!seen.add(note.key())) {
        sink.error(
            RuleIds.INVALID_VALUE,
            note.keyPos(),
            "Column notes has two notes for '" + note.key() + "'; keep one");
        continue;
      }
      Optional<String> text = values.text(note);
      if (text.isEmpty()) {
        continue;
      }
      Optional<NoteReference> reference = NoteReference.parse(text.get());
      if (text.get().startsWith("$") && reference.isEmpty()) {
        sink.error(
            RuleIds.NOTE_REFERENCE,
            note.value().pos(),
            "note of '"
                + note.key()
                + "' starts with $ but is not one reference; write $Schema.Object.column or"
                + " $Item.Schema.Object.column, or prose that does not start with $");
        continue;
      }
      notes.add(new ColumnNote(note.key(), text.get(), reference, note.keyPos()));
    }
    return notes;
  }

  private List<ColumnSet> uniqueKeys(YamlNode.Entry entry) {
    List<ColumnSet> keys = new ArrayList<>();
    if (!(entry.value() instanceof YamlNode.Sequence seq) || seq.items().isEmpty()) {
      sink.error(
          RuleIds.INVALID_VALUE,
          entry.value().pos(),
          "'Unique keys' must be a non-empty YAML list, one '- a, b' line per key, not "
              + entry.value().describe());
      return keys;
    }
    for (YamlNode item : seq.items()) {
      values.columnSet(UNIQUE_KEYS, item, RuleIds.UNIQUE_KEYS).ifPresent(keys::add);
    }
    return keys;
  }

  private List<ForeignKey> foreignKeys(YamlNode.Entry entry) {
    List<ForeignKey> keys = new ArrayList<>();
    if (!(entry.value() instanceof YamlNode.Sequence seq) || seq.items().isEmpty()) {
      sink.error(
          RuleIds.INVALID_VALUE,
          entry.value().pos(),
          "'Foreign keys' must be a non-empty YAML list of '- child columns: Target[parent"
              + " columns]' items, not "
              + entry.value().describe());
      return keys;
    }
    for (YamlNode item : seq.items()) {
      if (!(item instanceof YamlNode.Mapping m) || m.entries().size() != 1) {
        sink.error(
            RuleIds.FOREIGN_KEYS,
            item.pos(),
            "each foreign key must be one 'child columns: Target[parent columns]' mapping, not "
                + item.describe());
        continue;
      }
      foreignKey(m.entries().get(0)).ifPresent(keys::add);
    }
    return keys;
  }

  private Optional<ForeignKey> foreignKey(YamlNode.Entry fk) {
    Optional<ColumnSet> child =
        values.splitColumns(FOREIGN_KEYS, fk.key(), fk.keyPos(), RuleIds.FOREIGN_KEYS);
    if (!(fk.value() instanceof YamlNode.Scalar s) || s.type() == YamlNode.ScalarType.NULL) {
      sink.error(
          RuleIds.FOREIGN_KEYS,
          fk.value().pos(),
          "foreign key '" + fk.key() + "' needs a target: Schema.Object[parent columns]");
      return Optional.empty();
    }
    if (controlCharacter("foreign key target", s.text(), s.pos())) {
      return Optional.empty();
    }
    Matcher m = FK_TARGET.matcher(s.text());
    if (!m.matches()) {
      sink.error(
          RuleIds.FOREIGN_KEYS,
          s.pos(),
          "foreign key target '"
              + s.text()
              + "' is malformed; write Schema.Object[parent columns]");
      return Optional.empty();
    }
    String targetText = m.group(1);
    if (targetText.contains("$")) {
      sink.error(
          RuleIds.FOREIGN_KEYS,
          s.pos(),
          "foreign key target '"
              + targetText
              + "' contains $; name the object by its identity (Schema.Object or Item.Schema.Object)");
      return Optional.empty();
    }
    Optional<Identity> target = Identity.parse(targetText);
    if (target.isEmpty()) {
      sink.error(
          RuleIds.FOREIGN_KEYS,
          s.pos(),
          "foreign key target '"
              + targetText
              + "' is not Schema.Object, Files/Schema.Object or Item.Schema.Object");
      return Optional.empty();
    }
    Optional<ColumnSet> parent =
        values.splitColumns(FOREIGN_KEYS, m.group(2), s.pos(), RuleIds.FOREIGN_KEYS);
    if (child.isEmpty() || parent.isEmpty()) {
      return Optional.empty();
    }
    if (child.get().columns().size() != parent.get().columns().size()) {
      sink.error(
          RuleIds.FOREIGN_KEYS,
          fk.keyPos(),
          "foreign key ("
              + child.get()
              + ") has "
              + child.get().columns().size()
              + " child column(s) but "
              + parent.get().columns().size()
              + " parent column(s) in "
              + targetText
              + "; give both sides the same number of columns");
      return Optional.empty();
    }
    return Optional.of(
        new ForeignKey(child.get(), targetText, target.get(), parent.get().columns(), fk.keyPos()));
  }
}
