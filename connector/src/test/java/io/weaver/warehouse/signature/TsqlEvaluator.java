package io.weaver.warehouse.signature;

import io.weaver.warehouse.signature.TsqlExpr.Apply;
import io.weaver.warehouse.signature.TsqlExpr.Bin;
import io.weaver.warehouse.signature.TsqlExpr.Call;
import io.weaver.warehouse.signature.TsqlExpr.Case;
import io.weaver.warehouse.signature.TsqlExpr.Cast;
import io.weaver.warehouse.signature.TsqlExpr.Collate;
import io.weaver.warehouse.signature.TsqlExpr.Convert;
import io.weaver.warehouse.signature.TsqlExpr.DatePart;
import io.weaver.warehouse.signature.TsqlExpr.IsNull;
import io.weaver.warehouse.signature.TsqlExpr.Logic;
import io.weaver.warehouse.signature.TsqlExpr.Num;
import io.weaver.warehouse.signature.TsqlExpr.Op;
import io.weaver.warehouse.signature.TsqlExpr.Ref;
import io.weaver.warehouse.signature.TsqlExpr.Str;
import io.weaver.warehouse.signature.TsqlExpr.Subquery;
import io.weaver.warehouse.signature.TsqlExpr.Values;
import io.weaver.warehouse.signature.TsqlExpr.When;
import java.util.ArrayList;
import java.util.List;

/**
 * The second interpretation of a {@link TsqlExpr} tree, beside {@link TsqlExpr#render()}: its value
 * computed in Java by the documented semantics of each construct ({@link TsqlSemantics}), one case
 * per node. The test oracle's stand-in until the text runs against a real endpoint.
 */
final class TsqlEvaluator {

  private TsqlEvaluator() {}

  /** The value of {@code expr} in {@code env}, or {@code null} for SQL NULL. */
  static Object eval(TsqlExpr expr, Env env) {
    if (expr instanceof Ref ref) {
      return env.get(ref.alias(), ref.name());
    }
    if (expr instanceof Bin bin) {
      return bin.bytes().clone();
    }
    if (expr instanceof Str str) {
      return new TsqlSemantics.Varchar(str.text(), false);
    }
    if (expr instanceof Num num) {
      return num.value();
    }
    if (expr instanceof Call call) {
      List<Object> values = new ArrayList<>(call.args().size());
      for (TsqlExpr arg : call.args()) {
        values.add(eval(arg, env));
      }
      return TsqlSemantics.call(call.function(), values);
    }
    if (expr instanceof DatePart datePart) {
      return TsqlSemantics.datePart(datePart.part(), eval(datePart.value(), env));
    }
    if (expr instanceof Cast cast) {
      return TsqlSemantics.convert(
          eval(cast.value(), env), cast.type(), 0, cast.tryCast(), env.exponent());
    }
    if (expr instanceof Convert convert) {
      return TsqlSemantics.convert(
          eval(convert.value(), env), convert.type(), convert.style(), false, env.exponent());
    }
    if (expr instanceof Collate collate) {
      return TsqlSemantics.collate(eval(collate.value(), env), collate.collation());
    }
    if (expr instanceof Op op) {
      return TsqlSemantics.operator(op.op(), eval(op.left(), env), eval(op.right(), env));
    }
    if (expr instanceof Logic logic) {
      return logic(logic, env);
    }
    if (expr instanceof IsNull isNull) {
      return eval(isNull.value(), env) == null;
    }
    if (expr instanceof Case caseWhen) {
      // Only the chosen branch is evaluated, as T-SQL does for scalar branches.
      for (When when : caseWhen.whens()) {
        if (Boolean.TRUE.equals(eval(when.condition(), env))) {
          return eval(when.value(), env);
        }
      }
      return eval(caseWhen.otherwise(), env);
    }
    if (expr instanceof Subquery subquery) {
      Object[] best = new Object[2]; // order key, result
      rows(subquery, env, 0, best);
      return best[1];
    }
    throw new UnsupportedOperationException("no evaluation for " + expr);
  }

  /** {@code AND}, {@code OR} in three-valued logic. */
  private static Object logic(Logic logic, Env env) {
    Boolean a = (Boolean) eval(logic.left(), env);
    Boolean b = (Boolean) eval(logic.right(), env);
    if (logic.and()) {
      return Boolean.FALSE.equals(a) || Boolean.FALSE.equals(b)
          ? Boolean.FALSE
          : a == null || b == null ? null : Boolean.TRUE;
    }
    return Boolean.TRUE.equals(a) || Boolean.TRUE.equals(b)
        ? Boolean.TRUE
        : a == null || b == null ? null : Boolean.FALSE;
  }

  /**
   * The cross product of the subquery's sources from {@code index} on; of the rows where WHERE is
   * TRUE, the least ORDER BY key's result is kept in {@code best}.
   */
  private static void rows(Subquery query, Env env, int index, Object[] best) {
    if (index == query.sources().size()) {
      if (Boolean.TRUE.equals(eval(query.where(), env))) {
        long key = ((Number) eval(query.orderBy(), env)).longValue();
        if (best[0] == null || key < (Long) best[0]) {
          best[0] = key;
          best[1] = eval(query.result(), env);
        }
      }
      return;
    }
    TsqlExpr.Source source = query.sources().get(index);
    if (source instanceof Apply apply) {
      Env next = env.with(apply.alias(), apply.column(), eval(apply.value(), env));
      rows(query, next, index + 1, best);
    } else {
      Values values = (Values) source;
      for (long row : values.rows()) {
        rows(query, env.with(values.alias(), values.column(), row), index + 1, best);
      }
    }
  }
}
