/**
 * The only place Weaver's SQL extension touches Spark internals: Java bases for Catalyst plan nodes
 * and runnable commands (Scala traits implemented from Java, with every trait method forwarded
 * explicitly), Scala collection conversions, construction of Spark's exceptions, and reading
 * Delta's internal DML commands for the guards. A new Spark or Delta version should need changes
 * here only.
 */
package io.weaver.sql.compat;
