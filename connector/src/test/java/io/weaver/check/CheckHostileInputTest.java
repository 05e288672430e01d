package io.weaver.check;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.findings.Finding;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hostile or broken files become findings, never exceptions or silent skips. */
class CheckHostileInputTest {
  @TempDir Path dir;
  private TestWorkspace ws;

  @BeforeEach
  void setUp() {
    ws = new TestWorkspace(dir);
  }

  @Test
  void javaTagInHeaderIsHeaderInvalid() {
    ws.sql(
        "L",
        "A.B",
        "Table ID: A.B\nDescription: !!javax.script.ScriptEngineManager [!!java.net.URLClassLoader"
            + " [[!!java.net.URL [\"http://localhost/\"]]]]\n",
        "select 1 as a;\n");
    ws.expect("header-invalid", 3);
  }

  @Test
  void aliasBombInHeaderIsHeaderInvalid() {
    StringBuilder yaml =
        new StringBuilder("Table ID: A.B\nDescription: x\na: &a [x, x, x, x, x, x, x, x, x]\n");
    char previous = 'a';
    for (char c = 'b'; c <= 'i'; c++) {
      yaml.append(c).append(": &").append(c).append(" [");
      for (int i = 0; i < 9; i++) {
        yaml.append(i == 0 ? "" : ", ").append('*').append(previous);
      }
      yaml.append("]\n");
      previous = c;
    }
    ws.sql("L", "A.B", yaml.toString(), "select 1 as a;\n");
    ws.expect("header-invalid", 0);
  }

  @Test
  void nonUtf8FileIsAnEncodingFinding() {
    byte[] head = "/*\nTable ID: A.B\nDescription: caf".getBytes(StandardCharsets.UTF_8);
    byte[] tail = "\n*/\nselect 1 as a;\n".getBytes(StandardCharsets.UTF_8);
    byte[] content = new byte[head.length + 1 + tail.length];
    System.arraycopy(head, 0, content, 0, head.length);
    content[head.length] = (byte) 0xE9; // Latin-1 é
    System.arraycopy(tail, 0, content, head.length + 1, tail.length);
    ws.writeBytes("Lakehouse/L/Tables/A.B.sql", content);
    Finding f = ws.expect("encoding", 3);
    assertTrue(f.message().contains("UTF-8"), f.message());
  }

  @Test
  void unterminatedStringInBodyIsReported() {
    ws.sql("L", "A.B", "Table ID: A.B\nDescription: x\n", "select 'abc as a;\n");
    ws.expect("sql-syntax", 5);
  }

  @Test
  void emptyFileIsHeaderMissing() {
    ws.write("Lakehouse/L/Tables/A.B.sql", "");
    ws.expect("header-missing", 1);
  }

  @Test
  void fileNameThatIsNoIdentityIsReported() {
    ws.write(
        "Lakehouse/L/Tables/not an id.sql",
        "/*\nTable ID: A.B\nDescription: x\n*/\nselect 1 as a;\n");
    ws.expect("id-mismatch", 2);
  }

  @Test
  void hiddenFilesAndOtherExtensionsAreIgnored() {
    ws.write("Lakehouse/L/Tables/.A.B.sql", "garbage");
    ws.write("Lakehouse/L/Tables/README.md", "garbage");
    ws.write("Lakehouse/L/Tables/__init__.py", "");
    ws.write(".weaver/Lakehouse/L/Tables/A.B.sql", "garbage");
    ws.expectClean();
  }

  @Test
  void authoredTestIsChecked() {
    ws.write(
        "Lakehouse/L/Tests/NoNegative.sql",
        "/*\nTest ID: NoNegativ\nDescription: x\nSeverity: fatal\n*/\nselect 1 as a;\nselect 2 as b;\n");
    ws.expect("id-mismatch", 2);
    ws.expect("invalid-value", 4);
    ws.expect("result-queries", 0);
  }

  @Test
  void validAuthoredTest() {
    ws.write(
        "Lakehouse/L/Tests/NoNegative.sql",
        "/*\nTest ID: NoNegative\nDescription: x\nSeverity: warning\n*/\nselect a from t where a < 0;\n");
    ws.expectClean();
  }
}
