/**
 * The only place Weaver's SQL statements touch Spark internals: the bases of Catalyst plan nodes
 * and runnable commands ({@code WeaverLeafNode}, {@code WeaverLeafCommand}: Scala classes in
 * src/main/scala, so the compiler mixes in Spark's traits), and construction of Spark's parse
 * errors. Scala collection conversions and analysis errors are {@link io.weaver.catalyst.compat},
 * shared with the Catalyst rules; Delta's internals are the {@code io.weaver.catalyst.delta}
 * adapter's.
 */
package io.weaver.sql.compat;
