package io.weaver.sql.parser;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StatementClaimTest {

  @Test
  void claimsEveryVerbFollowedByWeaver() {
    for (String verb : new String[] {"CHECK", "BUILD", "LOAD", "TEST", "SHOW"}) {
      assertTrue(StatementClaim.isWeaverStatement(verb + " WEAVER"), verb);
      assertTrue(StatementClaim.isWeaverStatement(verb.toLowerCase() + " weaver x"), verb);
    }
    assertTrue(StatementClaim.isWeaverStatement("DESCRIBE WEAVER TABLE a.b"));
    assertTrue(StatementClaim.isWeaverStatement("describe weaver load table a.b"));
    assertTrue(StatementClaim.isWeaverStatement("RESTORE weaver table a.b TO LOAD 'x'"));
    assertTrue(StatementClaim.isWeaverStatement("CHECK WEAVER;"));
    assertTrue(StatementClaim.isWeaverStatement("/* c */ CHECK--x\nWEAVER"));
  }

  @Test
  void leavesEverythingElse() {
    for (String sql :
        new String[] {
          "SELECT 1",
          "",
          "   ",
          "-- only a comment",
          "CHECK",
          "SHOW TABLES",
          "DESCRIBE TABLE t",
          "DESCRIBE weaver",
          "DESCRIBE weaver load",
          "DESCRIBE weaver load_id",
          "DESCRIBE weaver.t",
          "DESCRIBE `weaver` TABLE",
          "RESTORE TABLE t TO VERSION AS OF 1",
          "RESTORE weaver TO VERSION AS OF 1",
          "LOAD DATA INPATH 'x' INTO TABLE t",
          "SHOW weavers",
          "SHOW weaver.t",
          "SELECT 'CHECK WEAVER'",
          "/* unterminated CHECK WEAVER"
        }) {
      assertFalse(StatementClaim.isWeaverStatement(sql), sql);
    }
  }
}
