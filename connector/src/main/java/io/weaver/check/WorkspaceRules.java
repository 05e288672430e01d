package io.weaver.check;

import static io.weaver.metadata.TableKeys.*;

import io.weaver.findings.Finding;
import io.weaver.findings.RuleIds;
import io.weaver.findings.Severity;
import io.weaver.findings.SourcePos;
import io.weaver.metadata.ColumnNote;
import io.weaver.metadata.NoteReference;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.WorkspaceDependencies;
import io.weaver.metadata.WorkspaceModel;
import io.weaver.workspace.Identity;
import io.weaver.workspace.Target;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Rules across files: duplicate Table IDs and item names, dependencies (declared ones must name
 * workspace objects; declared and inferred together form no cycle) and {@code $} note references
 * (they must resolve, to a column that has a note, without a cycle).
 */
final class WorkspaceRules {
  private final WorkspaceModel model;
  private final Map<String, List<Finding>> out;
  private final Map<String, Optional<List<String>>> knownColumns;

  private WorkspaceRules(
      WorkspaceModel model,
      Map<String, List<Finding>> out,
      Map<String, Optional<List<String>>> knownColumns) {
    this.model = model;
    this.out = out;
    this.knownColumns = knownColumns;
  }

  /**
   * Runs the cross-file rules. {@code knownColumns} gives each Table's business columns when known
   * (by qualified name); findings are added to {@code out} by path.
   */
  static void check(
      WorkspaceModel model,
      Map<String, Optional<List<String>>> knownColumns,
      Map<String, List<Finding>> out) {
    WorkspaceRules rules = new WorkspaceRules(model, out, knownColumns);
    rules.duplicates();
    rules.dependencies();
    new CycleFinder(WorkspaceDependencies.of(model), rules::report).run();
    rules.noteReferences();
  }

  void report(
      TableDeclaration table, SourcePos pos, Severity severity, String rule, String message) {
    out.computeIfAbsent(table.source().relativePath(), k -> new ArrayList<>())
        .add(
            new Finding(
                table.source().relativePath(), pos.line(), pos.column(), severity, rule, message));
  }

  private void duplicates() {
    Map<String, TableDeclaration> first = new LinkedHashMap<>();
    Map<String, Target> itemTargets = new HashMap<>();
    for (TableDeclaration table : model.tables()) {
      String key = table.qualifiedName();
      TableDeclaration earlier = first.putIfAbsent(key, table);
      if (earlier != null) {
        report(
            table,
            table.posOf(TABLE_ID),
            Severity.ERROR,
            RuleIds.DUPLICATE_ID,
            "Table ID '"
                + table.tableId()
                + "' is already declared in item "
                + table.item()
                + " by "
                + earlier.source().relativePath()
                + "; each Table ID is declared once per item");
      }
      Target other = itemTargets.putIfAbsent(table.item(), table.target());
      if (other != null && other != table.target()) {
        report(
            table,
            new SourcePos(1, 1),
            Severity.ERROR,
            RuleIds.DUPLICATE_ID,
            "item name '"
                + table.item()
                + "' is used by both a Lakehouse and a Warehouse; item names are unique across"
                + " the workspace, rename one");
      }
    }
  }

  private void dependencies() {
    for (TableDeclaration table : model.tables()) {
      SourcePos pos = table.posOf(DEPENDENCIES);
      for (Identity dep : table.dependencies()) {
        if (dep.files()) {
          report(
              table,
              pos,
              Severity.WARNING,
              RuleIds.DEPENDENCY_UNKNOWN,
              "dependency '"
                  + dep
                  + "' is a file-based object, which Weaver does not declare or load; it cannot be"
                  + " checked or ordered");
        } else if (model.resolve(dep, table.item()).isEmpty()) {
          report(
              table,
              pos,
              Severity.ERROR,
              RuleIds.DEPENDENCY_UNKNOWN,
              "dependency '"
                  + dep
                  + "' names no Table in the workspace (looked for "
                  + dep.itemOr(table.item())
                  + "."
                  + dep.tableId()
                  + "); fix the name or declare that Table");
        }
      }
    }
  }

  private void noteReferences() {
    Function<TableDeclaration, Map<String, ColumnNote>> notesOf =
        t -> {
          Map<String, ColumnNote> notes = new HashMap<>();
          t.columnNotes().forEach(n -> notes.put(n.column(), n));
          return notes;
        };
    for (TableDeclaration table : model.tables()) {
      for (ColumnNote note : table.columnNotes()) {
        if (note.reference().isEmpty()) {
          continue;
        }
        Optional<String> problem = resolveChain(table, note, notesOf);
        problem.ifPresent(
            p -> report(table, note.pos(), Severity.ERROR, RuleIds.NOTE_REFERENCE, p));
      }
    }
  }

  /** Follows a reference chain to prose; a message when it breaks or loops. */
  private Optional<String> resolveChain(
      TableDeclaration start,
      ColumnNote note,
      Function<TableDeclaration, Map<String, ColumnNote>> notesOf) {
    List<String> path = new ArrayList<>();
    path.add(start.qualifiedName() + "." + note.column());
    TableDeclaration current = start;
    ColumnNote currentNote = note;
    while (currentNote.reference().isPresent()) {
      NoteReference ref = currentNote.reference().get();
      String item = ref.item().orElse(current.item());
      Optional<TableDeclaration> target = model.find(item, ref.tableId());
      if (target.isEmpty()) {
        return Optional.of(
            "note of '"
                + note.column()
                + "' references "
                + ref
                + ", but "
                + item
                + "."
                + ref.tableId()
                + " is not a Table in the workspace; fix the reference or write the note");
      }
      Optional<List<String>> columns =
          knownColumns.getOrDefault(target.get().qualifiedName(), Optional.empty());
      if (columns.isPresent() && !columns.get().contains(ref.column())) {
        return Optional.of(
            "note of '"
                + note.column()
                + "' references "
                + ref
                + ", but that Table has no column '"
                + ref.column()
                + "'; fix the column name");
      }
      String step = target.get().qualifiedName() + "." + ref.column();
      if (path.contains(step)) {
        path.add(step);
        return Optional.of(
            "note references form a cycle: "
                + String.join(" -> ", path)
                + "; write prose in one of them");
      }
      path.add(step);
      ColumnNote next = notesOf.apply(target.get()).get(ref.column());
      if (next == null) {
        return Optional.of(
            "note of '"
                + note.column()
                + "' references "
                + ref
                + ", but that column has no note;"
                + " add one there or write the note here");
      }
      current = target.get();
      currentNote = next;
    }
    return Optional.empty();
  }
}
