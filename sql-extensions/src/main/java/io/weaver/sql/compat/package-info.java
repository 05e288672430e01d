/**
 * The only place Weaver's SQL statements touch Spark internals: Java bases for Catalyst plan nodes
 * and runnable commands (Scala traits implemented from Java, with every trait method forwarded
 * explicitly), and construction of Spark's parse errors. Scala collection conversions, analysis
 * errors and reads of Delta's relations and DML commands are {@link io.weaver.catalyst.compat},
 * shared with the Catalyst rules. A new Spark or Delta version should need changes here and there
 * only.
 */
package io.weaver.sql.compat;
