package io.weaver.install;

/**
 * A business column as the catalogue and the declaration signature see it, on either target: its
 * name, its type as the target's engine spells it ({@code decimal(9,3)} in Spark SQL, {@code
 * decimal(9, 3)} as a Warehouse declares it) and its nullability.
 */
public record CatalogueColumn(String name, String typeText, boolean nullable) {}
