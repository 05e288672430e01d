package io.weaver.metadata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.weaver.findings.SourcePos;
import org.junit.jupiter.api.Test;

class HeaderExtractorTest {

  @Test
  void pythonDocstringAfterShebangAndBlankLines() {
    String text = "#!/usr/bin/env python\n\n\"\"\"\nTable ID: A.B\n\"\"\"\nimport x\n";
    HeaderExtractor.Result r = HeaderExtractor.python(text);
    assertNull(r.error());
    assertEquals("\nTable ID: A.B\n", r.header().yaml());
    assertEquals(new SourcePos(3, 4), r.header().yamlStart());
    assertEquals(new SourcePos(5, 4), r.header().bodyStart());
  }

  @Test
  void pythonSingleQuotedTripleAndRawPrefix() {
    assertEquals("x: 1", HeaderExtractor.python("'''x: 1'''").header().yaml());
    assertEquals("x: 1", HeaderExtractor.python("r\"\"\"x: 1\"\"\"").header().yaml());
  }

  @Test
  void pythonUnclosedDocstring() {
    assertEquals("header-invalid", HeaderExtractor.python("\"\"\"\nx: 1\n").error().rule());
  }

  @Test
  void pythonCodeFirstIsMissingHeader() {
    HeaderError e = HeaderExtractor.python("import weaver\n\"\"\"x: 1\"\"\"").error();
    assertEquals("header-missing", e.rule());
    assertEquals(new SourcePos(1, 1), e.pos());
  }

  @Test
  void sqlBlockCommentWithNestedComment() {
    String text = "\n  /* a: 1\n /* inner */ b: 2 */ select 1;";
    HeaderExtractor.Result r = HeaderExtractor.sqlBlock(text);
    assertEquals(" a: 1\n /* inner */ b: 2 ", r.header().yaml());
    assertEquals(new SourcePos(2, 5), r.header().yamlStart());
    assertEquals(" select 1;", text.substring(r.header().bodyOffset()));
    assertEquals(new SourcePos(3, 21), r.header().bodyStart());
  }

  @Test
  void sqlLineCommentFirstIsMissingHeader() {
    assertEquals("header-missing", HeaderExtractor.sqlBlock("-- x\n/* a: 1 */").error().rule());
  }

  @Test
  void sqlUnclosedComment() {
    assertEquals("header-invalid", HeaderExtractor.sqlBlock("/* a: 1").error().rule());
  }
}
