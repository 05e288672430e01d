package io.weaver.api;

import io.weaver.catalyst.compat.WeaverArgumentException;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.load.StagingProvider;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;

/**
 * The load context a client staged a Python Table under, as text that travels from {@code DESCRIBE
 * WEAVER LOAD TABLE} to {@code LOAD WEAVER TABLE … FROM VIEW … CONTEXT '<token>'}: the load
 * timestamp its {@code read()} saw, the last succeeded load's timestamp and a digest of the
 * committed bookmark. The load takes the timestamp from it and fails (writing nothing) when the
 * Table's state moved on in between, so a bookmark computed from an older one never commits.
 *
 * <p>Text form: {@code 1|<load timestamp>|<last load timestamp>|<sha-256 of the bookmark, or ->},
 * timestamps as {@code Instant.toString()}.
 */
public record LoadContextToken(Instant loadTimestamp, Instant lastLoadTimestamp, String bookmark) {
  private static final String VERSION = "1";
  private static final String NO_BOOKMARK = "-";

  public LoadContextToken {
    Objects.requireNonNull(loadTimestamp, "loadTimestamp");
    Objects.requireNonNull(lastLoadTimestamp, "lastLoadTimestamp");
    Objects.requireNonNull(bookmark, "bookmark");
  }

  /** The token of a context the engine handed out. */
  public static LoadContextToken of(StagingProvider.Context context) {
    return new LoadContextToken(
        context.loadTimestamp(), context.lastLoadTimestamp(), digest(context.bookmark()));
  }

  /**
   * Parses {@link #text()}.
   *
   * @throws IllegalArgumentException naming the token when it is not one
   */
  public static LoadContextToken parse(String text) {
    String[] parts = text == null ? new String[0] : text.split("\\|", -1);
    if (parts.length != 4 || !parts[0].equals(VERSION)) {
      throw new WeaverArgumentException(
          WeaverErrorClass.WEAVER_INVALID_REQUEST,
          "CONTEXT '"
              + text
              + "' is not a load context; use the load_context column of DESCRIBE WEAVER LOAD"
              + " TABLE");
    }
    try {
      return new LoadContextToken(Instant.parse(parts[1]), Instant.parse(parts[2]), parts[3]);
    } catch (DateTimeParseException e) {
      throw new WeaverArgumentException(
          WeaverErrorClass.WEAVER_INVALID_REQUEST,
          "CONTEXT '" + text + "' is not a load context: " + e.getMessage());
    }
  }

  /** The text form. */
  public String text() {
    return String.join(
        "|", VERSION, loadTimestamp.toString(), lastLoadTimestamp.toString(), bookmark);
  }

  /** Whether the engine's current context is the one this token was staged under. */
  public boolean sameStateAs(StagingProvider.Context current) {
    return lastLoadTimestamp.equals(current.lastLoadTimestamp())
        && bookmark.equals(digest(current.bookmark()));
  }

  private static String digest(Optional<String> bookmark) {
    if (bookmark.isEmpty()) {
      return NO_BOOKMARK;
    }
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256")
              .digest(bookmark.get().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }
}
