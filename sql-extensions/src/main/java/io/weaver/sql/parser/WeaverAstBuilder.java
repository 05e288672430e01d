package io.weaver.sql.parser;

import io.weaver.sql.commands.BuildWeaverCommand;
import io.weaver.sql.commands.CheckWeaverCommand;
import io.weaver.sql.commands.DescribeWeaverLoadCommand;
import io.weaver.sql.commands.DescribeWeaverTableCommand;
import io.weaver.sql.commands.LoadWeaverItemCommand;
import io.weaver.sql.commands.LoadWeaverTableCommand;
import io.weaver.sql.commands.LoadWeaverTableFromCommand;
import io.weaver.sql.commands.PlanWeaverCommand;
import io.weaver.sql.commands.PublishWeaverItemCommand;
import io.weaver.sql.commands.PublishWeaverRunCommand;
import io.weaver.sql.commands.RestoreWeaverItemCommand;
import io.weaver.sql.commands.RestoreWeaverTableCommand;
import io.weaver.sql.commands.ShowWeaverLoadPlanCommand;
import io.weaver.sql.commands.ShowWeaverLoadsCommand;
import io.weaver.sql.commands.ShowWeaverPublishesCommand;
import io.weaver.sql.commands.ShowWeaverTablesCommand;
import io.weaver.sql.commands.TestWeaverCommand;
import io.weaver.sql.commands.WeaverStatement;
import io.weaver.sql.compat.ParseErrors;
import io.weaver.sql.parser.WeaverSqlBaseParser.*;
import io.weaver.sql.plans.ClientInput;
import io.weaver.sql.plans.Scope;
import io.weaver.sql.plans.TableIdentity;
import java.util.Optional;
import org.antlr.v4.runtime.ParserRuleContext;

/** Builds the plan node of one parsed Weaver statement: the command Spark runs for it. */
final class WeaverAstBuilder extends WeaverSqlBaseBaseVisitor<Object> {

  WeaverStatement statement(SingleStatementContext ctx) {
    return (WeaverStatement) visit(ctx.statement());
  }

  @Override
  public Object visitCheckWeaver(CheckWeaverContext ctx) {
    return new CheckWeaverCommand(Optional.ofNullable(ctx.workspace).map(this::string));
  }

  @Override
  public Object visitBuildWeaver(BuildWeaverContext ctx) {
    return new BuildWeaverCommand(scope(ctx.scope()), ctx.DESTRUCTIVE() != null);
  }

  @Override
  public Object visitPlanWeaver(PlanWeaverContext ctx) {
    return new PlanWeaverCommand(
        scope(ctx.scope()), ctx.DESTRUCTIVE() != null, ctx.waiveGates() != null);
  }

  @Override
  public Object visitLoadWeaverTable(LoadWeaverTableContext ctx) {
    return new LoadWeaverTableCommand(
        identity(ctx.identity()), ctx.waiveGates() != null, run(ctx.inRun()));
  }

  @Override
  public Object visitLoadWeaverTableFrom(LoadWeaverTableFromContext ctx) {
    return new LoadWeaverTableFromCommand(
        identity(ctx.identity()),
        clientInput(ctx.clientInput()),
        Optional.ofNullable(ctx.bookmark).map(this::string),
        Optional.ofNullable(ctx.context).map(this::string),
        run(ctx.inRun()),
        ctx.waiveGates() != null);
  }

  private Optional<String> run(InRunContext ctx) {
    if (ctx == null) {
      return Optional.empty();
    }
    String run = string(ctx.run);
    if (run.isBlank()) {
      throw error(
          ctx.run, "the run id must not be empty (SHOW WEAVER LOAD PLAN … OPEN RUN gives one)");
    }
    return Optional.of(run);
  }

  private ClientInput clientInput(ClientInputContext ctx) {
    if (ctx instanceof FromViewsContext views) {
      return new ClientInput.FromViews(
          name(views.staging), Optional.ofNullable(views.deleteKeys).map(this::name));
    } else if (ctx instanceof DeleteKeysOnlyContext keys) {
      return new ClientInput.DeleteKeysOnly(name(keys.deleteKeys));
    } else if (ctx instanceof ReadFailedContext failed) {
      String message = string(failed.message);
      if (message.isBlank()) {
        throw error(failed.message, "the FAILED message must say why read() failed");
      }
      return new ClientInput.ReadFailed(message);
    }
    return new ClientInput.NoWork();
  }

