package io.weaver.python;

/**
 * The Python side of a Python Table load, implemented in Python (the {@code weaver} package) and
 * called back through py4j. One call runs one Table's {@code read()}.
 *
 * <p>Implementations never throw for an error in the Table: they return {@link
 * PythonRead#failed(String)} with the Python traceback, so the message reaches the load result
 * intact. An exception thrown across py4j (the Python process died, the gateway closed) fails the
 * load too, with py4j's message.
 */
public interface PythonTableRunner {

  /** Imports the Table's file, runs its {@code read()}, validates the return contract. */
  PythonRead read(PythonReadRequest request);
}
