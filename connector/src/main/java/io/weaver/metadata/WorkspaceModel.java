package io.weaver.metadata;

import io.weaver.workspace.Identity;
import io.weaver.workspace.TableId;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A checked workspace: every Table and authored test, in path order. Build and Load work from this
 * model; it is only handed out when Check found no errors.
 */
public record WorkspaceModel(
    Path root, List<TableDeclaration> tables, List<DataTestDeclaration> tests) {

  public WorkspaceModel {
    tables = List.copyOf(tables);
    tests = List.copyOf(tests);
  }

  /** Finds a Table by item and Table ID. */
  public Optional<TableDeclaration> find(String item, TableId tableId) {
    return tables.stream()
        .filter(t -> t.item().equals(item) && t.tableId().equals(tableId))
        .findFirst();
  }

  /**
   * Resolves an identity written in {@code currentItem}; {@code Files/} identities never resolve.
   */
  public Optional<TableDeclaration> resolve(Identity identity, String currentItem) {
    return identity.files()
        ? Optional.empty()
        : find(identity.itemOr(currentItem), identity.tableId());
  }

  /** The item names, in order. */
  public List<String> items() {
    return tables.stream().map(TableDeclaration::item).distinct().sorted().toList();
  }
}
