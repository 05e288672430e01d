package io.weaver.sql.parser;

import io.weaver.catalyst.compat.DelegatingParser;
import io.weaver.sql.commands.WeaverStatement;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.antlr.v4.runtime.BailErrorStrategy;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.DefaultErrorStrategy;
import org.antlr.v4.runtime.atn.PredictionMode;
import org.antlr.v4.runtime.misc.ParseCancellationException;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.catalyst.parser.ParserInterface;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;
import scala.collection.immutable.Seq;

/**
 * Spark's SQL parser with Weaver's statements added (docs/table-contract.md, "SQL statements").
 *
 * <p>A statement that starts with {@code CHECK|BUILD|LOAD|TEST|SHOW|DESCRIBE|RESTORE WEAVER} is
 * parsed by Weaver's grammar into its {@link WeaverStatement}, the command Spark runs; every other
 * statement, and every other kind of text (expressions, identifiers, types, schemas), goes to the
 * delegate unchanged, so Spark's and Delta's syntax keeps working.
 */
public final class WeaverSqlParser extends DelegatingParser {
  private final ParserInterface delegate;
  private final Runnable beforeParse;
  private final UnaryOperator<LogicalPlan> afterParse;

  /** A parser of statements only, with no session to prepare (statement tests). */
  public WeaverSqlParser(ParserInterface delegate) {
    this(delegate, () -> {}, UnaryOperator.identity());
  }

  /**
   * @param beforeParse run before any text that can name a table is parsed: the session's item
   *     catalogs must exist before Spark resolves the first name ({@code SessionItems})
   * @param afterParse applied to every plan the delegate parses: marks the reads by Weaver name
   *     with the options they were written with ({@code MarkNameReads}), which Spark's
   *     hint-resolution batch does not do in sessions with Hive support, and which a relation
   *     resolved twice in one query (a scalar subquery) no longer carries; makes an INSERT into a
   *     Weaver table its load ({@code InsertsAsLoads})
   */
  public WeaverSqlParser(
      ParserInterface delegate, Runnable beforeParse, UnaryOperator<LogicalPlan> afterParse) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.beforeParse = Objects.requireNonNull(beforeParse, "beforeParse");
    this.afterParse = Objects.requireNonNull(afterParse, "afterParse");
  }

  /** The parser this one hands non-Weaver text to. */
  @Override
  public ParserInterface delegate() {
    return delegate;
  }

  @Override
  public LogicalPlan parsePlan(String sqlText) throws ParseException {
    return parsePlan(sqlText, () -> delegate.parsePlan(sqlText));
  }

  /** Also the entry of plans with parameters on the Spark lines that have one. */
  @Override
  protected LogicalPlan parsePlan(String sqlText, Parse delegated) throws ParseException {
    beforeParse.run();
    return StatementClaim.isWeaverStatement(sqlText)
        ? parseWeaverStatement(sqlText)
        : afterParse.apply(delegated.plan());
  }

  /**
   * Parses one Weaver statement; a syntax error is Spark's {@code ParseException} with the line,
   * position and a caret under the offending text.
   */
  WeaverStatement parseWeaverStatement(String sqlText) {
    WeaverSqlBaseLexer lexer = new WeaverSqlBaseLexer(CharStreams.fromString(sqlText));
    lexer.removeErrorListeners();
    lexer.addErrorListener(SyntaxErrorListener.INSTANCE);
    CommonTokenStream tokens = new CommonTokenStream(lexer);
    WeaverSqlBaseParser parser = new WeaverSqlBaseParser(tokens);
    parser.removeErrorListeners();
    parser.addErrorListener(SyntaxErrorListener.INSTANCE);
    WeaverAstBuilder builder = new WeaverAstBuilder();
    // Fast path first: SLL prediction, giving up at the first error. Only when that fails is the
    // statement re-parsed with full LL prediction, which also produces the precise error.
    try {
      parser.getInterpreter().setPredictionMode(PredictionMode.SLL);
      parser.setErrorHandler(new BailErrorStrategy());
      return builder.statement(parser.singleStatement());
    } catch (ParseCancellationException sllFailed) {
      tokens.seek(0);
      parser.reset();
      parser.getInterpreter().setPredictionMode(PredictionMode.LL);
      parser.setErrorHandler(new DefaultErrorStrategy());
      return builder.statement(parser.singleStatement());
    }
  }

  @Override
  public Expression parseExpression(String sqlText) throws ParseException {
    return delegate.parseExpression(sqlText);
  }

  @Override
  public TableIdentifier parseTableIdentifier(String sqlText) throws ParseException {
    beforeParse.run();
    return delegate.parseTableIdentifier(sqlText);
  }

  @Override
  public FunctionIdentifier parseFunctionIdentifier(String sqlText) throws ParseException {
    return delegate.parseFunctionIdentifier(sqlText);
  }

  @Override
  public Seq<String> parseMultipartIdentifier(String sqlText) throws ParseException {
    beforeParse.run();
    return delegate.parseMultipartIdentifier(sqlText);
  }

  @Override
  public LogicalPlan parseQuery(String sqlText) throws ParseException {
    beforeParse.run();
    return afterParse.apply(delegate.parseQuery(sqlText));
  }

  @Override
  public StructType parseRoutineParam(String sqlText) throws ParseException {
    return delegate.parseRoutineParam(sqlText);
  }

  @Override
  public StructType parseTableSchema(String sqlText) throws ParseException {
    return delegate.parseTableSchema(sqlText);
  }

  @Override
  public DataType parseDataType(String sqlText) throws ParseException {
    return delegate.parseDataType(sqlText);
  }
}
