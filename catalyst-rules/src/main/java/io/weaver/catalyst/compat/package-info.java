/**
 * The only place Weaver's Catalyst code touches Spark internals that are not a stable API: the
 * {@code Column}/expression bridge, Scala collection conversions and construction of Spark's
 * exceptions (Delta's internals are the {@code io.weaver.catalyst.delta} adapter's). A new Spark
 * version should need changes here only. Nothing here knows Weaver's tables: that is the rules'
 * {@code TableContract}.
 */
package io.weaver.catalyst.compat;
