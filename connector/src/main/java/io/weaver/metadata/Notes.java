package io.weaver.metadata;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/** Resolves a column's note through {@code $} references to its prose (Check ensured it ends). */
public final class Notes {
  private Notes() {}

  /** The prose note of a column, following references; empty when the column has no note. */
  public static Optional<String> resolve(
      WorkspaceModel model, TableDeclaration table, String column) {
    Set<String> seen = new HashSet<>();
    TableDeclaration current = table;
    String currentColumn = column;
    while (seen.add(current.qualifiedName() + "." + currentColumn)) {
      final String wanted = currentColumn;
      Optional<ColumnNote> note =
          current.columnNotes().stream().filter(n -> n.column().equals(wanted)).findFirst();
      if (note.isEmpty()) {
        return Optional.empty();
      }
      if (note.get().reference().isEmpty()) {
        return Optional.of(note.get().text());
      }
      NoteReference ref = note.get().reference().get();
      Optional<TableDeclaration> next =
          model.find(ref.item().orElse(current.item()), ref.tableId());
      if (next.isEmpty()) {
        return Optional.empty();
      }
      current = next.get();
      currentColumn = ref.column();
    }
    return Optional.empty();
  }

  /** The reference text when the column's note is a reference. */
  public static Optional<String> reference(TableDeclaration table, String column) {
    return table.columnNotes().stream()
        .filter(n -> n.column().equals(column) && n.reference().isPresent())
        .map(ColumnNote::text)
        .findFirst();
  }
}