  @Override
  public Object visitLoadWeaverItem(LoadWeaverItemContext ctx) {
    return new LoadWeaverItemCommand(name(ctx.item), ctx.waiveGates() != null);
  }

  @Override
  public Object visitTestWeaver(TestWeaverContext ctx) {
    return new TestWeaverCommand(scope(ctx.scope()));
  }

  @Override
  public Object visitShowWeaverTables(ShowWeaverTablesContext ctx) {
    return new ShowWeaverTablesCommand(Optional.ofNullable(ctx.item).map(this::name));
  }

  @Override
  public Object visitDescribeWeaverTable(DescribeWeaverTableContext ctx) {
    return new DescribeWeaverTableCommand(identity(ctx.identity()));
  }

  @Override
  public Object visitDescribeWeaverLoad(DescribeWeaverLoadContext ctx) {
    return new DescribeWeaverLoadCommand(identity(ctx.identity()), run(ctx.inRun()));
  }

  @Override
  public Object visitShowWeaverLoadPlan(ShowWeaverLoadPlanContext ctx) {
    return new ShowWeaverLoadPlanCommand(scope(ctx.scope()), ctx.OPEN() != null);
  }

  @Override
  public Object visitShowWeaverLoads(ShowWeaverLoadsContext ctx) {
    Optional<TableIdentity> table = Optional.ofNullable(ctx.identity()).map(this::identity);
    Optional<Integer> limit = Optional.empty();
    if (ctx.limit != null) {
      limit = Optional.of(positiveInt(ctx));
    }
    return new ShowWeaverLoadsCommand(table, limit);
  }

  @Override
  public Object visitRestoreWeaverTable(RestoreWeaverTableContext ctx) {
    String loadId = string(ctx.loadId);
    if (loadId.isBlank()) {
      throw error(ctx.loadId, "the load id must not be empty (see SHOW WEAVER LOADS for ids)");
    }
    return new RestoreWeaverTableCommand(identity(ctx.identity()), loadId);
  }

  @Override
  public Object visitPublishWeaverItem(PublishWeaverItemContext ctx) {
    return new PublishWeaverItemCommand(name(ctx.item));
  }

  @Override
  public Object visitPublishWeaverRun(PublishWeaverRunContext ctx) {
    String run = string(ctx.run);
    if (run.isBlank()) {
      throw error(
          ctx.run, "the run id must not be empty (SHOW WEAVER LOAD PLAN … OPEN RUN gives one)");
    }
    return new PublishWeaverRunCommand(run);
  }

  @Override
  public Object visitShowWeaverPublishes(ShowWeaverPublishesContext ctx) {
    Optional<Integer> limit = Optional.empty();
    if (ctx.limit != null) {
      limit = Optional.of(positiveInt(ctx.limit));
    }
    return new ShowWeaverPublishesCommand(name(ctx.item), limit);
  }

  @Override
  public Object visitRestoreWeaverItem(RestoreWeaverItemContext ctx) {
    String publishId = string(ctx.publishId);
    if (publishId.isBlank()) {
      throw error(
          ctx.publishId, "the publish id must not be empty (see SHOW WEAVER PUBLISHES for ids)");
    }
    return new RestoreWeaverItemCommand(name(ctx.item), publishId);
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
    return positiveInt(ctx.limit);
  }

  private int positiveInt(org.antlr.v4.runtime.Token limit) {
    try {
      int n = Integer.parseInt(limit.getText());
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException tooLarge) {
      // reported below
    }
    throw ParseErrors.syntaxError(
        limit,
        SyntaxErrorListener.near(limit),
        ": LIMIT takes a whole number from 1 to " + Integer.MAX_VALUE);
  }

  private static RuntimeException error(ParserRuleContext ctx, String hint) {
    return ParseErrors.syntaxError(ctx.getStart(), "'" + ctx.getText() + "'", ": " + hint);
  }
}
