package io.weaver.sql.plans;

import java.util.Objects;
import java.util.Optional;

/**
 * What a client's run of a Python Table's {@code read()} produced, as {@code LOAD WEAVER TABLE t
 * FROM …} names it: staging rows (and perhaps delete keys) in temporary views, delete keys only, no
 * work, or the error that stopped {@code read()}. Exactly one of these; {@link #toString()} is the
 * clause as statement messages quote it.
 */
public sealed interface ClientInput {

  /** The temporary view holding the staging rows, when there is one. */
  default Optional<String> stagingView() {
    return Optional.empty();
  }

  /** The temporary view holding the delete keys, when there is one. */
  default Optional<String> deleteKeysView() {
    return Optional.empty();
  }

  /** {@code FROM VIEW staging [DELETE KEYS FROM VIEW deleteKeys]}. */
  record FromViews(String staging, Optional<String> deleteKeys) implements ClientInput {
    public FromViews {
      Objects.requireNonNull(staging, "staging");
      Objects.requireNonNull(deleteKeys, "deleteKeys");
    }

    @Override
    public Optional<String> stagingView() {
      return Optional.of(staging);
    }

    @Override
    public Optional<String> deleteKeysView() {
      return deleteKeys;
    }

    @Override
    public String toString() {
      return "FROM VIEW "
          + quote(staging)
          + deleteKeys.map(k -> " DELETE KEYS FROM VIEW " + quote(k)).orElse("");
    }
  }

  /** {@code DELETE KEYS FROM VIEW deleteKeys}: deletions only. */
  record DeleteKeysOnly(String deleteKeys) implements ClientInput {
    public DeleteKeysOnly {
      Objects.requireNonNull(deleteKeys, "deleteKeys");
    }

    @Override
    public Optional<String> deleteKeysView() {
      return Optional.of(deleteKeys);
    }

    @Override
    public String toString() {
      return "DELETE KEYS FROM VIEW " + quote(deleteKeys);
    }
  }

  /** {@code WITH NO WORK}: {@code read()} returned nothing to load. */
  record NoWork() implements ClientInput {
    @Override
    public String toString() {
      return "WITH NO WORK";
    }
  }

  /** {@code FAILED 'message'}: {@code read()} failed; the load fails with the message. */
  record ReadFailed(String message) implements ClientInput {
    public ReadFailed {
      Objects.requireNonNull(message, "message");
    }

    @Override
    public String toString() {
      return "FAILED";
    }
  }

  /** A view name as SQL text: backquoted, backquotes doubled. */
  private static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }
}
