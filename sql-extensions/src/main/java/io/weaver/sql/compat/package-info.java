/**
 * The only place Weaver's SQL statements touch Spark internals: Java bases for Catalyst plan nodes
 * and runnable commands (Scala traits implemented from Java, with every trait method forwarded
 * explicitly), and construction of Spark's parse errors. Scala collection conversions and analysis
 * errors forward to {@link io.weaver.catalyst.compat}, which also reads Delta's relations and DML
 * commands for the Catalyst rules. A new Spark or Delta version should need changes here and there
 * only.
 */
package io.weaver.sql.compat;
