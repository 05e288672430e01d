package io.weaver.install;

import io.weaver.metadata.ColumnSet;
import io.weaver.metadata.ManagedColumns;
import io.weaver.metadata.TableDeclaration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Compares a built table with its new declaration (docs/table-contract.md, "Build", step 4): what
 * would be lost (destructive), what can be added in place, and whether rows need re-signing.
 */
final class ChangeClassifier {

  /** The previous build as recorded: physical schema and catalogue facts. */
  record Previous(
      StructType physical,
      List<String> primaryKey,
      Optional<String> identity,
      List<String> comparisonColumns) {}

  /** The difference, split by how Build can apply it. */
  record Change(
      List<String> destructive, List<BuiltColumn> added, List<String> relaxed, boolean resign) {
    boolean physical() {
      return !added.isEmpty() || !relaxed.isEmpty() || resign;
    }
  }

  private ChangeClassifier() {}

  static Change classify(TableDeclaration t, TableShape shape, Previous previous) {
    List<String> destructive = new ArrayList<>();
    List<BuiltColumn> added = new ArrayList<>();
    List<String> relaxed = new ArrayList<>();
    List<StructField> oldBusiness = new ArrayList<>();
    boolean hadSignature = false;
    for (StructField field : previous.physical().fields()) {
      if (field.name().equals(ManagedColumns.SIGNATURE)) {
        hadSignature = true;
      } else if (!ManagedColumns.names(t.target()).contains(field.name())
          && !previous.identity().map(field.name()::equals).orElse(false)) {
        oldBusiness.add(field);
      }
    }
    for (StructField old : oldBusiness) {
      Optional<BuiltColumn> now = shape.column(old.name());
      if (now.isEmpty()) {
        destructive.add("column '" + old.name() + "' would be dropped with its data");
      } else if (!now.get().type().sameType(old.dataType())) {
        destructive.add(
            "column '"
                + old.name()
                + "' would change type from "
                + old.dataType().sql().toLowerCase()
                + " to "
                + now.get().typeText());
      } else if (old.nullable() && !now.get().nullable()) {
        destructive.add(
            "column '" + old.name() + "' would become NOT NULL, which existing rows may violate");
      } else if (!old.nullable() && now.get().nullable()) {
        relaxed.add(old.name());
      }
    }
    for (BuiltColumn column : shape.columns()) {
      if (oldBusiness.stream().noneMatch(f -> f.name().equals(column.name()))) {
        if (column.nullable()) {
          added.add(column);
        } else {
          destructive.add(
              "new column '"
                  + column.name()
                  + "' is NOT NULL, but existing rows have no value for it");
        }
      }
    }
    List<String> newKey = t.primaryKey().map(ColumnSet::columns).orElse(List.of());
    if (!newKey.equals(previous.primaryKey())) {
      destructive.add(
          "the primary key would change from ("
              + String.join(", ", previous.primaryKey())
              + ") to ("
              + String.join(", ", newKey)
              + ")");
    }
    if (!Objects.equals(t.identity(), previous.identity())) {
      destructive.add(
          "the identity column would change from "
              + previous.identity().orElse("none")
              + " to "
              + t.identity().orElse("none"));
    }
    boolean signature = Signatures.hasSignature(t);
    if (signature != hadSignature) {
      destructive.add(
          signature
              ? "the table would gain a row signature (unkeyed to keyed)"
              : "the table would lose its row signature (keyed to unkeyed, or no load procedure)");
    }
    boolean resign =
        signature
            && destructive.isEmpty()
            && !Signatures.comparisonColumns(t, shape.names()).equals(previous.comparisonColumns());
    return new Change(destructive, added, relaxed, resign);
  }
}
