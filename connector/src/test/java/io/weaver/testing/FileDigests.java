package io.weaver.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Every file under a folder with the SHA-256 of its bytes: "nothing was written" as data. */
public final class FileDigests {
  private FileDigests() {}

  /** Relative path → SHA-256 (hex) of every regular file under {@code root}. */
  public static Map<String, String> of(Path root) {
    Map<String, String> files = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        files.put(
            root.relativize(p).toString(),
            HexFormat.of().formatHex(sha.digest(Files.readAllBytes(p))));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
    return files;
  }
}
