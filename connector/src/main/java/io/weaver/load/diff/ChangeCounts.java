package io.weaver.load.diff;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count_if;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.to_json;
import static org.apache.spark.sql.functions.when;

import io.weaver.load.spec.LoadSpec;
import io.weaver.load.spec.ManagedValues;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;

/**
 * The counts of one keyed load. The diff observes them over the rows that pass its filter (the
 * changed ones and duplicate keys), so the observation costs nothing per unchanged row; the
 * unchanged and live counts follow from the staging row count and, for incremental loads, a count
 * of the target's live rows (see {@link #from}).
 */
public record ChangeCounts(
    long inserted,
    long updated,
    long deleted,
    long revived,
    long unchanged,
    long rejected,
    long liveBefore,
    long quarantined,
    long stale) {

  /**
   * Counts set by name, each 0 unless set. The components are in {@code _.LoadHistory}'s order
   * (inserted, updated, deleted, revived), but no caller depends on it: counts are built only here.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds {@link ChangeCounts} by name. */
  public static final class Builder {
    private long inserted;
    private long updated;
    private long deleted;
    private long revived;
    private long unchanged;
    private long rejected;
    private long liveBefore;
    private long quarantined;
    private long stale;

    private Builder() {}

    public Builder inserted(long rows) {
      this.inserted = rows;
      return this;
    }

    public Builder updated(long rows) {
      this.updated = rows;
      return this;
    }

    public Builder deleted(long rows) {
      this.deleted = rows;
      return this;
    }

    public Builder revived(long rows) {
      this.revived = rows;
      return this;
    }

    public Builder unchanged(long rows) {
      this.unchanged = rows;
      return this;
    }

    public Builder rejected(long rows) {
      this.rejected = rows;
      return this;
    }

    /** The target's live rows before the load. */
    public Builder liveBefore(long rows) {
      this.liveBefore = rows;
      return this;
    }

    public Builder quarantined(long rows) {
      this.quarantined = rows;
      return this;
    }

    public Builder stale(long rows) {
      this.stale = rows;
      return this;
    }

    public ChangeCounts build() {
      return new ChangeCounts(
          inserted, updated, deleted, revived, unchanged, rejected, liveBefore, quarantined, stale);
    }
  }

  public static final String DUPLICATES = "duplicate_keys";

  /**
   * The diff's filter: rows that change something, stale rows (counted) and staging rows of a
   * duplicated key.
   */
  public static Column changedOrDuplicate() {
    return col(ChangeDetector.OP)
        .isin(
            ChangeDetector.INSERT,
            ChangeDetector.UPDATE,
            ChangeDetector.REVIVE,
            ChangeDetector.DELETE,
            ChangeDetector.QUARANTINE,
            ChangeDetector.STALE)
        .or(duplicate());
  }

  /** A staging row that repeats its key (and, with a sequence column, the key's highest value). */
  private static Column duplicate() {
    return coalesce(col(ChangeDetector.DUPLICATE), lit(false));
  }

  /** Names of the two stale rows the diff samples (the least and the greatest as JSON text). */
  private static final String[] STALE_SAMPLE = {"stale_sample_min", "stale_sample_max"};

  /** Aggregates for {@code Dataset.observe} behind {@link #changedOrDuplicate}. */
  public static Column[] observed(LoadSpec spec) {
    List<Column> all = new ArrayList<>(List.of(counted(spec)));
    spec.sequenceColumn()
        .ifPresent(
            seq -> {
              // Two stale rows' key and sequence value, for the load's message: aggregates over
              // the rows behind the diff's filter, so the sample costs no job of its own.
              List<Column> fields = new ArrayList<>();
              spec.primaryKey().forEach(k -> fields.add(col(ManagedValues.quote(k))));
              fields.add(col(ChangeDetector.SEQ).as(seq));
              Column stale =
                  when(
                      col(ChangeDetector.OP).equalTo(ChangeDetector.STALE),
                      to_json(struct(fields.toArray(new Column[0]))));
              all.add(min(stale).as(STALE_SAMPLE[0]));
              all.add(max(stale).as(STALE_SAMPLE[1]));
            });
    return all.toArray(new Column[0]);
  }

  /** Up to two stale rows (key and sequence value, as JSON) from the observed {@code metrics}. */
  public static List<String> staleSample(Map<String, Object> metrics) {
    LinkedHashSet<String> sample = new LinkedHashSet<>();
    for (String name : STALE_SAMPLE) {
      Object value = metrics.get(name);
      if (value != null) {
        sample.add(value.toString());
      }
    }
    return List.copyOf(sample);
  }

  private static Column[] counted(LoadSpec spec) {
    Column op = col(ChangeDetector.OP);
    Column accepted = col(UniqueKeyRejector.REASON).isNull();
    return new Column[] {
      count_if(op.equalTo(ChangeDetector.INSERT).and(accepted)).as("inserted"),
      count_if(op.equalTo(ChangeDetector.UPDATE).and(accepted)).as("updated"),
      count_if(op.equalTo(ChangeDetector.REVIVE).and(accepted)).as("revived"),
      count_if(op.equalTo(ChangeDetector.DELETE)).as("deleted"),
      count_if(not(accepted)).as("rejected"),
      count_if(op.isin(ChangeDetector.INSERT, ChangeDetector.UPDATE, ChangeDetector.REVIVE))
          .as("incoming"),
      count_if(op.equalTo(ChangeDetector.UPDATE)).as("update_rows"),
      count_if(duplicate()).as(DUPLICATES),
      count_if(op.equalTo(ChangeDetector.QUARANTINE)).as("quarantined"),
      count_if(
              op.equalTo(ChangeDetector.QUARANTINE)
                  .and(coalesce(col(ChangeDetector.TARGET_LIVE), lit(false))))
          .as("quarantined_live"),
      count_if(op.equalTo(ChangeDetector.STALE)).as("stale"),
      // A stale row that lost to the target keeps the target's row live; one that lost to a newer
      // row of its own delivery shares its target row with that newer row, counted there.
      count_if(
              op.equalTo(ChangeDetector.STALE)
                  .and(coalesce(col(ChangeDetector.TARGET_LIVE), lit(false)))
                  .and(not(ChangeDetector.superseded(spec))))
          .as("stale_live")
    };
  }

  /**
   * Counts from the observed {@code metrics}, the staging row count and, when observed, the
   * target's live rows counted apart. Every staging row is incoming (insert, update, revive),
   * quarantined, stale or unchanged. A live target row of a snapshot load is unchanged, updated
   * (rejected or not), deleted, or kept as it is for a quarantined or stale row of its key (the
   * newest one when its key has several); an incremental load (and a snapshot load under {@code
   * Deletes: keep}) leaves unmentioned rows live, so their count is read from the target instead.
   */
  public static ChangeCounts from(
      Map<String, Object> metrics, long stagingRows, java.util.OptionalLong observedLive) {
    long quarantined = get(metrics, "quarantined");
    long stale = get(metrics, "stale");
    long unchanged = stagingRows - get(metrics, "incoming") - quarantined - stale;
    long deleted = get(metrics, "deleted");
    long live =
        observedLive.isPresent()
            ? observedLive.getAsLong()
            : unchanged
                + get(metrics, "update_rows")
                + deleted
                + get(metrics, "quarantined_live")
                + get(metrics, "stale_live");
    return builder()
        .inserted(get(metrics, "inserted"))
        .updated(get(metrics, "updated"))
        .deleted(deleted)
        .revived(get(metrics, "revived"))
        .unchanged(unchanged)
        .rejected(get(metrics, "rejected"))
        .liveBefore(live)
        .quarantined(quarantined)
        .stale(stale)
        .build();
  }

  public static long get(Map<String, Object> metrics, String name) {
    Object value = metrics.get(name);
    if (value == null) {
      throw new IllegalStateException("observed metric " + name + " is missing: " + metrics);
    }
    return ((Number) value).longValue();
  }

  /**
   * The sentence a load's message ends with when it has stale rows, with up to two of them; empty
   * otherwise.
   */
  public String staleNote(List<String> sample) {
    if (stale == 0) {
      return "";
    }
    return " "
        + stale
        + " stale row(s) not applied: a newer row of their key exists"
        + (sample.isEmpty() ? "" : " (e.g. " + String.join(", ", sample) + ")")
        + ".";
  }

  /** No row changed: {@code liveRows} live before and after. */
  public static ChangeCounts none(long liveRows) {
    return builder().liveBefore(liveRows).build();
  }

  /** Rows the MERGE will write. */
  public long changed() {
    return inserted + updated + revived + deleted;
  }

  /** Target rows a write replaces by a new version: updates, revivals and soft deletes. */
  public long replaced() {
    return updated + revived + deleted;
  }

  /**
   * Staging rows of a keyed load: each is incoming (accepted or rejected), quarantined, stale or
   * unchanged.
   */
  public long stagingRows() {
    return inserted + updated + revived + rejected + quarantined + stale + unchanged;
  }

  public long liveAfter() {
    return liveBefore + inserted + revived - deleted;
  }
}
