package io.weaver.api;

import io.weaver.catalyst.compat.WeaverArgumentException;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.json.Json;
import io.weaver.load.StagingProvider;
import io.weaver.load.spec.LoadFailure;
import io.weaver.metadata.TableDeclaration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * What a client outside the JVM produced for one Python Table load (a Spark Connect client runs the
 * Table's {@code read()} itself): the staging rows and delete keys, the bookmark staged with {@code
 * set_bookmark}, or the error that stopped {@code read()} — handed to the engine as the {@link
 * StagingProvider} of that load, exactly where a Python {@code read()} run through py4j enters it.
 * So validation, gates, exactly-once and the bookmark's commit are the engine's.
 *
 * <p>With a {@link LoadContextToken} the load runs for the token's load timestamp, and fails
 * (writing nothing) when the Table's last succeeded load or bookmark changed since the token was
 * handed out.
 */
public final class ClientStaging implements StagingProvider {
  private final Dataset<Row> staging;
  private final Optional<Dataset<Row>> deleteKeys;
  private final Optional<String> newBookmark;
  private final Optional<String> failure;
  private final Optional<LoadContextToken> context;

  private ClientStaging(
      Dataset<Row> staging,
      Optional<Dataset<Row>> deleteKeys,
      Optional<String> newBookmark,
      Optional<String> failure,
      Optional<LoadContextToken> context) {
    this.staging = staging;
    this.deleteKeys = Objects.requireNonNull(deleteKeys, "deleteKeys");
    this.newBookmark = Objects.requireNonNull(newBookmark, "newBookmark");
    this.failure = Objects.requireNonNull(failure, "failure");
    this.context = Objects.requireNonNull(context, "context");
  }

  /**
   * Rows a {@code read()} returned.
   *
   * @param staging the staging rows, or {@code null} (no work, or deletions only)
   * @param newBookmark JSON text staged with {@code set_bookmark} ({@code null} clears it); empty
   *     keeps the committed one
   * @throws IllegalArgumentException when {@code newBookmark} is not JSON text
   */
  public static ClientStaging staged(
      Dataset<Row> staging,
      Optional<Dataset<Row>> deleteKeys,
      Optional<String> newBookmark,
      Optional<LoadContextToken> context) {
    newBookmark.ifPresent(ClientStaging::requireJson);
    return new ClientStaging(staging, deleteKeys, newBookmark, Optional.empty(), context);
  }

  /** A {@code read()} that raised or broke the return contract: the load fails with message. */
  public static ClientStaging failed(String message, Optional<LoadContextToken> context) {
    return new ClientStaging(
        null,
        Optional.empty(),
        Optional.empty(),
        Optional.of(Objects.requireNonNull(message, "message")),
        context);
  }

  /** The load timestamp the staging was produced for, when the client gave its context. */
  public Optional<Instant> loadTimestamp() {
    return context.map(LoadContextToken::loadTimestamp);
  }

  @Override
  public Staging stage(TableDeclaration table, Context current) {
    if (context.isPresent() && !context.get().sameStateAs(current)) {
      throw new LoadFailure(
          table.qualifiedName()
              + ": another load or restore of this Table committed after its read() ran"
              + " (last succeeded load then "
              + context.get().lastLoadTimestamp()
              + ", now "
              + current.lastLoadTimestamp()
              + "); nothing was written. Run the load again.");
    }
    if (failure.isPresent()) {
      throw new LoadFailure(failure.get());
    }
    return new Staging(staging, deleteKeys, newBookmark);
  }

  private static void requireJson(String text) {
    try {
      Json.read(text);
    } catch (Exception e) {
      throw new WeaverArgumentException(
          WeaverErrorClass.WEAVER_INVALID_REQUEST,
          "BOOKMARK '" + text + "' is not JSON text (" + e.getMessage() + ")");
    }
  }
}
