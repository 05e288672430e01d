package io.weaver.sql.plans;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * LOAD WEAVER TABLE t (FROM VIEW v [DELETE KEYS FROM VIEW k] | DELETE KEYS FROM VIEW k | WITH NO
 * WORK | FAILED 'message') [BOOKMARK 'json'] [CONTEXT 'token'] [WAIVE STABILITY GATES]: load the
 * Python Table t from what a client's run of its {@code read()} produced.
 */
public final class LoadWeaverTableFrom extends WeaverStatement {
  private final TableIdentity table;
  private final Optional<String> stagingView;
  private final Optional<String> deleteKeysView;
  private final Optional<String> failure;
  private final Optional<String> bookmark;
  private final Optional<String> context;
  private final boolean waiveStabilityGates;

  public LoadWeaverTableFrom(
      TableIdentity table,
      Optional<String> stagingView,
      Optional<String> deleteKeysView,
      Optional<String> failure,
      Optional<String> bookmark,
      Optional<String> context,
      boolean waiveStabilityGates) {
    this.table = Objects.requireNonNull(table, "table");
    this.stagingView = Objects.requireNonNull(stagingView, "stagingView");
    this.deleteKeysView = Objects.requireNonNull(deleteKeysView, "deleteKeysView");
    this.failure = Objects.requireNonNull(failure, "failure");
    this.bookmark = Objects.requireNonNull(bookmark, "bookmark");
    this.context = Objects.requireNonNull(context, "context");
    this.waiveStabilityGates = waiveStabilityGates;
  }

  /** The Table to load. */
  public TableIdentity table() {
    return table;
  }

  /** The temporary view holding the staging rows; empty: no work or deletions only. */
  public Optional<String> stagingView() {
    return stagingView;
  }

  /** The temporary view holding the delete keys. */
  public Optional<String> deleteKeysView() {
    return deleteKeysView;
  }

  /** The error that stopped the client's {@code read()}: the load fails with it. */
  public Optional<String> failure() {
    return failure;
  }

  /** The bookmark staged with {@code set_bookmark}, JSON text; empty keeps the committed one. */
  public Optional<String> bookmark() {
    return bookmark;
  }

  /** The load context token of {@code DESCRIBE WEAVER LOAD TABLE} the read ran under. */
  public Optional<String> context() {
    return context;
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
    return List.of(
        table, stagingView, deleteKeysView, failure, bookmark, context, waiveStabilityGates);
  }
}
