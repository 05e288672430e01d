package io.weaver.load.spec;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/** Load ids: every load, restore and item publish takes one, whichever room starts it. */
public final class LoadIds {
  private static final DateTimeFormatter ID_TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmssSSSSSS").withZone(ZoneOffset.UTC);

  private LoadIds() {}

  public static String newLoadId(Instant at) {
    byte[] random = new byte[4];
    ThreadLocalRandom.current().nextBytes(random);
    return ID_TIME.format(at) + "-" + HexFormat.of().formatHex(random);
  }
}
