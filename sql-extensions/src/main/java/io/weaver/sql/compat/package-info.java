/**
 * The only place Weaver's SQL statements touch Spark internals: the base of Weaver's runnable
 * commands ({@code WeaverLeafCommand}, with {@code FieldsProduct}: Scala in src/main/scala, so the
 * compiler mixes in Spark's traits), and construction of Spark's parse errors. Scala collection
 * conversions and analysis errors are {@link io.weaver.catalyst.compat}, shared with the Catalyst
 * rules; Delta's internals are the {@code io.weaver.catalyst.delta} adapter's.
 */
package io.weaver.sql.compat;
