package io.weaver.warehouse.signature;

/**
 * The columns visible to {@link TsqlEvaluator}: the row's own, and those of the derived tables a
 * {@link TsqlExpr.Subquery} has joined so far. Immutable (a linked list), so each subquery row
 * extends its parent's scope without copying it.
 */
public final class Env {

  private static final Env EMPTY = new Env(null, null, null, null, TsqlSemantics.Exponent.PADDED);

  private final Env parent;
  private final TsqlSemantics.Exponent exponent;
  private final String alias;
  private final String name;
  private final Object value;

  private Env(
      Env parent, String alias, String name, Object value, TsqlSemantics.Exponent exponent) {
    this.parent = parent;
    this.exponent = exponent;
    this.alias = alias;
    this.name = name;
    this.value = value;
  }

  public static Env empty() {
    return EMPTY;
  }

  /**
   * An empty scope whose {@code CONVERT(…, float, 3)} spells the exponent as given: the docs do not
   * pin the spelling, so tests run the algorithm under each plausible one.
   */
  static Env empty(TsqlSemantics.Exponent exponent) {
    return new Env(null, null, null, null, exponent);
  }

  TsqlSemantics.Exponent exponent() {
    return exponent;
  }

  /** This scope with {@code [alias].[name]} bound to {@code value} (a T-SQL runtime value). */
  public Env with(String alias, String name, Object value) {
    return new Env(this, alias, name, value, exponent);
  }

  Object get(String alias, String name) {
    for (Env e = this; e.parent != null; e = e.parent) {
      if (e.alias.equals(alias) && e.name.equals(name)) {
        return e.value;
      }
    }
    throw new IllegalStateException("no column [" + alias + "].[" + name + "] in scope");
  }
}
