package io.weaver.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The driver's heap during one timed call (the benchmark runs Spark embedded, so the driver is this
 * JVM). Two figures, both from the JVM's own accounting rather than sampling, so a short peak is
 * never missed and no sampling thread competes with the load for the cores:
 *
 * <ul>
 *   <li>{@link Reading#peakBytes}: the heap pools' peak usage since {@link #reset}, summed. The JVM
 *       tracks each pool's peak exactly; summing pools that peaked at different moments makes this
 *       an upper bound of the heap the call needed, garbage not yet collected included: what the
 *       driver's heap had to be able to hold without a collection.
 *   <li>{@link Reading#afterGcBytes}: the largest heap in use right after a collection during the
 *       call (live data and what the collector kept), the figure closest to what the call itself
 *       retains; {@code -1} when no collection ran during the call.
 * </ul>
 */
final class DriverMemory implements NotificationListener {
  /** One call's figures, in bytes. */
  record Reading(long peakBytes, long afterGcBytes) {}

  private final List<MemoryPoolMXBean> heap =
      ManagementFactory.getMemoryPoolMXBeans().stream()
          .filter(p -> p.getType() == MemoryType.HEAP && p.isValid())
          .toList();
  private long afterGc = -1;

  DriverMemory() {
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(this, null, null);
      }
    }
  }

  /** Starts a call: every heap pool's peak is set to its current use. */
  synchronized void reset() {
    heap.forEach(MemoryPoolMXBean::resetPeakUsage);
    afterGc = -1;
  }

  /** The figures since {@link #reset}. */
  synchronized Reading read() {
    long peak = 0;
    for (MemoryPoolMXBean pool : heap) {
      MemoryUsage usage = pool.getPeakUsage();
      if (usage != null) {
        peak += usage.getUsed();
      }
    }
    return new Reading(peak, afterGc);
  }

  @Override
  public synchronized void handleNotification(Notification notification, Object handback) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
        notification.getType())) {
      return;
    }
    GarbageCollectionNotificationInfo info =
        GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
    long used = 0;
    for (var e : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
      if (heap.stream().anyMatch(p -> p.getName().equals(e.getKey()))) {
        used += e.getValue().getUsed();
      }
    }
    afterGc = Math.max(afterGc, used);
  }
}
