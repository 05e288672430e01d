package io.weaver.metadata;

import java.util.concurrent.atomic.AtomicInteger;

/** A class a hostile header tries to instantiate; the test asserts it never is. */
public class Boom {
  static final AtomicInteger CREATED = new AtomicInteger();

  public Boom() {
    CREATED.incrementAndGet();
  }

  public void setValue(String value) {
    CREATED.incrementAndGet();
  }
}
