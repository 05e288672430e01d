package io.weaver.metadata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.findings.SourcePos;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SafeYamlTest {

  private static HeaderError refused(String yaml) {
    SafeYaml.Result result =
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> SafeYaml.parse(yaml, 2, 1));
    assertNull(result.node(), "expected a refusal");
    assertNotNull(result.error());
    assertEquals("header-invalid", result.error().rule());
    return result.error();
  }

  @Test
  void javaTagIsRefusedAndNothingIsInstantiated() {
    int before = Boom.CREATED.get();
    HeaderError error =
        refused("Table ID: A.B\nDescription: !!io.weaver.metadata.Boom {value: x}\n");
    assertTrue(error.message().contains("tag"), error.message());
    assertEquals(3, error.pos().line());
    assertEquals(before, Boom.CREATED.get());
  }

  @Test
  void scriptEngineGadgetIsRefused() {
    refused(
        "Table ID: !!javax.script.ScriptEngineManager [!!java.net.URLClassLoader"
            + " [[!!java.net.URL [\"http://localhost/\"]]]]\n");
  }

  @Test
  void localTagIsRefused() {
    refused("Table ID: !custom A.B\n");
  }

  @Test
  void aliasBombIsRefusedQuickly() {
    StringBuilder yaml = new StringBuilder("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    char previous = 'a';
    for (char c = 'b'; c <= 'j'; c++) {
      yaml.append(c).append(": &").append(c).append(" [");
      for (int i = 0; i < 10; i++) {
        yaml.append(i == 0 ? "" : ", ").append('*').append(previous);
      }
      yaml.append("]\n");
      previous = c;
    }
    refused(yaml.toString());
  }

  @Test
  void deepNestingIsRefused() {
    refused("a: " + "[".repeat(5000) + "]".repeat(5000) + "\n");
  }

  @Test
  void hugeDocumentIsRefused() {
    HeaderError error = refused("Description: " + "x".repeat(SafeYaml.MAX_CHARS + 1) + "\n");
    assertTrue(error.message().contains("characters"), error.message());
  }

  @Test
  void positionsAreFilePositions() {
    SafeYaml.Result result = SafeYaml.parse("Table ID: A.B\nTags:\n  - one\n", 10, 3);
    YamlNode.Mapping map = assertInstanceOf(YamlNode.Mapping.class, result.node());
    assertEquals(new SourcePos(10, 3), map.entries().get(0).keyPos());
    assertEquals(new SourcePos(11, 1), map.entries().get(1).keyPos());
    YamlNode.Sequence tags =
        assertInstanceOf(YamlNode.Sequence.class, map.entries().get(1).value());
    assertEquals(new SourcePos(12, 5), tags.items().get(0).pos());
  }

  @Test
  void scalarTypesAreResolved() {
    YamlNode.Mapping map =
        (YamlNode.Mapping)
            SafeYaml.parse("a: true\nb: '5'\nc: 5\nd: 2.5\ne:\nf: 2024-01-01\n", 1, 1).node();
    assertEquals(YamlNode.ScalarType.BOOL, ((YamlNode.Scalar) map.get("a").get().value()).type());
    assertEquals(YamlNode.ScalarType.STRING, ((YamlNode.Scalar) map.get("b").get().value()).type());
    assertEquals(YamlNode.ScalarType.INT, ((YamlNode.Scalar) map.get("c").get().value()).type());
    assertEquals(YamlNode.ScalarType.FLOAT, ((YamlNode.Scalar) map.get("d").get().value()).type());
    assertEquals(YamlNode.ScalarType.NULL, ((YamlNode.Scalar) map.get("e").get().value()).type());
    assertEquals(YamlNode.ScalarType.STRING, ((YamlNode.Scalar) map.get("f").get().value()).type());
  }

  @Test
  void emptyAndScalarDocumentsAreRefused() {
    refused("");
    refused("just text");
  }
}
