package io.weaver.warehouse.signature;

import io.weaver.warehouse.TsqlNames;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The small T-SQL expression language the row signature is written in: {@link #render()} is the
 * T-SQL text sent to the Warehouse. The tests interpret the same trees in Java, following the
 * documented semantics of each construct (their {@code TsqlEvaluator}): the test oracle's stand-in
 * until the text runs against a real endpoint. A test that compares evaluated bytes with Delta's
 * checks the algorithm, and the rendering is one line per node, so the two cannot drift apart
 * unnoticed.
 *
 * <p>Every identifier is rendered through {@link TsqlNames#quote}. Text literals here are always
 * ASCII constants of the generator ({@code 'true'}, {@code '.'}), rendered as {@code varchar}
 * literals on purpose: an {@code N'…'} literal would make the concatenation {@code nvarchar}, and
 * its bytes UTF-16.
 */
public sealed interface TsqlExpr {

  String render();

  /** {@code [alias].[name]}: a column of the row, or of a derived table in a {@link Subquery}. */
  record Ref(String alias, String name) implements TsqlExpr {
    public String render() {
      return TsqlNames.quote(alias) + "." + TsqlNames.quote(name);
    }
  }

  /** A binary literal, {@code 0x…} ({@code 0x} alone is the empty binary). */
  record Bin(byte[] bytes) implements TsqlExpr {
    public String render() {
      return "0x" + HexFormat.of().withUpperCase().formatHex(bytes);
    }
  }

  /** A varchar literal of printable ASCII (the generator's own constants only). */
  record Str(String text) implements TsqlExpr {
    public Str {
      if (!text.chars().allMatch(c -> c >= 0x20 && c < 0x7F)) {
        throw new IllegalArgumentException("varchar literals here are printable ASCII: " + text);
      }
    }

    public String render() {
      return "'" + text.replace("'", "''") + "'";
    }
  }

  /** An int or bigint literal. */
  record Num(long value) implements TsqlExpr {
    public String render() {
      return value < 0 ? "(" + value + ")" : Long.toString(value);
    }
  }

  /** {@code NAME(arg, …)} for the scalar functions the signature uses. */
  record Call(String function, List<TsqlExpr> args) implements TsqlExpr {
    public Call {
      args = List.copyOf(args);
    }

    public String render() {
      return function + "(" + args.stream().map(TsqlExpr::render).collect(joining()) + ")";
    }
  }

  /** {@code DATEPART(part, x)}: the part is a keyword, not an expression. */
  record DatePart(String part, TsqlExpr value) implements TsqlExpr {
    public String render() {
      return "DATEPART(" + part + ", " + value.render() + ")";
    }
  }

  /** {@code CAST(x AS type)}, or {@code TRY_CAST} (NULL instead of a conversion error). */
  record Cast(TsqlExpr value, TsqlType type, boolean tryCast) implements TsqlExpr {
    public Cast(TsqlExpr value, TsqlType type) {
      this(value, type, false);
    }

    public String render() {
      return (tryCast ? "TRY_CAST(" : "CAST(") + value.render() + " AS " + type.sql() + ")";
    }
  }

  /** {@code CONVERT(type, x, style)}; style 0 is rendered without the argument. */
  record Convert(TsqlType type, TsqlExpr value, int style) implements TsqlExpr {
    public String render() {
      return "CONVERT("
          + type.sql()
          + ", "
          + value.render()
          + (style == 0 ? "" : ", " + style)
          + ")";
    }
  }

  /** {@code x COLLATE name}: labels character data with a collation (here: its code page). */
  record Collate(TsqlExpr value, String collation) implements TsqlExpr {
    public Collate {
      if (!collation.matches("[A-Za-z0-9_]+")) {
        throw new IllegalArgumentException("not a collation name: " + collation);
      }
    }

    public String render() {
      return value.render() + " COLLATE " + collation;
    }
  }

  /** {@code (a op b)} for {@code + - %} and the comparisons {@code = <> < > <= >=}. */
  record Op(String op, TsqlExpr left, TsqlExpr right) implements TsqlExpr {
    public String render() {
      return "(" + left.render() + " " + op + " " + right.render() + ")";
    }
  }

  /** {@code (a AND b)}, {@code (a OR b)} in three-valued logic. */
  record Logic(boolean and, TsqlExpr left, TsqlExpr right) implements TsqlExpr {
    public String render() {
      return "(" + left.render() + (and ? " AND " : " OR ") + right.render() + ")";
    }
  }

  /** {@code x IS NULL}: never unknown. */
  record IsNull(TsqlExpr value) implements TsqlExpr {
    public String render() {
      return value.render() + " IS NULL";
    }
  }

  /** One {@code WHEN condition THEN value} of a {@link Case}. */
  record When(TsqlExpr condition, TsqlExpr value) {}

  /**
   * Searched {@code CASE}: the first WHEN whose condition is TRUE (not unknown) gives the value,
   * else the ELSE; only that branch is evaluated, as T-SQL does for scalar branches.
   */
  record Case(List<When> whens, TsqlExpr otherwise) implements TsqlExpr {
    public Case {
      whens = List.copyOf(whens);
    }

    public String render() {
      StringBuilder out = new StringBuilder("CASE");
      for (When when : whens) {
        out.append(" WHEN ").append(when.condition().render());
        out.append(" THEN ").append(when.value().render());
      }
      return out.append(" ELSE ").append(otherwise.render()).append(" END").toString();
    }
  }

  /** A row source of a {@link Subquery}. */
  sealed interface Source {}

  /** {@code (SELECT expr AS [column]) AS [alias]}, joined by CROSS APPLY after the first. */
  record Apply(String alias, String column, TsqlExpr value) implements Source {}

  /** {@code (VALUES (1), (2), …) AS [alias]([column])}. */
  record Values(String alias, String column, List<Long> rows) implements Source {
    public Values {
      rows = List.copyOf(rows);
    }
  }

  /**
   * {@code (SELECT TOP (1) result FROM s1 CROSS APPLY s2 … WHERE where ORDER BY orderBy)}: the rows
   * are the cross product of the sources (each may refer to those before it); of the rows where
   * {@code where} is TRUE, the one with the least {@code orderBy} gives the result; no such row
   * gives NULL (a scalar subquery over no rows).
   */
  record Subquery(List<Source> sources, TsqlExpr where, TsqlExpr orderBy, TsqlExpr result)
      implements TsqlExpr {
    public Subquery {
      sources = List.copyOf(sources);
      if (sources.isEmpty()) {
        throw new IllegalArgumentException("a subquery needs a source");
      }
    }

    /** The same rows with another result (used to frame the result in place). */
    public Subquery withResult(TsqlExpr newResult) {
      return new Subquery(sources, where, orderBy, newResult);
    }

    public String render() {
      StringBuilder out = new StringBuilder("(SELECT TOP (1) ").append(result.render());
      for (int i = 0; i < sources.size(); i++) {
        out.append(i == 0 ? " FROM " : " CROSS APPLY ").append(source(sources.get(i)));
      }
      out.append(" WHERE ").append(where.render());
      return out.append(" ORDER BY ").append(orderBy.render()).append(")").toString();
    }

    private static String source(Source source) {
      if (source instanceof Apply apply) {
        return "(SELECT "
            + apply.value().render()
            + " AS "
            + TsqlNames.quote(apply.column())
            + ") AS "
            + TsqlNames.quote(apply.alias());
      }
      Values values = (Values) source;
      return "(VALUES "
          + values.rows().stream().map(n -> "(" + n + ")").collect(joining())
          + ") AS "
          + TsqlNames.quote(values.alias())
          + "("
          + TsqlNames.quote(values.column())
          + ")";
    }
  }

  private static java.util.stream.Collector<CharSequence, ?, String> joining() {
    return Collectors.joining(", ");
  }
}
