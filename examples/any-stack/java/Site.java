// A site in Java (the JDK alone: com.sun.net.httpserver and javax.crypto) beside esign-proxy: the
// verified person into the site's own session from a signed webhook delivery, the signing gate's
// question answered from that session, and the greeting from the server. Run with nginx in front
// (docs/any-stack.md):
//
//   PORT=8080 ESIGN_WEBHOOK_SECRET=whsec_... java Site.java
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public class Site {
  /** A person is a country and a code: the same digits in two countries are two people. */
  record Person(String country, String code, String name, String surname) {}

  static final Map<String, Person> SESSIONS = new ConcurrentHashMap<>();
  /**
   * Each webhook-id taken, until its delivery can no longer verify (both ways of five minutes): a
   * repeat (esign-proxy's retry, or a delivery captured and sent again) changes nothing. Several
   * processes of a site keep these where they all look (the database, Redis).
   */
  static final Map<String, Long> SEEN = new ConcurrentHashMap<>();
  static byte[] key;

  static boolean firstTime(String id) {
    long now = System.currentTimeMillis() / 1000;
    SEEN.values().removeIf(until -> until < now);
    return SEEN.putIfAbsent(id, now + 600) == null;
  }

  /**
   * A delivery signed as Standard Webhooks says, or null: the signature of id.timestamp.body under
   * the secret, and a timestamp within five minutes (no replay of an old one).
   */
  static String verified(HttpExchange exchange) throws IOException {
    String body = new String(exchange.getRequestBody().readNBytes(1 << 20), StandardCharsets.UTF_8);
    String id = exchange.getRequestHeaders().getFirst("webhook-id");
    String stamp = exchange.getRequestHeaders().getFirst("webhook-timestamp");
    String signatures = exchange.getRequestHeaders().getFirst("webhook-signature");
    if (id == null || stamp == null || signatures == null || !stamp.matches("\\d{1,12}")) return null;
    if (Math.abs(System.currentTimeMillis() / 1000 - Long.parseLong(stamp)) > 300) return null;
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      byte[] expected = Base64.getEncoder().encode(mac.doFinal((id + "." + stamp + "." + body).getBytes(StandardCharsets.UTF_8)));
      for (String signature : signatures.split(" ")) {
        if (signature.startsWith("v1,") && MessageDigest.isEqual(signature.substring(3).getBytes(StandardCharsets.UTF_8), expected)) return body;
      }
    } catch (Exception e) {
      return null;
    }
    return null;
  }

  static Person signedIn(HttpExchange exchange) {
    String cookies = exchange.getRequestHeaders().getFirst("cookie");
    if (cookies == null) return null;
    for (String cookie : cookies.split(";")) {
      String[] pair = cookie.trim().split("=", 2);
      if (pair.length == 2 && pair[0].equals("host_session")) return SESSIONS.get(pair[1]);
    }
    return null;
  }

  static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    if (type != null) exchange.getResponseHeaders().set("content-type", type);
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  static String json(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }

  public static void main(String[] args) throws IOException {
    key = Base64.getDecoder().decode(System.getenv("ESIGN_WEBHOOK_SECRET").replaceFirst("^whsec_", ""));
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.parseInt(System.getenv("PORT"))), 0);
    // the verified result, before the browser sees it: a login becomes this site's session
    server.createContext("/esign-webhook", exchange -> {
      String body = "POST".equals(exchange.getRequestMethod()) ? verified(exchange) : null;
      if (body == null) {
        send(exchange, 400, "text/plain", "not a delivery of ours");
        return;
      }
      Map<?, ?> delivery = (Map<?, ?>) Json.parse(body);
      if (!firstTime(exchange.getRequestHeaders().getFirst("webhook-id"))) {
        send(exchange, 204, null, "");
        return;
      }
      if ("login.verified".equals(delivery.get("type"))) {
        Map<?, ?> result = (Map<?, ?>) ((Map<?, ?>) delivery.get("data")).get("result");
        byte[] id = new byte[24];
        new SecureRandom().nextBytes(id);
        String session = HexFormat.of().formatHex(id); // a new session id at login, against fixation
        SESSIONS.put(session, new Person((String) result.get("country"), (String) result.get("code"), (String) result.get("name"), (String) result.get("surname")));
        exchange.getResponseHeaders().add("set-cookie", "host_session=" + session + "; Path=/; HttpOnly; SameSite=Lax");
      }
      send(exchange, 204, null, "");
    });
    // the signing gate asks who is signed in: the person of this browser's session, or null
    server.createContext("/esign-signer", exchange -> {
      if (!"POST".equals(exchange.getRequestMethod()) || verified(exchange) == null) {
        send(exchange, 400, "text/plain", "not a question of ours");
        return;
      }
      Person person = signedIn(exchange);
      send(exchange, 200, "application/json", person == null ? "null" : "{\"country\":" + json(person.country()) + ",\"code\":" + json(person.code()) + "}");
    });
    // what the server knows, whatever the browser's events said
    server.createContext("/me", exchange -> {
      Person person = signedIn(exchange);
      if (person == null) send(exchange, 401, "application/json", "{\"loggedIn\":false}");
      else send(exchange, 200, "application/json", "{\"country\":" + json(person.country()) + ",\"code\":" + json(person.code()) + ",\"name\":" + json(person.name()) + ",\"surname\":" + json(person.surname()) + "}");
    });
    server.createContext("/", exchange -> {
      if (!exchange.getRequestURI().getPath().equals("/")) {
        send(exchange, 404, "text/plain", "not found");
        return;
      }
      Person person = signedIn(exchange);
      String greeting = person == null ? "<p id=\"anonymous\">Not logged in</p>" : "<p id=\"welcome\">Welcome, " + escape(person.name()) + " " + escape(person.surname()) + "</p>";
      send(exchange, 200, "text/html; charset=utf-8", "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Java</title>"
          + "<script type=\"module\" src=\"/esign/cdn/esign-identify.js\"></script></head><body><h1>A site in Java</h1>" + greeting
          + "<esign-identify endpoint=\"/esign\" channels=\"smartid\" country=\"EE\"></esign-identify></body></html>");
    });
    server.start();
  }

  /** Just enough JSON for a delivery (objects, arrays, strings, numbers, true, false, null): the JDK has no parser. */
  static final class Json {
    private final String text;
    private int at;

    private Json(String text) {
      this.text = text;
    }

    static Object parse(String text) {
      Json json = new Json(text);
      Object value = json.value();
      json.space();
      if (json.at != text.length()) throw new IllegalArgumentException("trailing text");
      return value;
    }

    private void space() {
      while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++;
    }

    private Object value() {
      space();
      char c = text.charAt(at);
      if (c == '{') {
        Map<String, Object> object = new LinkedHashMap<>();
        at++;
        space();
        if (text.charAt(at) == '}') {
          at++;
          return object;
        }
        while (true) {
          String name = (String) value();
          space();
          at++; // :
          object.put(name, value());
          space();
          if (text.charAt(at++) == '}') return object;
        }
      }
      if (c == '[') {
        List<Object> array = new ArrayList<>();
        at++;
        space();
        if (text.charAt(at) == ']') {
          at++;
          return array;
        }
        while (true) {
          array.add(value());
          space();
          if (text.charAt(at++) == ']') return array;
        }
      }
      if (c == '"') {
        StringBuilder out = new StringBuilder();
        at++;
        while (text.charAt(at) != '"') {
          char ch = text.charAt(at++);
          if (ch != '\\') {
            out.append(ch);
            continue;
          }
          char e = text.charAt(at++);
          switch (e) {
            case 'n' -> out.append('\n');
            case 't' -> out.append('\t');
            case 'r' -> out.append('\r');
            case 'b' -> out.append('\b');
            case 'f' -> out.append('\f');
            case 'u' -> {
              out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
              at += 4;
            }
            default -> out.append(e);
          }
        }
        at++;
        return out.toString();
      }
      int start = at;
      while (at < text.length() && "{}[],: \t\r\n".indexOf(text.charAt(at)) < 0) at++;
      String word = text.substring(start, at);
      return switch (word) {
        case "true" -> Boolean.TRUE;
        case "false" -> Boolean.FALSE;
        case "null" -> null;
        default -> Double.parseDouble(word);
      };
    }
  }
}
