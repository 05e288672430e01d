package io.weaver.warehouse;

import io.weaver.catalyst.compat.ErrorFacts;
import io.weaver.catalyst.compat.ErrorParameter;
import io.weaver.catalyst.compat.WeaverArgumentException;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.session.ConfLayer;
import io.weaver.session.WeaverConf;
import io.weaver.session.WeaverYaml;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * Where a Warehouse item's T-SQL endpoint is and how to sign in, from the settings {@code
 * spark.weaver.item.<Item>.…} (session conf, then {@code weaver.yaml}):
 *
 * <ul>
 *   <li>{@code jdbcUrl} — e.g. {@code
 *       jdbc:sqlserver://<x>.datawarehouse.fabric.microsoft.com:1433;database=<Item>;encrypt=true};
 *   <li>{@code authentication} — the driver's mode, e.g. {@code ActiveDirectoryServicePrincipal},
 *       {@code ActiveDirectoryManagedIdentity}, {@code ActiveDirectoryDefault}, {@code
 *       SqlPassword}; omitted with {@code accessTokenEnv};
 *   <li>{@code user} — the service principal's client id or the SQL login;
 *   <li>{@code passwordEnv} — the environment variable holding its secret or password;
 *   <li>{@code accessTokenEnv} — the environment variable holding an Entra access token;
 *   <li>{@code warehouseDml} — {@code update-insert} (default) or {@code merge} ({@link DmlForm}).
 * </ul>
 *
 * Credentials are only ever named by reference: a setting or URL that holds a secret is refused.
 */
public record WarehouseEndpoint(
    String item,
    String jdbcUrl,
    Optional<String> authentication,
    Optional<String> user,
    Optional<String> passwordEnv,
    Optional<String> accessTokenEnv,
    DmlForm form) {

  /** The JDBC driver Weaver uses; it is not bundled (add it to {@code --packages}). */
  public static final String DRIVER = "com.microsoft.sqlserver.jdbc.SQLServerDriver";

  /** The artifact to add, as the error says. */
  public static final String DRIVER_ARTIFACT = "com.microsoft.sqlserver:mssql-jdbc:13.2.1.jre11";

  public static String key(String item, String setting) {
    return WeaverConf.ITEM_PREFIX + item + "." + setting;
  }

  /** The item's endpoint, when {@code jdbcUrl} is set; errors name the setting at fault. */
  public static Optional<WarehouseEndpoint> configured(ConfLayer settings, String item) {
    for (String secret : new String[] {"password", "secret", "clientSecret", "accessToken"}) {
      if (settings.get(key(item, secret)).isPresent()) {
        WeaverYaml.refuseSecret(key(item, secret), "Weaver settings");
      }
    }
    Optional<String> url = settings.get(key(item, "jdbcUrl")).map(String::strip);
    if (url.isEmpty()) {
      return Optional.empty();
    }
    String lower = url.get().toLowerCase(Locale.ROOT);
    if (!lower.startsWith("jdbc:sqlserver://")) {
      throw new WeaverArgumentException(
          WeaverErrorClass.WEAVER_INVALID_SETTING,
          key(item, "jdbcUrl")
              + " must be a jdbc:sqlserver:// URL (SQL Server driver), not "
              + url.get(),
          ErrorFacts.of(ErrorParameter.SETTING, key(item, "jdbcUrl")));
    }
    if (lower.contains("password=") || lower.contains("accesstoken=")) {
      throw new WeaverArgumentException(
          WeaverErrorClass.WEAVER_INVALID_SETTING,
          key(item, "jdbcUrl")
              + " holds a credential; take it out of the URL and set "
              + key(item, "passwordEnv")
              + " or "
              + key(item, "accessTokenEnv")
              + " to the name of an environment variable that holds it",
          ErrorFacts.of(ErrorParameter.SETTING, key(item, "jdbcUrl")));
    }
    String dml = key(item, "warehouseDml");
    return Optional.of(
        new WarehouseEndpoint(
            item,
            url.get(),
            settings.get(key(item, "authentication")),
            settings.get(key(item, "user")),
            settings.get(key(item, "passwordEnv")),
            settings.get(key(item, "accessTokenEnv")),
            settings.get(dml).map(v -> DmlForm.parse(dml, v)).orElse(DmlForm.UPDATE_INSERT)));
  }

  /** Opens a connection, the driver found through the context class loader (Spark's packages). */
  public Connection connect(Map<String, String> environment) throws SQLException {
    Driver driver;
    try {
      ClassLoader loader = Thread.currentThread().getContextClassLoader();
      driver =
          (Driver)
              Class.forName(DRIVER, true, loader == null ? getClass().getClassLoader() : loader)
                  .getDeclaredConstructor()
                  .newInstance();
    } catch (ReflectiveOperationException | LinkageError e) {
      throw new SQLException(
          "Warehouse item "
              + item
              + ": the SQL Server JDBC driver is not on the classpath; add "
              + DRIVER_ARTIFACT
              + " (and com.azure:azure-identity for Entra ID sign-in) to --packages",
          e);
    }
    Properties properties = new Properties();
    authentication.ifPresent(a -> properties.setProperty("authentication", a));
    user.ifPresent(u -> properties.setProperty("user", u));
    passwordEnv.ifPresent(v -> properties.setProperty("password", variable(environment, v)));
    accessTokenEnv.ifPresent(v -> properties.setProperty("accessToken", variable(environment, v)));
    Connection connection = driver.connect(jdbcUrl, properties);
    if (connection == null) {
      throw new SQLException("Warehouse item " + item + ": the driver refused " + jdbcUrl);
    }
    return connection;
  }

  private String variable(Map<String, String> environment, String name) {
    String value = environment.get(name);
    if (value == null || value.isEmpty()) {
      throw new IllegalStateException(
          "Warehouse item "
              + item
              + ": environment variable "
              + name
              + " (named by its settings) is not set");
    }
    return value;
  }
}
