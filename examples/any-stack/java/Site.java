// A site in Java (the JDK alone: com.sun.net.httpserver, java.net.http and java.security) beside
// esign-proxy: the person logs in by OpenID Connect (esign-proxy is the provider; the JDK has no
// OpenID Connect client, so the code flow with PKCE and the ID token's RS256 signature, issuer,
// audience, expiry and nonce are checked here, by its keys), on the provider's page (/login) or with
// the widget on this site's own page (/login-here); the signing gate's question is answered from the
// site's session, and the signed files come as signed Standard Webhooks deliveries, each taken once.
// A site on Spring uses Spring Security's OAuth2 login instead. Run with nginx in front
// (docs/any-stack.md):
//
//   PORT=8080 PUBLIC_URL=https://site.example ESIGN_OIDC_ISSUER=https://site.example/esign/oidc \
//   OIDC_CLIENT_ID=site OIDC_CLIENT_SECRET=... ESIGN_WEBHOOK_SECRET=whsec_... SITE_DIR=/var/lib/site java Site.java
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.spec.RSAPublicKeySpec;
import java.time.Duration;
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

  /** What a login asked, kept until its answer comes back: to check the state, the nonce and PKCE. */
  record Asked(String state, String nonce, String verifier) {}

  static final Map<String, Person> SESSIONS = new ConcurrentHashMap<>();
  static final Map<String, Asked> LOGINS = new ConcurrentHashMap<>();
  static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  static final SecureRandom RANDOM = new SecureRandom();
  static byte[] key;
  static Path deliveries;
  static String publicUrl, issuer, clientId, clientSecret;
  /** The provider's discovery document. */
  static Map<?, ?> provider;

  static String random() {
    byte[] bytes = new byte[24];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** Whether this webhook-id is new: a file made only if absent, which a restart and every process see. */
  static boolean firstTime(String id) throws IOException {
    try {
      Files.createFile(deliveries.resolve(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8)))));
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
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

  static String cookie(HttpExchange exchange, String name) {
    String cookies = exchange.getRequestHeaders().getFirst("cookie");
    if (cookies == null) return null;
    for (String cookie : cookies.split(";")) {
      String[] pair = cookie.trim().split("=", 2);
      if (pair.length == 2 && pair[0].equals(name)) return pair[1];
    }
    return null;
  }

  static Person signedIn(HttpExchange exchange) {
    String session = cookie(exchange, "host_session");
    return session == null ? null : SESSIONS.get(session);
  }

  static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    if (type != null) exchange.getResponseHeaders().set("content-type", type);
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  static void page(HttpExchange exchange, String body) throws IOException {
    send(exchange, 200, "text/html; charset=utf-8", "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Java</title>"
        + "<script type=\"module\" src=\"/esign/cdn/esign-identify.js\"></script></head><body><h1>A site in Java</h1>" + body + "</body></html>");
  }

  static String json(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }

  static String form(String... pairs) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < pairs.length; i += 2) out.append(i == 0 ? "" : "&").append(pairs[i]).append('=').append(URLEncoder.encode(pairs[i + 1], StandardCharsets.UTF_8));
    return out.toString();
  }

  static Map<?, ?> getJson(String url) throws IOException, InterruptedException {
    HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    if (answer.statusCode() != 200) throw new IOException(url + " answered " + answer.statusCode());
    return (Map<?, ?>) Json.parse(answer.body());
  }

  /** The authorization request of a new login: its state, nonce and PKCE verifier kept by a cookie of its own. */
  static String authorization(HttpExchange exchange) throws Exception {
    Asked asked = new Asked(random(), random(), random() + random());
    String id = random();
    LOGINS.put(id, asked);
    exchange.getResponseHeaders().add("set-cookie", "login=" + id + "; Path=/; HttpOnly; SameSite=Lax; Max-Age=600" + (publicUrl.startsWith("https:") ? "; Secure" : ""));
    String challenge = Base64.getUrlEncoder().withoutPadding().encodeToString(MessageDigest.getInstance("SHA-256").digest(asked.verifier().getBytes(StandardCharsets.US_ASCII)));
    return provider.get("authorization_endpoint") + "?" + form("response_type", "code", "client_id", clientId, "redirect_uri", publicUrl + "/callback", "scope", "openid profile nin",
        "state", asked.state(), "nonce", asked.nonce(), "code_challenge", challenge, "code_challenge_method", "S256");
  }

  static byte[] unbase64(String text) {
    return Base64.getUrlDecoder().decode(text);
  }

  /** The ID token's claims once its RS256 signature (by the provider's published key), issuer, audience, expiry and nonce hold; else null. */
  static Map<?, ?> checkedClaims(String idToken, String nonce) throws Exception {
    String[] parts = idToken.split("\\.");
    if (parts.length != 3) return null;
    Map<?, ?> header = (Map<?, ?>) Json.parse(new String(unbase64(parts[0]), StandardCharsets.UTF_8));
    if (!"RS256".equals(header.get("alg"))) return null;
    PublicKey signer = null;
    for (Object item : (List<?>) getJson((String) provider.get("jwks_uri")).get("keys")) {
      Map<?, ?> jwk = (Map<?, ?>) item;
      if ("RSA".equals(jwk.get("kty")) && jwk.get("kid") != null && jwk.get("kid").equals(header.get("kid"))) {
        signer = KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(new BigInteger(1, unbase64((String) jwk.get("n"))), new BigInteger(1, unbase64((String) jwk.get("e")))));
      }
    }
    if (signer == null) return null;
    Signature rsa = Signature.getInstance("SHA256withRSA");
    rsa.initVerify(signer);
    rsa.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
    if (!rsa.verify(unbase64(parts[2]))) return null;
    Map<?, ?> claims = (Map<?, ?>) Json.parse(new String(unbase64(parts[1]), StandardCharsets.UTF_8));
    Object audience = claims.get("aud");
    boolean forUs = clientId.equals(audience) || (audience instanceof List<?> list && list.contains(clientId));
    boolean fresh = claims.get("exp") instanceof Double exp && exp > System.currentTimeMillis() / 1000.0;
    return issuer.equals(claims.get("iss")) && forUs && fresh && nonce.equals(claims.get("nonce")) ? claims : null;
  }

  public static void main(String[] args) throws Exception {
    key = Base64.getDecoder().decode(System.getenv("ESIGN_WEBHOOK_SECRET").replaceFirst("^whsec_", ""));
    publicUrl = System.getenv("PUBLIC_URL").replaceFirst("/$", "");
    issuer = System.getenv("ESIGN_OIDC_ISSUER").replaceFirst("/$", "");
    clientId = System.getenv("OIDC_CLIENT_ID");
    clientSecret = System.getenv("OIDC_CLIENT_SECRET");
    deliveries = Files.createDirectories(Path.of(System.getenv().getOrDefault("SITE_DIR", "site-data"), "deliveries"));
    provider = getJson(issuer + "/.well-known/openid-configuration");
    if (!issuer.equals(provider.get("issuer"))) throw new IllegalStateException("the provider names another issuer");
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.parseInt(System.getenv("PORT"))), 0);
    // the provider's page: the person logs in there and comes back to /callback
    server.createContext("/login", exchange -> {
      try {
        exchange.getResponseHeaders().set("location", authorization(exchange));
        send(exchange, 302, null, "");
      } catch (Exception e) {
        send(exchange, 500, "text/plain", "the login could not start");
      }
    });
    // the widget on this page, given the authorization request: it logs in here and goes on to /callback
    server.createContext("/login-here", exchange -> {
      try {
        page(exchange, "<esign-identify endpoint=\"/esign\" authorize=\"" + escape(authorization(exchange)) + "\"></esign-identify>");
      } catch (Exception e) {
        send(exchange, 500, "text/plain", "the login could not start");
      }
    });
    server.createContext("/callback", exchange -> {
      Map<String, String> query = new LinkedHashMap<>();
      String raw = exchange.getRequestURI().getRawQuery();
      for (String pair : raw == null ? new String[0] : raw.split("&")) {
        String[] kv = pair.split("=", 2);
        query.put(java.net.URLDecoder.decode(kv[0], StandardCharsets.UTF_8), kv.length > 1 ? java.net.URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "");
      }
      String loginId = cookie(exchange, "login");
      Asked asked = loginId == null ? null : LOGINS.remove(loginId);
      if (asked == null || !asked.state().equals(query.get("state"))) {
        send(exchange, 400, "text/plain", "no login was started here");
        return;
      }
      if (query.containsKey("error")) {
        page(exchange, "<p id=\"refused\">Not logged in: " + escape(query.get("error")) + "</p>");
        return;
      }
      try {
        String basic = Base64.getEncoder().encodeToString((URLEncoder.encode(clientId, StandardCharsets.UTF_8) + ":" + URLEncoder.encode(clientSecret, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8));
        HttpRequest redeem = HttpRequest.newBuilder(URI.create((String) provider.get("token_endpoint"))).timeout(Duration.ofSeconds(10))
            .header("content-type", "application/x-www-form-urlencoded").header("authorization", "Basic " + basic)
            .POST(HttpRequest.BodyPublishers.ofString(form("grant_type", "authorization_code", "code", query.getOrDefault("code", ""), "redirect_uri", publicUrl + "/callback", "code_verifier", asked.verifier())))
            .build();
        HttpResponse<String> answer = HTTP.send(redeem, HttpResponse.BodyHandlers.ofString());
        Map<?, ?> claims = answer.statusCode() == 200 ? checkedClaims((String) ((Map<?, ?>) Json.parse(answer.body())).get("id_token"), asked.nonce()) : null;
        if (claims == null || !(claims.get("nin") instanceof String)) {
          send(exchange, 502, "text/plain", "the login could not be verified");
          return;
        }
        String session = random(); // a new session id at login, against fixation
        SESSIONS.put(session, new Person((String) claims.get("nin_issuing_country"), (String) claims.get("nin"), (String) claims.get("given_name"), (String) claims.get("family_name")));
        exchange.getResponseHeaders().add("set-cookie", "host_session=" + session + "; Path=/; HttpOnly; SameSite=Lax" + (publicUrl.startsWith("https:") ? "; Secure" : ""));
        exchange.getResponseHeaders().set("location", "/");
        send(exchange, 303, null, "");
      } catch (Exception e) {
        send(exchange, 502, "text/plain", "the login could not be completed");
      }
    });
    // a fact (a signed file, a document's state), taken once by its webhook-id; no delivery logs anyone in
    server.createContext("/esign-webhook", exchange -> {
      String body = "POST".equals(exchange.getRequestMethod()) ? verified(exchange) : null;
      if (body == null) {
        send(exchange, 400, "text/plain", "not a delivery of ours");
        return;
      }
      Map<?, ?> delivery = (Map<?, ?>) Json.parse(body);
      if (firstTime(exchange.getRequestHeaders().getFirst("webhook-id"))) System.out.println("took a delivery: " + delivery.get("type"));
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
      page(exchange, person == null
          ? "<p id=\"anonymous\">Not logged in: <a href=\"/login\">log in</a>, or <a href=\"/login-here\">log in on this page</a></p>"
          : "<p id=\"welcome\">Welcome, " + escape(person.name()) + " " + escape(person.surname()) + "</p>");
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
