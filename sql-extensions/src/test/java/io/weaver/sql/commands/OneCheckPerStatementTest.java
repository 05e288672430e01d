package io.weaver.sql.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.weaver.api.WeaverWorkspace;
import io.weaver.sql.testing.SqlSession;
import io.weaver.sql.testing.WorkspaceFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Weaver statement (and an INSERT run as a load) scans and checks the workspace once ({@link
 * WeaverWorkspace#model()}'s debug line, counted per statement), however many engine calls it
 * makes.
 */
class OneCheckPerStatementTest {
  private static final String CHECK_LINE = "scanning and checking the workspace";

  @TempDir Path workspace;

  @AfterAll
  static void stop() {
    SqlSession.stop();
  }

  /** Counts the workspace checks logged while it is installed. */
  private static final class ChecksCounted extends AbstractAppender implements AutoCloseable {
    private final AtomicInteger checks = new AtomicInteger();
    private final LoggerContext context = (LoggerContext) LogManager.getContext(false);
    private final String name = WeaverWorkspace.class.getName();

    ChecksCounted() {
      super("checks-counted", null, null, true, Property.EMPTY_ARRAY);
      start();
      Configuration config = context.getConfiguration();
      LoggerConfig logger = new LoggerConfig(name, Level.DEBUG, false);
      logger.addAppender(this, Level.DEBUG, null);
      config.addLogger(name, logger);
      context.updateLoggers();
    }

    @Override
    public void append(LogEvent event) {
      if (event.getMessage().getFormattedMessage().startsWith(CHECK_LINE)) {
        checks.incrementAndGet();
      }
    }

    int take() {
      return checks.getAndSet(0);
    }

    @Override
    public void close() {
      context.getConfiguration().removeLogger(name);
      context.updateLoggers();
      stop();
    }
  }

  @Test
  void everyStatementChecksTheWorkspaceOnce() throws IOException {
    SparkSession spark = SqlSession.get();
    String item = "Once";
    WorkspaceFiles.sqlTable(
        workspace,
        item,
        "A.Site",
        "Primary key: id\n",
        "select id, name from values (1, 'a'), (2, 'b') as t(id, name);\n");
    WorkspaceFiles.write(
        workspace,
        "Lakehouse/" + item + "/Tables/A__Py.py",
        "\"\"\"\nTable ID: A.Py\n\nDescription: A Python table.\n\nSchema:\n  id: int\n"
            + "  name: string\n\nPrimary key: id\n\"\"\"\nfrom weaver import Table\n\n\n"
            + "class A__Py(Table):\n    def read(self):\n        return None\n");
    spark.conf().set("spark.weaver.workspace", workspace.toString());
    String site = item + ".A.Site";
    String py = item + ".A.Py";

    Map<String, Integer> checks = new LinkedHashMap<>();
    try (ChecksCounted counted = new ChecksCounted()) {
      List<String> statements =
          List.of(
              "BUILD WEAVER ITEM " + item,
              "PLAN WEAVER TABLE " + site,
              "LOAD WEAVER TABLE " + site,
              "LOAD WEAVER ITEM " + item,
              "TEST WEAVER TABLE " + site,
              "SHOW WEAVER TABLES IN " + item,
              "DESCRIBE WEAVER TABLE " + site,
              "DESCRIBE WEAVER LOAD TABLE " + py,
              "SHOW WEAVER LOAD PLAN ITEM " + item,
              "SHOW WEAVER LOADS FOR " + site,
              "INSERT INTO " + site + " VALUES (3, 'c')",
              "LOAD WEAVER TABLE " + py + " WITH NO WORK");
      String loadId = null;
      for (String sql : statements) {
        List<Row> rows = spark.sql(sql).collectAsList();
        checks.put(sql, counted.take());
        if (sql.equals("LOAD WEAVER TABLE " + site)) {
          loadId = rows.get(rows.size() - 1).getString(0);
        }
      }
      String restore = "RESTORE WEAVER TABLE " + site + " TO LOAD '" + loadId + "'";
      spark.sql(restore).collectAsList();
      checks.put(restore, counted.take());
    }
    System.out.println("workspace checks per statement: " + checks);
    Map<String, Integer> once = new LinkedHashMap<>();
    checks.keySet().forEach(sql -> once.put(sql, 1));
    assertEquals(once, checks);
  }
}
