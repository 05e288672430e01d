package io.weaver.sql.parser;

/**
 * {@link DelegationCases} on Spark 4.0, whose parser has no entry of its own for parameters
 * (src/test/spark-4.1 tests that entry).
 */
class DelegationTest extends DelegationCases {}
