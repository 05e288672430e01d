package io.weaver.load.write;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.delta.exceptions.ConcurrentAppendException;
import io.delta.exceptions.ConcurrentTransactionException;
import io.delta.exceptions.MetadataChangedException;
import java.util.ConcurrentModificationException;
import org.apache.spark.SparkException;
import org.junit.jupiter.api.Test;

/**
 * A lost commit race is recognised by Delta's public exception types, wherever Spark wraps them,
 * and never by words in a message (docs/environments.md, "Delta's public surface").
 */
class CommitConflictsTest {
  @Test
  void deltaConflictExceptionsAreConflictsThroughAnyWrapping() {
    assertTrue(CommitConflicts.isConflict(new ConcurrentAppendException("files were added")));
    assertTrue(
        CommitConflicts.isConflict(
            new SparkException(
                "Job aborted", new ConcurrentTransactionException("same txn app id"))));
    assertTrue(
        CommitConflicts.isConflict(
            new RuntimeException(
                "outer", new IllegalStateException("middle", new MetadataChangedException("m")))));
    String message = CommitConflicts.failureMessage("T", new ConcurrentAppendException("x"));
    assertTrue(message.contains("another operation changed the table"), message);
  }

  @Test
  void messagesThatMentionConcurrencyAreNotConflicts() {
    RuntimeException worded =
        new RuntimeException("DELTA_CONCURRENT_APPEND ConcurrentAppendException concurrent");
    assertFalse(CommitConflicts.isConflict(worded));
    assertFalse(CommitConflicts.isConflict(new ConcurrentModificationException("a Java list")));
    String message = CommitConflicts.failureMessage("T", worded);
    assertFalse(message.contains("another operation"), message);
  }
}
