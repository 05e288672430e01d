/**
 * The only place Weaver's SQL extension touches Spark internals: Java bases for Catalyst plan nodes
 * and runnable commands (Scala traits implemented from Java, with every trait method forwarded
 * explicitly), Scala collection conversions, and construction of Spark's exceptions. A new Spark
 * version should need changes here only.
 */
package io.weaver.sql.compat;
