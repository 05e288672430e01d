package io.weaver.sql.plans;

import java.util.List;
import java.util.Objects;

/** LOAD WEAVER ITEM i [WAIVE STABILITY GATES]: load every Table of one item. */
public final class LoadWeaverItem extends WeaverStatement {
  private final String item;
  private final boolean waiveStabilityGates;

  public LoadWeaverItem(String item, boolean waiveStabilityGates) {
    this.item = Objects.requireNonNull(item, "item");
    this.waiveStabilityGates = waiveStabilityGates;
  }

  /** The item whose Tables are loaded. */
  public String item() {
    return item;
  }

  /** Whether the stability gates are waived. */
  public boolean waiveStabilityGates() {
    return waiveStabilityGates;
  }

  @Override
  public String keywords() {
    return "LOAD WEAVER";
  }

  @Override
  public List<Object> fields() {
    return List.of(item, waiveStabilityGates);
  }
}
