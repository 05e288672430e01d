package io.weaver.warehouse.signature;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * {@link TsqlSignature}'s expression evaluated in Java ({@link TsqlEvaluator}) for one row: the
 * bytes and hash the Warehouse would compute, which tests compare with Delta's. In the connector's
 * test jar: the Warehouse endpoint test (integration-tests) compares it with a real endpoint.
 */
public final class TsqlSignatureOracle {

  /** The alias the columns are bound under. */
  private static final String ROW_ALIAS = "row";

  private TsqlSignatureOracle() {}

  /**
   * Evaluates {@link TsqlSignature#encodingExpression} in Java for one row of Java values (String,
   * Long/ Integer, Boolean, BigDecimal, Double, Float, LocalDate, LocalDateTime, OffsetDateTime,
   * LocalTime, byte[], UUID; null for NULL), by the modelled T-SQL semantics.
   */
  public static byte[] evaluate(List<TsqlSignature.Column> columns, List<?> values) {
    return evaluate(columns, values, Env.empty());
  }

  static byte[] evaluate(List<TsqlSignature.Column> columns, List<?> values, Env scope) {
    if (columns.size() != values.size()) {
      throw new IllegalArgumentException("one value per column");
    }
    Env env = scope;
    for (int i = 0; i < columns.size(); i++) {
      TsqlSignature.Column column = columns.get(i);
      env = env.with(ROW_ALIAS, column.name(), TsqlSemantics.bind(column.type(), values.get(i)));
    }
    return (byte[]) TsqlEvaluator.eval(TsqlSignature.encoding(columns, ROW_ALIAS), env);
  }

  /** {@code HASHBYTES('SHA2_256', …)} of {@link #evaluate}: the 32 bytes the Warehouse stores. */
  public static byte[] evaluateHash(List<TsqlSignature.Column> columns, List<?> values) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(evaluate(columns, values));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
    }
  }
}
