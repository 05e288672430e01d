package io.weaver.sql;

import io.weaver.catalyst.rules.GuardWeaverTables;
import io.weaver.catalyst.rules.MarkNameReads;
import io.weaver.catalyst.rules.ShowLiveRows;
import io.weaver.catalyst.rules.WritesAsLoads;
import io.weaver.sql.analysis.ConnectorContract;
import io.weaver.sql.commands.DataFrameLoadCommand;
import io.weaver.sql.parser.WeaverSqlParser;
import io.weaver.sql.session.InsertsAsLoads;
import io.weaver.sql.session.SessionItems;
import org.apache.spark.sql.SparkSessionExtensions;

/**
 * Weaver's parser and rules, injected into a session's extensions.
 *
 * <p>Apart from {@link WeaverSparkSessionExtensions} so that the configurator Spark instantiates
 * links against nothing but {@link SparkLine} until the Spark line is checked: on another Spark
 * minor, loading these classes could fail with a linkage error, which Spark would only log.
 *
 * <p>The Catalyst rules on Spark's and Delta's plans live in module catalyst-rules ({@code
 * io.weaver.catalyst.rules}), which knows nothing of the connector; they get Weaver's definitions
 * from {@link ConnectorContract} and build loads as {@link DataFrameLoadCommand}s.
 */
final class WeaverSessionInjections {
  private WeaverSessionInjections() {}

  static void inject(SparkSessionExtensions extensions) {
    ConnectorContract contract = ConnectorContract.INSTANCE;
    // Parser
    // Claims statements starting with "<verb> WEAVER"; every other text reaches Spark/Delta as is.
    // Before parsing, makes the workspace's items catalogs, so the first read by name resolves;
    // after, marks the reads by name in SQL text (the hint rule below is skipped with Hive) and
    // makes an INSERT into a Weaver table its load (before Delta's INSERT check, in either order).
    extensions.injectParser(
        (session, delegate) ->
            new WeaverSqlParser(
                delegate,
                () -> SessionItems.ensure(session),
                parsed ->
                    new InsertsAsLoads(session, contract, contract)
                        .apply(new MarkNameReads(session, contract, contract).apply(parsed))));

    // Resolution
    // Nothing for Weaver's statements: the parser builds each as the command that runs it.
    // Marks reads by Weaver name before any name resolves, in either extension order.
    extensions.injectHintResolutionRule(session -> new MarkNameReads(session, contract, contract));
    // Puts the live-rows filter above reads of Weaver tables by name (format("weaver") included).
    extensions.injectResolutionRule(session -> new ShowLiveRows(session, contract, contract));
    // Turns appends to Weaver tables into loads; refuses overwrites.
    extensions.injectResolutionRule(
        session -> new WritesAsLoads(session, contract, contract, DataFrameLoadCommand::new));

    // Check
    // Refuses DML on Weaver tables that writes managed columns or has no WHERE
    // (docs/table-contract.md, "Guarantees").
    extensions.injectCheckRule(session -> new GuardWeaverTables(session, contract, contract));

    // Planner: none. Weaver commands are Spark RunnableCommands, which Spark plans itself.
  }
}
