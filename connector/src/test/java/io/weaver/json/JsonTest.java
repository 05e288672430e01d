package io.weaver.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
  @Test
  void writesPlainValuesCompactlyInIterationOrder() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("z", 1);
    m.put("a", List.of(true, 2.5, new BigDecimal("10.00")));
    m.put("n", null);
    m.put("at", Instant.parse("2026-12-01T10:00:00Z"));
    m.put("nan", Double.NaN);
    m.put("list", new ArrayList<>(Arrays.asList(null, (byte) 3, 4L)));
    assertEquals(
        "{\"z\":1,\"a\":[true,2.5,10.00],\"n\":null,\"at\":\"2026-12-01T10:00:00Z\","
            + "\"nan\":\"NaN\",\"list\":[null,3,4]}",
        Json.write(m));
  }

  @Test
  void escapesQuotesControlCharactersAndLineSeparators() throws JsonProcessingException {
    String text = "a\"b\\c\nd\te\u0001f\u2028g\u2029h é";
    String written = Json.write(text);
    assertEquals("\"a\\\"b\\\\c\\nd\\te\\u0001f\\u2028g\\u2029h é\"", written);
    assertEquals(text, Json.read(written).asText());
  }

  @Test
  void readsWhatItWritesAndRefusesNonJson() throws JsonProcessingException {
    assertEquals(3, Json.read(Json.write(Map.of("k", List.of(1, 2, 3)))).get("k").size());
    assertThrows(JsonProcessingException.class, () -> Json.read("{not json"));
  }
}
