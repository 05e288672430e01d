/**
 * The only place Weaver's Catalyst code touches Spark and Delta internals that are not a stable
 * API: the {@code Column}/expression bridge, Scala collection conversions, construction of Spark's
 * exceptions, and reading Delta's relations and internal DML commands for the rules. A new Spark or
 * Delta version should need changes here only. Nothing here knows Weaver's tables: that is the
 * rules' {@code TableContract}.
 */
package io.weaver.catalyst.compat;
