package io.weaver.sql.parser;

import io.weaver.sql.compat.ParseErrors;
import io.weaver.sql.parser.WeaverSqlBaseParser.*;
import io.weaver.sql.plans.BuildWeaverStatement;
import io.weaver.sql.plans.CheckWeaverStatement;
import io.weaver.sql.plans.DescribeWeaverLoad;
import io.weaver.sql.plans.DescribeWeaverTable;
import io.weaver.sql.plans.LoadWeaverItem;
import io.weaver.sql.plans.LoadWeaverTable;
import io.weaver.sql.plans.LoadWeaverTableFrom;
import io.weaver.sql.plans.PlanWeaverStatement;
import io.weaver.sql.plans.RestoreWeaverTable;
import io.weaver.sql.plans.Scope;
import io.weaver.sql.plans.ShowWeaverLoadPlan;
import io.weaver.sql.plans.ShowWeaverLoads;
import io.weaver.sql.plans.ShowWeaverTables;
import io.weaver.sql.plans.TableIdentity;
import io.weaver.sql.plans.TestWeaverStatement;
import io.weaver.sql.plans.WeaverStatement;
import java.util.Optional;
import org.antlr.v4.runtime.ParserRuleContext;

/** Builds the unresolved plan node of one parsed Weaver statement. */
final class WeaverAstBuilder extends WeaverSqlBaseBaseVisitor<Object> {

  WeaverStatement statement(SingleStatementContext ctx) {
    return (WeaverStatement) visit(ctx.statement());
  }

  @Override
  public Object visitCheckWeaver(CheckWeaverContext ctx) {
    return new CheckWeaverStatement(Optional.ofNullable(ctx.workspace).map(this::string));
  }

  @Override
  public Object visitBuildWeaver(BuildWeaverContext ctx) {
    return new BuildWeaverStatement(scope(ctx.scope()), ctx.DESTRUCTIVE() != null);
  }

  @Override
  public Object visitPlanWeaver(PlanWeaverContext ctx) {
    return new PlanWeaverStatement(
        scope(ctx.scope()), ctx.DESTRUCTIVE() != null, ctx.waiveGates() != null);
  }

  @Override
  public Object visitLoadWeaverTable(LoadWeaverTableContext ctx) {
    return new LoadWeaverTable(identity(ctx.identity()), ctx.waiveGates() != null);
  }

  @Override
  public Object visitLoadWeaverTableFrom(LoadWeaverTableFromContext ctx) {
    Optional<String> staging = Optional.empty();
    Optional<String> deleteKeys = Optional.empty();
    Optional<String> failure = Optional.empty();
    if (ctx.clientInput() instanceof FromViewsContext views) {
      staging = Optional.of(name(views.staging));
      deleteKeys = Optional.ofNullable(views.deleteKeys).map(this::name);
    } else if (ctx.clientInput() instanceof DeleteKeysOnlyContext keys) {
      deleteKeys = Optional.of(name(keys.deleteKeys));
    } else if (ctx.clientInput() instanceof ReadFailedContext failed) {
      failure = Optional.of(string(failed.message));
      if (failure.get().isBlank()) {
        throw error(failed.message, "the FAILED message must say why read() failed");
      }
    }
    return new LoadWeaverTableFrom(
        identity(ctx.identity()),
        staging,
        deleteKeys,
        failure,
        Optional.ofNullable(ctx.bookmark).map(this::string),
        Optional.ofNullable(ctx.context).map(this::string),
        ctx.waiveGates() != null);
  }

  @Override
  public Object visitLoadWeaverItem(LoadWeaverItemContext ctx) {
    return new LoadWeaverItem(name(ctx.item), ctx.waiveGates() != null);
  }

  @Override
  public Object visitTestWeaver(TestWeaverContext ctx) {
    return new TestWeaverStatement(scope(ctx.scope()));
  }

  @Override
  public Object visitShowWeaverTables(ShowWeaverTablesContext ctx) {
    return new ShowWeaverTables(Optional.ofNullable(ctx.item).map(this::name));
  }

  @Override
  public Object visitDescribeWeaverTable(DescribeWeaverTableContext ctx) {
    return new DescribeWeaverTable(identity(ctx.identity()));
  }

  @Override
  public Object visitDescribeWeaverLoad(DescribeWeaverLoadContext ctx) {
    return new DescribeWeaverLoad(identity(ctx.identity()));
  }

  @Override
  public Object visitShowWeaverLoadPlan(ShowWeaverLoadPlanContext ctx) {
    return new ShowWeaverLoadPlan(scope(ctx.scope()));
  }

  @Override
  public Object visitShowWeaverLoads(ShowWeaverLoadsContext ctx) {
    Optional<TableIdentity> table = Optional.ofNullable(ctx.identity()).map(this::identity);
    Optional<Integer> limit = Optional.empty();
    if (ctx.limit != null) {
      limit = Optional.of(positiveInt(ctx));
    }
    return new ShowWeaverLoads(table, limit);
  }

  @Override
  public Object visitRestoreWeaverTable(RestoreWeaverTableContext ctx) {
    String loadId = string(ctx.loadId);
    if (loadId.isBlank()) {
      throw error(ctx.loadId, "the load id must not be empty (see SHOW WEAVER LOADS for ids)");
    }
    return new RestoreWeaverTable(identity(ctx.identity()), loadId);
  }

  private Scope scope(ScopeContext ctx) {
    if (ctx == null) {
      return Scope.workspace();
    }
    if (ctx instanceof ItemScopeContext item) {
      return Scope.item(name(item.item));
    }
    return Scope.table(identity(((TableScopeContext) ctx).identity()));
  }

  private TableIdentity identity(IdentityContext ctx) {
    if (ctx.parts.size() < 2 || ctx.parts.size() > 3) {
      throw error(
          ctx,
          "an identity is Schema.Object or Item.Schema.Object, not "
              + ctx.parts.size()
              + (ctx.parts.size() == 1 ? " part" : " parts"));
    }
    for (IdentifierContext part : ctx.parts) {
      if (name(part).isEmpty()) {
        throw error(part, "an identity part must not be empty");
      }
    }
    return TableIdentity.of(ctx.parts.stream().map(this::name).toList());
  }

  private String name(IdentifierContext ctx) {
    if (ctx instanceof QuotedIdentifierContext quoted) {
      String text = quoted.BACKQUOTED_IDENTIFIER().getText();
      return text.substring(1, text.length() - 1).replace("``", "`");
    }
    return ctx.getText();
  }

  private String string(StringLitContext ctx) {
    String text = ctx.STRING().getText();
    String quote = text.substring(0, 1);
    return text.substring(1, text.length() - 1).replace(quote + quote, quote);
  }

  private int positiveInt(ShowWeaverLoadsContext ctx) {
    try {
      int n = Integer.parseInt(ctx.limit.getText());
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException tooLarge) {
      // reported below
    }
    throw ParseErrors.syntaxError(
        ctx.limit,
        SyntaxErrorListener.near(ctx.limit),
        ": LIMIT takes a whole number from 1 to " + Integer.MAX_VALUE);
  }

  private static RuntimeException error(ParserRuleContext ctx, String hint) {
    return ParseErrors.syntaxError(ctx.getStart(), "'" + ctx.getText() + "'", ": " + hint);
  }
}
