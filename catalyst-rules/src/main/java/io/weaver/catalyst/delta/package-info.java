/**
 * The Delta adapter: the one package that uses what Delta offers only as internal classes — its log
 * and snapshots ({@link io.weaver.catalyst.delta.InternalDeltaLog}), its DML commands and relations
 * as the rules see them ({@link io.weaver.catalyst.delta.DeltaDml}, {@link
 * io.weaver.catalyst.delta.DeltaRelations}), its catalog class ({@link
 * io.weaver.catalyst.delta.DeltaCatalogs}), and its transaction API for the direct writer's commit
 * ({@link io.weaver.catalyst.delta.DirectCommit}).
 *
 * <p>Everything else in Weaver uses Delta's public surface (SQL, {@code
 * io.delta.tables.DeltaTable}, DataFrame options, {@code io.delta.exceptions}); {@code LayersTest}
 * fails on a Delta-internal import anywhere else. {@link io.weaver.catalyst.delta.DeltaInternals}
 * says whether the internals are there: a runtime whose Delta has other internal classes
 * (Databricks Runtime's Delta) still loads, through the public API ({@link
 * io.weaver.catalyst.delta.PublicDeltaLog}).
 */
package io.weaver.catalyst.delta;
