package io.weaver.site;

import com.fasterxml.jackson.databind.JsonNode;
import io.weaver.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A headless Chromium driven through the DevTools protocol over a WebSocket (java.net.http): one
 * browser process, one page target. Collects every event, so a test can look for console errors,
 * exceptions and log entries after it navigated.
 */
final class Chromium implements AutoCloseable {
  static final Path BINARY = Path.of("/usr/bin/chromium");
  private static final Duration WAIT = Duration.ofSeconds(30);

  private final Process process;
  private final Path profile;
  private final WebSocket socket;
  private final AtomicInteger ids = new AtomicInteger();
  private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
  final List<JsonNode> events = new CopyOnWriteArrayList<>();

  private Chromium(Process process, Path profile, WebSocket socket) {
    this.process = process;
    this.profile = profile;
    this.socket = socket;
  }

  static Chromium start(int width, int height) throws Exception {
    Path profile = Files.createTempDirectory("weaver-chromium");
    Process process =
        new ProcessBuilder(
                BINARY.toString(),
                "--headless",
                "--no-sandbox", // tests may run as root (containers), where the sandbox refuses
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--disable-background-networking",
                "--hide-scrollbars",
                "--window-size=" + width + "," + height,
                "--remote-debugging-port=0",
                "--user-data-dir=" + profile,
                "about:blank")
            .redirectErrorStream(true)
            .redirectOutput(profile.resolveSibling(profile.getFileName() + ".log").toFile())
            .start();
    Path portFile = profile.resolve("DevToolsActivePort");
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!Files.exists(portFile) || Files.readAllLines(portFile).size() < 2) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        process.destroyForcibly();
        throw new IllegalStateException("chromium did not start (DevToolsActivePort missing)");
      }
      Thread.sleep(100);
    }
    int port = Integer.parseInt(Files.readAllLines(portFile).get(0).strip());
    HttpClient http = HttpClient.newHttpClient();
    String list =
        http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list"))
                    .timeout(WAIT)
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    String pageUrl = null;
    for (JsonNode target : Json.read(list)) {
      if (target.path("type").asText().equals("page")) {
        pageUrl = target.path("webSocketDebuggerUrl").asText();
        break;
      }
    }
    if (pageUrl == null) {
      process.destroyForcibly();
      throw new IllegalStateException("chromium has no page target: " + list);
    }
    Listener listener = new Listener();
    WebSocket socket =
        http.newWebSocketBuilder()
            .buildAsync(URI.create(pageUrl), listener)
            .get(30, TimeUnit.SECONDS);
    Chromium chromium = new Chromium(process, profile, socket);
    listener.chromium = chromium;
    return chromium;
  }

  /** Sends a command and waits for its result (throws on a protocol error). */
  JsonNode call(String method, Map<String, Object> params) {
    int id = ids.incrementAndGet();
    CompletableFuture<JsonNode> answer = new CompletableFuture<>();
    pending.put(id, answer);
    socket.sendText(Json.write(Map.of("id", id, "method", method, "params", params)), true).join();
    JsonNode reply;
    try {
      reply = answer.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(method + " got no answer", e);
    }
    if (reply.has("error")) {
      throw new IllegalStateException(method + ": " + reply.get("error"));
    }
    return reply.path("result");
  }

  /** Navigates and waits for the page's load event. */
  void open(String url) throws InterruptedException {
    int before = countOf("Page.loadEventFired");
    JsonNode nav = call("Page.navigate", Map.of("url", url));
    if (nav.has("errorText")) {
      throw new IllegalStateException(url + ": " + nav.get("errorText").asText());
    }
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (countOf("Page.loadEventFired") == before) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(url + " did not finish loading");
      }
      Thread.sleep(50);
    }
  }

  /** Evaluates {@code expression} in the page; its value, which must be JSON-serialisable. */
  JsonNode evaluate(String expression) {
    JsonNode r =
        call(
            "Runtime.evaluate",
            Map.of("expression", expression, "returnByValue", true, "awaitPromise", true));
    if (r.has("exceptionDetails")) {
      throw new IllegalStateException(expression + ": " + r.get("exceptionDetails"));
    }
    return r.path("result").path("value");
  }

  /** Console errors, uncaught exceptions and error log entries seen so far. */
  List<String> errors() {
    List<String> out = new ArrayList<>();
    for (JsonNode e : events) {
      String method = e.path("method").asText();
      JsonNode p = e.path("params");
      if (method.equals("Runtime.consoleAPICalled") && p.path("type").asText().equals("error")) {
        out.add("console.error: " + p.path("args"));
      } else if (method.equals("Runtime.exceptionThrown")) {
        out.add("exception: " + p.path("exceptionDetails"));
      } else if (method.equals("Log.entryAdded")
          && p.path("entry").path("level").asText().equals("error")) {
        out.add(
            "log: "
                + p.path("entry").path("text").asText()
                + " "
                + p.path("entry").path("url").asText());
      }
    }
    return out;
  }

  private int countOf(String method) {
    return (int) events.stream().filter(e -> e.path("method").asText().equals(method)).count();
  }

  private void received(String text) {
    try {
      JsonNode message = Json.read(text);
      if (message.has("id")) {
        CompletableFuture<JsonNode> f = pending.remove(message.get("id").asInt());
        if (f != null) {
          f.complete(message);
        }
      } else {
        events.add(message);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    try {
      socket.sendClose(WebSocket.NORMAL_CLOSURE, "done");
    } catch (RuntimeException e) {
      // the browser may be gone already
    }
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    try (Stream<Path> walk = Files.walk(profile)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // a leftover profile folder fails no test
    }
  }

  private static final class Listener implements WebSocket.Listener {
    private final StringBuilder partial = new StringBuilder();
    private final List<String> early = new ArrayList<>();
    volatile Chromium chromium;

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
      partial.append(data);
      if (last) {
        String text = partial.toString();
        partial.setLength(0);
        synchronized (early) {
          if (chromium == null) {
            early.add(text);
          } else {
            early.forEach(chromium::received);
            early.clear();
            chromium.received(text);
          }
        }
      }
      ws.request(1);
      return null;
    }
  }

  static String utf8(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
