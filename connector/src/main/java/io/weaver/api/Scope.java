package io.weaver.api;

import io.weaver.catalyst.compat.ErrorFacts;
import io.weaver.catalyst.compat.ErrorParameter;
import io.weaver.catalyst.compat.WeaverArgumentException;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.metadata.TableDeclaration;
import io.weaver.workspace.Identity;
import java.util.Optional;
import java.util.function.Predicate;

/** Which Tables a command covers: the whole workspace, one item, or one Table. */
public record Scope(Optional<String> item, Optional<Identity> table) {

  public static Scope all() {
    return new Scope(Optional.empty(), Optional.empty());
  }

  public static Scope item(String item) {
    return new Scope(Optional.of(item), Optional.empty());
  }

  /** One Table by identity; a two-part identity needs {@code defaultItem} (or a single item). */
  public static Scope table(String identity) {
    Identity parsed =
        Identity.parse(identity)
            .filter(i -> !i.files())
            .orElseThrow(
                () ->
                    new WeaverArgumentException(
                        WeaverErrorClass.WEAVER_NOT_A_TABLE_IDENTITY,
                        "'" + identity + "' is not a Table identity; write Item.Schema.Object",
                        ErrorFacts.of(ErrorParameter.VALUE, identity)));
    return new Scope(Optional.empty(), Optional.of(parsed));
  }

  /** The filter over declarations; a table identity without item matches in every item. */
  public Predicate<TableDeclaration> filter() {
    return t ->
        item.map(i -> i.equals(t.item())).orElse(true)
            && table
                .map(
                    id ->
                        id.tableId().equals(t.tableId())
                            && id.item().map(i -> i.equals(t.item())).orElse(true))
                .orElse(true);
  }
}
