package io.weaver.lakehouse;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.weaver.catalyst.compat.Analyses;
import io.weaver.json.Json;
import java.io.BufferedReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The latest publish of an item, as the item catalog needs it on every read by name: read from the
 * Delta log of {@code _.ItemPublish} directly (one listing of its {@code _delta_log}; the newest
 * publish commit's JSON file is read only when the log has a version not seen before), so a read by
 * name costs no Spark job more than before. Kept per log folder in this JVM.
 *
 * <p>The publish commit carries its manifest as {@code userMetadata} ({@link ItemPublishManifest});
 * commits without one (the table's creation, a column added, an OPTIMIZE) are passed over, so the
 * newest commit that has one is the latest publish.
 */
public final class PublishedVersions {
  private static final Pattern COMMIT = Pattern.compile("\\d{20}\\.json");
  private static final Map<Path, Seen> SEEN = new ConcurrentHashMap<>();

  /** What the log said at its newest version. */
  private record Seen(long newest, Optional<ItemPublishManifest> latest) {}

  private PublishedVersions() {}

  /** The publishes this thread's recent analyses resolved tables with, newest first. */
  private static final ThreadLocal<java.util.LinkedList<AnalysisMemo>> MEMOS =
      ThreadLocal.withInitial(java.util.LinkedList::new);

  /** How many analyses a thread remembers (one nested in another needs two). */
  private static final int MEMO_ANALYSES = 4;

  /** The publishes one analysis resolved its tables with, by {@code _.ItemPublish} folder. */
  private record AnalysisMemo(
      java.lang.ref.WeakReference<Object> analysis,
      Map<Path, Optional<ItemPublishManifest>> publishes) {}

  /**
   * {@link #latest(FileSystem, Path)} as the query being planned on this thread first saw it (keyed
   * by Spark's planning tracker, one per query): every table one query resolves is read at the same
   * publish, even when a publish commits while the query is being analysed (a join of two Tables
   * never mixes two publishes). Outside a query's planning, the newest publish.
   */
  public static Optional<ItemPublishManifest> latestInThisAnalysis(
      FileSystem fs, Path publishTable) {
    Optional<Object> planning = Analyses.current();
    if (planning.isEmpty()) {
      return latest(fs, publishTable); // a table loaded outside a query: the newest publish
    }
    Object analysis = planning.get();
    java.util.LinkedList<AnalysisMemo> memos = MEMOS.get();
    AnalysisMemo memo = null;
    for (AnalysisMemo m : memos) {
      if (m.analysis().get() == analysis) {
        memo = m;
        break;
      }
    }
    if (memo == null) {
      memo =
          new AnalysisMemo(new java.lang.ref.WeakReference<>(analysis), new java.util.HashMap<>());
      memos.addFirst(memo);
      if (memos.size() > MEMO_ANALYSES) {
        memos.removeLast();
      }
    }
    Optional<ItemPublishManifest> seen = memo.publishes().get(publishTable);
    if (seen == null) {
      seen = latest(fs, publishTable);
      memo.publishes().put(publishTable, seen);
    }
    return seen;
  }

  /** {@link #latest(FileSystem, Path)} for the table at {@code publishTablePath}. */
  public static Optional<ItemPublishManifest> latest(String publishTablePath) {
    Path path = new Path(publishTablePath);
    try {
      return latest(path.getFileSystem(SessionAccess.hadoopConf()), path);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the file system of " + path, e);
    }
  }

  /**
   * The latest publish of the item whose {@code _.ItemPublish} table is at {@code publishTable};
   * empty when the item never published (or the table does not exist).
   *
   * @throws UncheckedIOException when the log cannot be listed or read
   */
  public static Optional<ItemPublishManifest> latest(FileSystem fs, Path publishTable) {
    Path log = new Path(publishTable, "_delta_log");
    List<Long> versions = commitVersions(fs, log);
    if (versions.isEmpty()) {
      return Optional.empty();
    }
    long newest = versions.get(0);
    Seen seen = SEEN.get(log);
    if (seen != null && newest < seen.newest()) {
      seen = null; // the table was dropped and made again: what was seen is another table's
    }
    if (seen != null && seen.newest() == newest) {
      return seen.latest();
    }
    Optional<ItemPublishManifest> latest = Optional.empty();
    boolean found = false;
    for (long version : versions) {
      if (seen != null && version <= seen.newest()) {
        latest = seen.latest(); // nothing newer published; older versions were read before
        found = true;
        break;
      }
      Optional<ItemPublishManifest> at = manifestAt(fs, log, version);
      if (at.isPresent()) {
        latest = at;
        found = true;
        break;
      }
    }
    if (!found) {
      latest = Optional.empty();
    }
    SEEN.put(log, new Seen(newest, latest));
    return latest;
  }

  /** The commit versions in the log folder, newest first; empty when there is no log. */
  private static List<Long> commitVersions(FileSystem fs, Path log) {
    FileStatus[] children;
    try {
      children = fs.listStatus(log);
    } catch (FileNotFoundException e) {
      return List.of();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + log, e);
    }
    List<Long> versions = new ArrayList<>();
    for (FileStatus child : children) {
      String name = child.getPath().getName();
      if (COMMIT.matcher(name).matches()) {
        versions.add(Long.parseLong(name.substring(0, 20)));
      }
    }
    versions.sort(Comparator.reverseOrder());
    return versions;
  }

  /** The manifest the commit at {@code version} carries, if any. */
  private static Optional<ItemPublishManifest> manifestAt(FileSystem fs, Path log, long version) {
    Path file = new Path(log, String.format("%020d.json", version));
    try (FSDataInputStream in = fs.open(file);
        BufferedReader lines =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        if (!line.startsWith("{\"commitInfo\"")) {
          continue;
        }
        JsonNode info = Json.read(line).path("commitInfo").path("userMetadata");
        return info.isTextual()
            ? ItemPublishManifest.fromUserMetadata(info.asText())
            : Optional.empty();
      }
      return Optional.empty();
    } catch (FileNotFoundException e) {
      return Optional.empty(); // removed by log cleanup since the listing
    } catch (JsonProcessingException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
