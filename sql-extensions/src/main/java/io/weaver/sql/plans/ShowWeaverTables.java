package io.weaver.sql.plans;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** SHOW WEAVER TABLES [IN i]: list declared Tables. */
public final class ShowWeaverTables extends WeaverStatement {
  private final Optional<String> item;

  public ShowWeaverTables(Optional<String> item) {
    this.item = Objects.requireNonNull(item, "item");
  }

  /** The item to list; empty lists every item. */
  public Optional<String> item() {
    return item;
  }

  @Override
  public String keywords() {
    return "SHOW WEAVER TABLES";
  }

  @Override
  public List<Object> fields() {
    return List.of(item);
  }
}
