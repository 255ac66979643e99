"""The esign-elements proxy contract in Python (Flask + requests), for hosts that do not run Node.

Run:  ESIGN_BASE_URL=https://service.example ESIGN_ACCESS_TOKEN=... flask --app proxy run
Or under several workers:  gunicorn -w 4 proxy:app  (they share their state in ESIGN_STATE_FILE).
In your own Flask app:  app.register_blueprint(proxy.blueprint, url_prefix="/esign")
Check it with:  npx esign-sandbox check-proxy http://127.0.0.1:5000/esign

The rules every esign-elements proxy keeps (operations, fields, shapes, limits, lifetimes, event
names) come from proxy-rules.json beside this file, made from the Node proxy's own rulebook. What
every worker must agree on (which visitor started which session, the counters, who is handing a
result over, when a session was last polled) lives in one SQLite file, written in IMMEDIATE
transactions so that workers take turns: the same tables as the PHP proxy's.
"""
import base64
import hashlib
import hmac
import ipaddress
import json
import os
import re
import secrets
import sqlite3
import stat
import sys
import tempfile
import threading
import time
import uuid
import zipfile
from io import BytesIO
from datetime import datetime, timezone

import requests
from flask import Blueprint, Flask, Response, copy_current_request_context, current_app, g, request, session

with open(os.environ.get("ESIGN_RULES_FILE") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "proxy-rules.json")) as rules_file:
    RULES = json.load(rules_file)
RULES_VERSION = 1  # the version of proxy-rules.json this module keeps
if RULES.get("version") != RULES_VERSION:
    # a rules file of another version may mean other fields or limits than this module can keep
    raise RuntimeError(f"proxy-rules.json is of version {RULES.get('version')!r}; this proxy keeps version {RULES_VERSION}: use the proxy-rules.json of the same release")

BASE_URL = os.environ["ESIGN_BASE_URL"].rstrip("/")
ACCESS_TOKEN = os.environ["ESIGN_ACCESS_TOKEN"]
ALLOWED_ORIGINS = {o for o in os.environ.get("ESIGN_ALLOWED_ORIGINS", "").split(",") if o}
EXPOSE_SCREENING = os.environ.get("ESIGN_EXPOSE_SCREENING") == "1"
PREFIX = os.environ.get("ESIGN_PREFIX", "/esign").rstrip("/")


def private_state_dir():
    """Where the state is kept when ESIGN_STATE_FILE is not set: a folder of this account's own in the
    system's temp folder (0700), never a file every account there can read. A folder of that name that
    is another account's, or open to others, is refused at start."""
    folder = os.path.join(tempfile.gettempdir(), f"esign-proxy-{os.geteuid()}")
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:
        pass
    info = os.lstat(folder)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o077:
        raise RuntimeError(f"the state folder {folder} is another account's or open to others: set ESIGN_STATE_FILE")
    return folder


STATE_FILE = os.environ.get("ESIGN_STATE_FILE") or os.path.join(private_state_dir(), "state.sqlite")
BODY_LIMIT = RULES["bodyLimit"]
SESSION_BODY_LIMIT = RULES["sessionBodyLimit"]  # every session operation but those that carry files
# The scheme the host's pages are served over; by default https, and http too on a loopback address.
PUBLIC_SCHEME = os.environ.get("ESIGN_PUBLIC_SCHEME")
RESULT_TIMEOUT = RULES["result"]["timeoutMs"] / 1000  # seconds on_result may take; past it the run counts as failed
RESULT_WAIT = RULES["result"]["waitMs"] / 1000  # seconds a poll waits for another request's on_result before it answers "waiting"
LEASE = RULES["result"]["leaseMs"] / 1000  # the claim on a result, renewed while on_result runs: a dead worker's lapses this soon
RENEW_EVERY = RULES["result"]["renewEveryMs"] / 1000
MIN_POLL_INTERVAL = RULES["minPollIntervalMs"] / 1000  # a poll sooner than this after the last one is answered "waiting" unforwarded
ANSWER_LIMIT = RULES["answerLimit"]
UPSTREAM_TIMEOUT = RULES["upstreamTimeoutMs"] / 1000
SESSION_TTL = RULES["sessionTtlMs"] / 1000
FINISHED_TTL = RULES["finishedSessionTtlMs"] / 1000  # a finished session's marks stay this long for late polls
STORE_RETRY_AFTER = RULES["storeRetryAfterSeconds"]
LIMITS = {scope: (RULES["rateLimits"][key]["limit"], RULES["rateLimits"][key]["windowMs"] / 1000)
          for scope, key in (("visitor", "perVisitor"), ("person", "perPerson"), ("address", "perAddress"))}
if os.environ.get("ESIGN_RATE_LIMIT"):  # "visitor,person,window[,address]", e.g. "3,2,60" for tests
    v, p, w, *a = (int(x) for x in os.environ["ESIGN_RATE_LIMIT"].split(","))
    LIMITS = {"visitor": (v, w), "person": (p, w), "address": (a[0] if a else LIMITS["address"][0], w)}
# Count starts per client address only where request.remote_addr is the browser's: nothing in
# front of Flask, or werkzeug's ProxyFix set for your load balancer (else everyone shares its address).
LIMIT_BY_ADDRESS = os.environ.get("ESIGN_LIMIT_BY_ADDRESS") == "1"
# the request id: the edge's, from this header, only where the host's edge sets it (a browser can send any header)
TRUST_REQUEST_ID_HEADER = os.environ.get("ESIGN_TRUST_REQUEST_ID_HEADER", "")
REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
# With it, a person appears in events as HMAC-SHA256 digests the host can compute; without, masked.
EVENT_SECRET = os.environ.get("ESIGN_EVENT_SECRET", "").encode()
# The visitor cookie is minted here and signed with this key (default: the access token), so a value
# planted in a browser is replaced, never adopted. Give every worker and node the same.
VISITOR_SECRET = (os.environ.get("ESIGN_VISITOR_SECRET") or os.environ["ESIGN_ACCESS_TOKEN"]).encode()
if len(ACCESS_TOKEN) < 8:
    raise SystemExit("ESIGN_ACCESS_TOKEN must have at least 8 characters")

# --- the allow-list, from the rulebook: method, path, the operation's own fields and JSON types ----
# Document operations are off here; a host that enables them adds them with an authorize check per uuid.
def path_pattern(op):
    parts = re.split(r"(\{\w+\})", op["path"])
    body = "".join(f"(?P<{m.group(1)}>{RULES['paramPattern']})" if (m := re.fullmatch(r"\{(\w+)\}", part)) else re.escape(part) for part in parts)
    return (f"(?:{re.escape(RULES['englishPrefix'])})?" if op["localized"] else "") + body


OPERATIONS = {op_id: (op["method"], path_pattern(op), op["fields"], op) for op_id in RULES["sessionOperations"] for op in [RULES["operations"][op_id]]}
FILE_STARTS = {op_id for op_id, op in RULES["operations"].items() if op["carriesFiles"]}
# Start fields by the service's published shapes: checked before anything is counted or forwarded.
SHAPES = RULES["startShapes"]
START_TEXT_LIMIT = RULES["startTextLimit"]
SCREENING_FIELDS = tuple(RULES["screeningFields"])
LOOPBACK = re.compile(r"(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?", re.I)

RESULTS = []   # what on_result received in this process, for the host's server-side use
# Sign only as the person signed in to your site: set GATE_SIGNING and return them from signer().
# ESIGN_SIGNER sets one for tests: "code,country[,phone]", or "-" for nobody signed in.
GATE_SIGNING = bool(os.environ.get("ESIGN_SIGNER"))


def signer():
    """The person signed in to your site, a country and a code ({"country", "code", "phone"?}), or
    None when nobody is: e.g. session.get("person") after your login stored it (flask.session)."""
    if os.environ.get("ESIGN_SIGNER", "-") == "-":
        return None
    code, country, phone = (os.environ["ESIGN_SIGNER"].split(",") + ["", ""])[:3]
    return {"code": code, "country": country or None, "phone": phone or None}


def report_to_check(token):
    """With ESIGN_CHECK_HOOK_URL (esign-sandbox check-proxy's result-first row): say when this run
    begins and ends, and take ESIGN_CHECK_HOOK_MS between, as a slow host's work would."""
    hook = os.environ.get("ESIGN_CHECK_HOOK_URL")
    if hook:
        said = requests.post(hook, json={"token": token, "at": "start"}, timeout=5)
        time.sleep(int(os.environ.get("ESIGN_CHECK_HOOK_MS") or 0) / 1000)
        requests.post(hook, json={"token": token, "at": "end"}, timeout=5)
        if said.status_code == 409:  # the check's site turns this person away
            raise ResultRefused(409)


class ResultRefused(Exception):
    """Raised by on_result when your site will not take this result (a person it does not serve):
    the session ends for the browser with 409 site-refused, and is not tried again."""

    def __init__(self, status=None):
        super().__init__(f"the host refused the result (HTTP {status})" if status else "the host refused the result")
        self.status = status


def on_result(operation, token, visitor, answer):
    """The verified result, before the browser sees it: log the person in, store the file, ...
    (idempotent by token). operation is the Node proxy's id (mobileLoginStatus, smartIdSignStatus, ...).
    Raise ResultRefused to turn the person away for good; any other exception is tried again."""
    RESULTS.append({"operation": operation, "token": token, "visitor": visitor, "result": answer})
    report_to_check(token)
    if os.environ.get("ESIGN_RESULT_LOG"):  # for trying the example out: a line per result, no personal data
        with open(os.environ["ESIGN_RESULT_LOG"], "a") as log:
            log.write(json.dumps({"operation": operation, "status": answer.get("status")}) + "\n")


# The proxy as a blueprint: app.register_blueprint(blueprint, url_prefix="/esign") in your own app
# (the prefix of its registration, else ESIGN_PREFIX); `app` is a whole app of its own with it.
blueprint = Blueprint("esign", __name__)
prefixes = []
blueprint.record(lambda state: prefixes.append((state.url_prefix or PREFIX).rstrip("/")))


# --- events: the Node proxy's names, one JSON line on stderr per request that ended in one of them --
REASONS = RULES["events"]["refusals"]
FAILURES = RULES["events"]["failures"]


def mask_code(code):
    compact = re.sub(r"\s", "", code)
    return f"{compact[:4]}••••{compact[-3:]}" if len(compact) >= 8 else "•••"


def mask_phone(phone):
    found = re.fullmatch(r"(\+\d{3})(\d)\d*(\d{3})", re.sub(r"[\s-]", "", phone))
    return f"{found[1]}\u00a0{found[2]}••\u00a0••{found[3]}" if found else "•••"


def event_person(sent):
    keyed = lambda value: hmac.new(EVENT_SECRET, value.encode(), hashlib.sha256).hexdigest()
    person = {}
    if isinstance(sent.get("code"), str) and sent["code"]:
        person["code"] = keyed("code:" + sent["code"].replace("-", "")) if EVENT_SECRET else mask_code(sent["code"])
    if isinstance(sent.get("phone"), str) and sent["phone"]:
        person["phone"] = keyed("phone:" + re.sub(r"\D", "", sent["phone"])) if EVENT_SECRET else mask_phone(sent["phone"])
    return person or None


@blueprint.after_app_request
def write_event(response):
    """The request's event, if it made one: never a token, a body, or a person in clear."""
    request_id = g.pop("esign_request_id", None)
    if request_id is not None:
        response.headers["X-Request-Id"] = request_id
    info = g.pop("esign", None)
    if info is None:
        return response
    kind, outcome, failure = info.pop("proxy_error", None), info.pop("outcome", None), info.pop("failure", None)
    event = {"requestId": request_id, "at": info.pop("at"), "durationMs": round((time.time() - info.pop("t0")) * 1000), **info}
    if "hook" in event:
        event.update(type="host-error", status=response.status_code)
    elif event.get("reason") or REASONS.get(kind):
        event.update(type="refused", reason=event.get("reason") or REASONS[kind], status=response.status_code)
    elif failure or FAILURES.get(kind):
        event.update(type="failed", failure=failure or FAILURES[kind], status=response.status_code)
    elif outcome:
        event.update(outcome)
    else:
        return response
    sys.stderr.write(json.dumps(event, ensure_ascii=False) + "\n")
    return response


def error(status, kind, message, **extra):
    if "esign" in g:
        g.esign["proxy_error"] = kind
    body = json.dumps({"status": "error", "message": message, "proxy_error": kind, **extra})
    return Response(body, status, {"content-type": "application/json", "cache-control": "no-store"})


def match(method, path):
    for name, (op_method, pattern, fields, op) in OPERATIONS.items():
        found = re.fullmatch(pattern, path)  # fullmatch: "$" would also match before a final "\n"
        if found and method == op_method:
            params = found.groupdict()
            return name, fields, op, params.get("token") or params.get("sessionId")
    return None


class InvalidField(Exception):
    pass


def pick(shape, value, path):
    """The fields the operation takes, of their JSON types (the rulebook's shapes); a wrong type is refused."""
    if isinstance(shape, str):
        kind = {"string": str, "boolean": bool, "integer": int}[shape]
        if type(value) is not kind:
            raise InvalidField(path)
        return value
    if set(shape) == {"array"} and isinstance(shape["array"], (str, dict)):
        if not isinstance(value, list):
            raise InvalidField(path)
        return [pick(shape["array"], item, f"{path}.{i}") for i, item in enumerate(value)]
    fields = shape["object"] if set(shape) == {"object"} and isinstance(shape["object"], dict) else shape
    if not isinstance(value, dict):
        raise InvalidField(path)
    return {k: pick(s, value[k], f"{path}.{k}" if path else k) for k, s in fields.items() if k in value}


def redact(value):
    if isinstance(value, str):
        return value.replace(ACCESS_TOKEN, "[redacted]")
    if isinstance(value, list):
        return [redact(v) for v in value]
    if isinstance(value, dict):
        return {redact(k): redact(v) for k, v in value.items()}
    return value


def address_key(address):
    """An IPv4 address as it is (IPv4-mapped too), an IPv6 one by its /64 (one household holds a whole /64)."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return address
    if ip.version == 6 and ip.ipv4_mapped:
        return str(ip.ipv4_mapped)
    return str(ipaddress.ip_network(f"{ip}/64", strict=False)) if ip.version == 6 else str(ip)


def without_screening(value):
    """The answer without PEP and sanctions data at any depth."""
    if isinstance(value, list):
        return [without_screening(v) for v in value]
    if isinstance(value, dict):
        return {k: without_screening(v) for k, v in value.items() if k not in SCREENING_FIELDS}
    return value


def bad_start_field(sent):
    for name, value in sent.items():
        if isinstance(value, str):
            shape = SHAPES.get(name)
            if (not re.search(shape, value) or value.endswith("\n")) if shape else len(value) > START_TEXT_LIMIT:
                return name
    return None


# --- a person is a country and a code: the same digits in two countries are two people ---------
COUNTRIES = tuple(RULES["countries"])


def canonical_code(country, code):
    """A code as one person has it: only in Latvia is the code with or without its hyphen the same."""
    compact = re.sub(r"\s", "", code)
    return compact.replace("-", "") if country == "LV" else compact


def phone_country(phone):
    """Mobile-ID exists in Lithuania (+370) and Estonia (+372)."""
    compact = re.sub(r"[\s-]", "", phone)
    return "LT" if compact.startswith("+370") else "EE" if compact.startswith("+372") else None


def start_country(sent):
    """The one country a start names (its country field, a Mobile-ID phone's), or None for none or two."""
    named = set()
    if isinstance(sent.get("country"), str):
        named.add(sent["country"].upper())
    if isinstance(sent.get("phone"), str) and phone_country(sent["phone"]):
        named.add(phone_country(sent["phone"]))
    return named.pop() if len(named) == 1 else None


def person_digest(country, code):
    """A person as a binding keeps them: a digest of country and code, never the code in clear."""
    return digest(f"signer:{country}:{canonical_code(country, code)}")


def person_key(channel, sent):
    """Whom a start's push reaches. Smart-ID pushes to the account of the country and code (the same
    digits in another country are another person). Mobile-ID pushes only when phone and code belong
    together (a wrong pair is turned away at the poll, after an accepted start), so it counts the
    pair: a person's code with phones not theirs never uses up their starts."""
    country = start_country(sent)
    code = canonical_code(country, sent["code"])
    if channel != "mobile":
        return f"smartid:{country or '-'}:{code}"
    return "mobile:" + code + ":" + re.sub(r"\D", "", sent.get("phone") or "")


def signer_problem(who):
    """What is wrong with a signer() answer that is not None, or None when it names a person."""
    if not isinstance(who, dict):
        return "neither None nor {country, code}"
    if not isinstance(who.get("code"), str) or not who["code"].strip():
        return "a person without a code"
    if who.get("country") not in COUNTRIES:
        return "a person without a country (LT, LV or EE): a person is a country and a code"
    return None


def same_signer(sent, who):
    """The start is for the signer: their country (the field, and a Mobile-ID phone's), their code
    as that country writes it, and their phone where the host gives one."""
    country = who["country"]
    if start_country(sent) != country:
        return False
    if not isinstance(sent.get("code"), str) or canonical_code(country, sent["code"]) != canonical_code(country, who["code"]):
        return False
    if who.get("phone") and isinstance(sent.get("phone"), str) and re.sub(r"\D", "", sent["phone"]) != re.sub(r"\D", "", who["phone"]):
        return False
    return True


# --- the signature the service added in this session, and whom its certificate names -----------
SERIAL_NUMBER = re.compile(rb"\x06\x03\x55\x04\x05[\x13\x0c]([\x00-\x40])")
PERSONAL_NUMBER = re.compile(r"PNO([A-Z]{2})-([0-9A-Z-]{6,20})")
SIGNATURE_ENTRY = re.compile(RULES["signatureEntries"]["pattern"])
PDF_SIGNATURE = re.compile(rb"/Contents\s*<([0-9A-Fa-f\s]{128,})>")
ENTRY_LIMIT = RULES["signatureEntries"]["inflateLimit"]  # the most a container's signature entry may inflate to
MOST_SIGNATURE_ENTRIES = RULES["signatureEntries"]["most"]


def persons_in_der(der):
    """(country, code) of subject serial numbers (OID 2.5.4.5, "PNOLT-<code>") in DER bytes."""
    persons = []
    for found in SERIAL_NUMBER.finditer(der):
        value = der[found.end():found.end() + found.group(1)[0]].decode("latin1")
        number = PERSONAL_NUMBER.fullmatch(value)
        if number and number.group(1) in COUNTRIES:
            persons.append((number.group(1), canonical_code(number.group(1), number.group(2))))
    return persons


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def read_entry(container, name):
    """An entry's bytes, at most ENTRY_LIMIT of them (None past it): a small answer may inflate to gigabytes."""
    with container.open(name) as entry:
        data = entry.read(ENTRY_LIMIT + 1)
    return None if len(data) > ENTRY_LIMIT else data


def signature_entries(data):
    """A container's signature entries by name, each its bytes (None when unreadable)."""
    found = {}
    if not data.startswith(b"PK"):
        return found
    try:
        with zipfile.ZipFile(BytesIO(data)) as container:
            for name in container.namelist():
                if SIGNATURE_ENTRY.fullmatch(name):
                    try:
                        found[name] = read_entry(container, name)
                    except (zipfile.BadZipFile, ValueError, OSError, NotImplementedError, EOFError):
                        found[name] = None
    except (zipfile.BadZipFile, ValueError, OSError):
        pass
    return found


def upload_print(sent):
    """What the uploaded file held before the service signed it: a PDF's length and digest, a
    container's signature entries with a digest each (and loose files named like one); None for
    more signature entries than any real container has."""
    kind = sent.get("type")
    files = [(f.get("name", ""), base64.b64decode(f.get("content", ""))) for f in ((sent.get(kind) or {}).get("files") or [])] if isinstance(kind, str) else []
    if kind == "pdf":
        pdf = files[0][1] if files else b""
        return {"type": "pdf", "length": len(pdf), "sha256": sha256(pdf)}
    entries = {name: sha256(content) for name, content in files if SIGNATURE_ENTRY.fullmatch(name)}
    if len(files) == 1:
        entries.update({name: sha256(data) if data is not None else "" for name, data in signature_entries(files[0][1]).items()})
    return {"type": "container", "entries": entries} if len(entries) <= MOST_SIGNATURE_ENTRIES else None


def added_signature(upload, signed):
    """(persons, None) of the one signature the service added to the uploaded file, or (None, why)."""
    if upload["type"] == "pdf":
        if len(signed) <= upload["length"] or sha256(signed[:upload["length"]]) != upload["sha256"]:
            return None, "does not begin with the uploaded file"
        added = PDF_SIGNATURE.findall(signed[upload["length"]:])
        if len(added) != 1:
            return None, "has more than one new signature" if added else "has no new signature"
        ders = [bytes.fromhex(re.sub(rb"\s", b"", added[0]).decode())]
    else:
        now = signature_entries(signed)
        for name, digest_before in upload["entries"].items():
            if now.get(name) is None or sha256(now[name]) != digest_before:
                return None, "changed or dropped a signature it already had"
        added = [name for name in now if name not in upload["entries"]]
        if len(added) != 1:
            return None, "has more than one new signature" if added else "has no new signature"
        if now[added[0]] is None:
            return None, "has a new signature that cannot be read"
        xml = now[added[0]].decode("utf8", "replace")
        ders = [base64.b64decode(re.sub(r"\s", "", c)) for c in re.findall(r"<(?:[\w-]+:)?X509Certificate>([A-Za-z0-9+/=\s]+)</", xml)]
    persons = [person for der in ders for person in persons_in_der(der)]
    return (persons, None) if persons else (None, "has a new signature that names nobody")


def new_visitor():
    """A visitor id minted here: a random part and its MAC under VISITOR_SECRET (46 characters)."""
    random = secrets.token_urlsafe(18)
    return random + visitor_mac(random)


def visitor_mac(random):
    mac = hmac.new(VISITOR_SECRET, f"esign-visitor:{random}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode().rstrip("=")[:22]


def minted_visitor(value):
    """Whether a cookie's value is an id minted here (a planted one is replaced, never adopted)."""
    return bool(re.fullmatch(r"[A-Za-z0-9_-]{46}", value)) and hmac.compare_digest(visitor_mac(value[:24]), value[24:])


def visitor_digest(visitor):
    """The visitor in events: a keyed digest (ESIGN_EVENT_SECRET, else the access token), never the cookie's value."""
    return hmac.new(EVENT_SECRET or ACCESS_TOKEN.encode(), f"visitor:{visitor}".encode(), hashlib.sha256).hexdigest()


def digest(text):
    """A fixed-size key, whatever was sent, and no personal code in clear in memory."""
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def page_schemes():
    if PUBLIC_SCHEME:
        return {PUBLIC_SCHEME}
    if request.scheme == "https":
        return {"https"}
    return {"https", "http"} if LOOPBACK.fullmatch(request.host) else {"https"}


# --- the state every worker shares: one SQLite file (the PHP proxy's tables) ----------------------
class StateUnavailable(Exception):
    """The state file could not be read or written in time: the request fails closed (503)."""


local = threading.local()


def state():
    """This thread's connection to the state file (a second's wait for another worker at most)."""
    db = getattr(local, "db", None)
    if db is None:
        # its files (the database, its WAL and index) readable by this account alone
        mask = os.umask(0o077)
        try:
            db = sqlite3.connect(STATE_FILE, timeout=1.0, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode = WAL")
        finally:
            os.umask(mask)
        db.execute("CREATE TABLE IF NOT EXISTS bindings (token TEXT PRIMARY KEY, visitor TEXT, channel TEXT, status TEXT, expires REAL, person TEXT, signer TEXT, upload TEXT, rotated_from TEXT)")
        if "rotated_from" not in [row[1] for row in db.execute("PRAGMA table_info(bindings)")]:
            db.execute("ALTER TABLE bindings ADD COLUMN rotated_from TEXT")  # a state file of an earlier version
        db.execute("CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, count INTEGER, resets REAL)")
        db.execute("CREATE TABLE IF NOT EXISTS claims (token TEXT PRIMARY KEY, lease TEXT, expires REAL)")
        db.execute("CREATE TABLE IF NOT EXISTS polls (token TEXT PRIMARY KEY, at REAL)")
        db.execute("CREATE TABLE IF NOT EXISTS kept (token TEXT PRIMARY KEY, cookies TEXT, expires REAL)")
        db.execute("CREATE TABLE IF NOT EXISTS said (what TEXT PRIMARY KEY, at REAL)")
        local.db = db
    return db


def atomically(work):
    """Runs work(db) in one IMMEDIATE transaction: no other worker writes between its read and its write."""
    try:
        db = state()
        db.execute("BEGIN IMMEDIATE")
        try:
            result = work(db)
            db.execute("COMMIT")
            return result
        except BaseException:
            db.execute("ROLLBACK")
            raise
    except sqlite3.Error as failure:
        local.db = None
        raise StateUnavailable(str(failure)) from failure


def hand_over(token, run, finish):
    """"ran" when on_result succeeded within this request's wait, "done" when it had succeeded
    before (in this or another request or worker); False while it is still running, here or
    elsewhere, past RESULT_WAIT: the poll answers "waiting" and the run goes on (as in the Node
    proxy), so a slow site never holds a poll past the widget's patience. finish() runs after
    on_result succeeded, before anyone is told. Raises what run raised within the wait
    (ResultRefused, kept: every later poll of the session raises it too). The claim is a lease
    renewed while run runs, up to RESULT_TIMEOUT: a worker that dies gives it up within LEASE."""
    lease = secrets.token_hex(8)
    until = time.time() + RESULT_WAIT

    def take(db):
        claim = db.execute("SELECT lease, expires FROM claims WHERE token = ?", (token,)).fetchone()
        if claim and claim[0] in ("done", "told", "refused"):
            return "refused" if claim[0] == "refused" else "done"
        if claim is None or claim[1] <= time.time():  # free, or its holder died
            db.execute("INSERT OR REPLACE INTO claims (token, lease, expires) VALUES (?, ?, ?)", (token, lease, time.time() + LEASE))
            return "mine"
        return "busy"

    while True:
        taken = atomically(take)
        if taken == "refused":
            raise ResultRefused()
        if taken == "done":
            return "done"
        if taken == "mine":
            break
        if time.time() >= until:
            return False
        time.sleep(0.05)
    running = threading.Event()
    abandoned = threading.Event()  # the request answered "waiting" and went on
    outcome = {}

    def renew():
        # renewed until the run's time limit at most: then the lease lapses and the next poll runs it again
        end = time.time() + RESULT_TIMEOUT
        db = sqlite3.connect(STATE_FILE, timeout=1.0, isolation_level=None)
        try:
            while not running.wait(RENEW_EVERY) and time.time() < end:
                try:
                    db.execute("UPDATE claims SET expires = ? WHERE token = ? AND lease = ?", (min(time.time() + LEASE, end), token, lease))
                except sqlite3.Error:
                    pass  # a state away for a while lets the lease lapse: another worker runs it again
        finally:
            db.close()

    def work():
        try:
            started = time.time()
            run()
            if time.time() - started > RESULT_TIMEOUT:
                raise TimeoutError("on_result took longer than RESULT_TIMEOUT")
            finish()
            running.set()
            atomically(lambda db: db.execute("UPDATE claims SET lease = 'done', expires = ? WHERE token = ?", (time.time() + FINISHED_TTL, token)))
            outcome["ok"] = True
        except ResultRefused as refusal:
            running.set()
            outcome["raised"] = refusal
            try:
                atomically(lambda db: db.execute("UPDATE claims SET lease = 'refused', expires = ? WHERE token = ?", (time.time() + FINISHED_TTL, token)))
            except StateUnavailable:
                pass  # the state away: the lease lapses, and the next poll asks the site again
        except Exception as failure:  # noqa: BLE001 (the host's code or the state: any failure is tried again)
            running.set()
            outcome["raised"] = failure
            if abandoned.is_set():
                current_app.logger.error("on_result failed for a session after its poll answered waiting: %s; the next poll runs it again", type(failure).__name__)
            try:
                atomically(lambda db: db.execute("DELETE FROM claims WHERE token = ? AND lease = ?", (token, lease)))
            except StateUnavailable:
                pass  # the state away: the lease lapses by itself

    threading.Thread(target=renew, daemon=True).start()
    # in a thread of its own, in this request's context (flask.session, the state): it outlives the wait if it must
    worker = threading.Thread(target=copy_current_request_context(work), daemon=True)
    worker.start()
    worker.join(max(0.0, until - time.time()))
    if worker.is_alive():
        abandoned.set()
        return False
    if outcome.get("ok"):
        return "ran"
    raise outcome.get("raised") or RuntimeError("on_result ended without an outcome")


def told_once(token):
    """True for the one request that tells a browser its session finished (its event is said once)."""
    def work(db):
        return db.execute("UPDATE claims SET lease = 'told' WHERE token = ? AND lease = 'done'", (token,)).rowcount == 1
    return atomically(work)


def keep_cookies(token, visitor_cookie):
    """The session cookie on_result just wrote (flask.session at a login) and the visitor cookie a
    login rotated, kept with the finished session for every later poll of it: a poll answer lost on
    the way loses no login."""
    probe = Response()
    current_app.session_interface.save_session(current_app, session, probe)
    lines = visitor_cookie + [line for line in probe.headers.getlist("Set-Cookie") if not re.match(r"(__Host-)?esign-visitor=", line)]
    if lines:
        atomically(lambda db: db.execute("INSERT OR REPLACE INTO kept (token, cookies, expires) VALUES (?, ?, ?)", (token, json.dumps(lines), time.time() + FINISHED_TTL)))


def kept_cookies(token):
    row = atomically(lambda db: db.execute("SELECT cookies FROM kept WHERE token = ? AND expires > ?", (token, time.time())).fetchone())
    return json.loads(row[0]) if row else []


def finished(token):
    """A finished session's binding stays only as long as a late poll needs it."""
    atomically(lambda db: db.execute("UPDATE bindings SET expires = MIN(expires, ?) WHERE token = ?", (time.time() + FINISHED_TTL, token)))


def sweep():
    """Forgets expired sessions (their claims and poll times too) and counters, once a minute."""
    now = time.time()

    def work(db):
        last = db.execute("SELECT at FROM said WHERE what = 'sweep'").fetchone()
        if last and now - last[0] < 60:
            return
        db.execute("INSERT OR REPLACE INTO said (what, at) VALUES ('sweep', ?)", (now,))
        for (token,) in db.execute("SELECT token FROM bindings WHERE expires <= ?", (now,)).fetchall():
            for table in ("bindings", "claims", "polls", "kept"):
                db.execute(f"DELETE FROM {table} WHERE token = ?", (token,))
        db.execute("DELETE FROM counters WHERE resets <= ?", (now,))
    atomically(work)


def over_limit(scope, key):
    """Counts one start under key; the seconds until the window resets when over the limit, else 0."""
    limit, window = LIMITS[scope]

    def work(db):
        now = time.time()
        row = db.execute("SELECT count, resets FROM counters WHERE key = ?", (f"{scope}:{key}",)).fetchone()
        count, resets = row if row else (0, now + window)
        if resets <= now:
            count, resets = 0, now + window
        db.execute("INSERT OR REPLACE INTO counters (key, count, resets) VALUES (?, ?, ?)", (f"{scope}:{key}", count + 1, resets))
        return max(1, int(resets - now + 0.999)) if count + 1 > limit else 0
    return atomically(work)


def give_back(scope, key):
    atomically(lambda db: db.execute("UPDATE counters SET count = count - 1 WHERE key = ?", (f"{scope}:{key}",)))


def say_once_a_minute(what):
    """True when `what` was not said in the log within the last minute, by any worker."""
    def work(db):
        last = db.execute("SELECT at FROM said WHERE what = ?", (what,)).fetchone()
        if last and time.time() - last[0] < 60:
            return False
        db.execute("INSERT OR REPLACE INTO said (what, at) VALUES (?, ?)", (what, time.time()))
        return True
    return atomically(work)


@blueprint.before_app_request  # before Flask's routing, which would redirect "//" and "/x/" instead of refusing
def esign():
    raw = request.environ.get("RAW_URI") or request.environ.get("REQUEST_URI") or ""
    prefix = prefixes[-1] if prefixes else PREFIX
    if not raw.startswith(prefix + "/"):
        return None  # not for the proxy: the host's own routes
    given = request.headers.get(TRUST_REQUEST_ID_HEADER, "") if TRUST_REQUEST_ID_HEADER else ""
    g.esign_request_id = given if REQUEST_ID.fullmatch(given) else str(uuid.uuid4())
    try:
        return handle(raw[len(prefix):])
    except StateUnavailable as failure:
        # the shared state cannot be read or written: nothing it could not check goes on (fails closed)
        current_app.logger.error("the state file cannot be read or written: %s [request %s]", failure, g.esign_request_id)
        refused = error(503, "store-unavailable", "The proxy cannot reach its state; try again shortly", retry_after=STORE_RETRY_AFTER)
        refused.headers["Retry-After"] = str(STORE_RETRY_AFTER)
        return refused


# --- the request, as named steps in the Node proxy's order (src/proxy/steps) ----------------------------
# Each step reads and fills the exchange `x`; it answers early with a Response, or lets the request go on.
WAITING = '{"status":"waiting"}'
NO_STORE = {"content-type": "application/json", "cache-control": "no-store"}


class Exchange:
    """What the steps learn of one request, in the order they learn it."""

    def __init__(self, path):
        self.path = path
        self.name = self.fields = self.op = self.token = self.channel = self.part = self.role = None
        self.body_limit = SESSION_BODY_LIMIT
        self.sent = {}
        self.cookie_name = self.visitor = self.new_cookie = None
        self.person = self.signer_person = self.upload = self.bound = None
        self.keys = []
        self.upstream = self.value = None
        self.kept = []  # cookies for this answer: the rotated visitor id, what a finished session kept

    def answer(self, response):
        """The answer, with the visitor cookie minted in this request and the cookies kept for it."""
        if self.new_cookie:
            response.set_cookie(self.cookie_name, self.new_cookie, httponly=True, samesite="Strict", secure=request.is_secure, path="/")
        for line in self.kept:
            response.headers.add("Set-Cookie", line)
        return response


def route(x):
    """The operation, by method and path (nothing else is one: a query, an escape, another method), and its body limit."""
    found = None if re.search(r"[?#%\\]", x.path) else match(request.method, x.path)
    if not found:
        return error(404, "operation-not-allowed", "Not an operation of the service")
    x.name, x.fields, x.op, x.token = found
    x.channel, x.part = x.op["channel"], x.op.get("kind")
    # role: ("start", channel, status id) | ("status",) | ("remove", channel)
    x.role = ("start", x.channel, x.op["status"]) if x.op["role"] == "start" else ("remove", x.channel) if x.op["role"] == "remove" else ("status",)
    g.esign.update(operation=x.name, channel=x.channel)
    if x.part:
        g.esign["kind"] = x.part
    x.body_limit = BODY_LIMIT if x.name in FILE_STARTS else SESSION_BODY_LIMIT  # only signing carries files
    sweep()
    if (request.content_length or 0) > x.body_limit:
        refused = error(413, "request-too-large", "Request body is too large")
        refused.headers["Connection"] = "close"  # do not read the rest
        return refused
    return None


def origin(x):
    """The host's own pages only: the Origin's host and scheme, or an allowed origin."""
    page = request.headers.get("Origin")
    if page not in ALLOWED_ORIGINS and (request.headers.get("Sec-Fetch-Site") == "cross-site" or (
            page is not None and (page.split("://", 1)[-1] != request.host
                                  or page.split("://", 1)[0] not in page_schemes()))):
        return error(403, "cross-site", "Requests from other sites are not accepted")
    return None


def content_type(x):
    """JSON bodies only."""
    if request.mimetype != "application/json":
        return error(415, "unsupported-media-type", "Request body must be application/json")
    return None


def read_fields(x):
    """The body, within its limit, as a JSON object; only the operation's own fields, of their types, go on."""
    try:
        data = request.stream.read(x.body_limit + 1)
        if len(data) > x.body_limit:
            return error(413, "request-too-large", "Request body is too large")
        body = json.loads(data or b"null")
    except (ValueError, RecursionError):
        return error(400, "malformed-json", "Request body must be a JSON object")
    if not isinstance(body, dict):
        return error(400, "malformed-json", "Request body must be a JSON object")
    try:
        x.sent = pick(x.fields, body, "")
    except InvalidField as bad:
        return error(400, "invalid-field", "A field has the wrong type", field=str(bad))
    if x.role[0] == "start" and bad_start_field(x.sent):
        return error(400, "invalid-field", "A field has the wrong type", field=bad_start_field(x.sent))
    return None


def visitor_step(x):
    """The proxy's own visitor id: `__Host-` over https (no subdomain can set it), adopted only when minted here."""
    x.cookie_name = "__Host-esign-visitor" if request.is_secure else "esign-visitor"
    x.visitor = request.cookies.get(x.cookie_name) or ""
    if not minted_visitor(x.visitor):
        x.visitor = x.new_cookie = new_visitor()
    g.esign["visitor"] = visitor_digest(x.visitor)
    x.person = event_person(x.sent) if x.role[0] == "start" else None
    if x.person:
        g.esign["person"] = x.person
    if x.role[0] == "start" and LIMIT_BY_ADDRESS and request.remote_addr:
        g.esign["address"] = request.remote_addr
    return None


def signer_step(x):
    """With GATE_SIGNING, a signing starts only as the person signed in to the site (signer())."""
    if not (GATE_SIGNING and x.role[0] == "start" and x.part in ("sign", "hash")):
        return None
    try:
        who = signer()
    except Exception:
        current_app.logger.error("signer() failed for %s [request %s]", x.name, g.esign_request_id)
        g.esign["hook"] = "signer"
        return error(500, "host-error", "The host could not process this request")
    if who is None:
        g.esign["reason"] = "signer-unknown"
        return error(403, "signer-unknown", "Nobody is signed in to this site to sign as")
    problem = signer_problem(who)
    if problem:
        current_app.logger.error("signer() returned %s, for %s: return {country, code} of the person signed in, or None [request %s]", problem, x.name, g.esign_request_id)
        g.esign["hook"] = "signer"
        return error(500, "host-error", "The host could not process this request")
    if not same_signer(x.sent, who):
        g.esign["reason"] = "signer-mismatch"
        return error(403, "signer-mismatch", "Signing is allowed only as the person signed in to this site")
    x.signer_person = person_digest(who["country"], who["code"])
    if x.part == "sign":
        try:
            x.upload = upload_print(x.sent)
        except ValueError:
            x.upload = None
        if x.upload is None:
            return error(400, "invalid-field", "A field has the wrong type", field=f"{x.sent.get('type')}.files")
    return None


def binding(x):
    """A session is polled and removed only by the visitor that started it (or the id its login gave that browser)."""
    if x.role[0] not in ("status", "remove"):
        return None
    x.bound = atomically(lambda db: db.execute(
        "SELECT visitor, channel, status, expires, person, signer, upload, rotated_from FROM bindings WHERE token = ?", (x.token,)).fetchone())
    bound = x.bound
    ok = bound and (hmac.compare_digest(bound[0], x.visitor) or hmac.compare_digest(bound[7] or "", x.visitor)) and bound[3] > time.time() and (
        bound[2] == x.name if x.role[0] == "status" else bound[1] == x.role[1])
    if ok:
        return None
    g.esign["reason"] = "not-your-session"
    refusal = {"status": "error", "message": "Session for given token was not found"}
    if x.role[0] == "status":
        refusal["error_code"] = 40402
    return Response(json.dumps(refusal), 404, NO_STORE)


def limits(x):
    """Session starts per visitor, per person (a country and a code) and, when told, per address."""
    if x.role[0] != "start":
        return None
    x.keys = [("visitor", x.visitor)]
    if isinstance(x.sent.get("code"), str):
        x.keys.append(("person", digest(person_key(x.role[1], x.sent))))
    if LIMIT_BY_ADDRESS and request.remote_addr:
        x.keys.append(("address", address_key(request.remote_addr)))
    for scope, key in x.keys:
        wait = over_limit(scope, key)
        if wait:
            g.esign["limit"] = scope
            refused = error(429, "rate-limited", "Too many sessions started; try again later", retry_after=wait)
            refused.headers["Retry-After"] = str(wait)
            return refused
    return None


def poll_floor(x):
    """A poll sooner than MIN_POLL_INTERVAL after the session's last one is answered waiting, unforwarded."""
    if x.role[0] != "status":
        return None

    def poll(db):
        last = db.execute("SELECT at FROM polls WHERE token = ?", (x.token,)).fetchone()
        if last and time.time() - last[0] < MIN_POLL_INTERVAL:
            return True
        db.execute("INSERT OR REPLACE INTO polls (token, at) VALUES (?, ?)", (x.token, time.time()))
        return False
    return Response(WAITING, 200, NO_STORE) if atomically(poll) else None


def forward(x):
    """To the service with the access token; no redirect followed, the answer read to its limit, JSON only."""
    try:
        x.upstream = requests.request(request.method, BASE_URL + x.path, json={**x.sent, "access_token": ACCESS_TOKEN},
                                      timeout=UPSTREAM_TIMEOUT, allow_redirects=False, stream=True)
        if 300 <= x.upstream.status_code < 400:
            return error(502, "upstream-redirect", "The service answered with a redirect, which is not followed")
        content = x.upstream.raw.read(ANSWER_LIMIT + 1, decode_content=True)
        if len(content) > ANSWER_LIMIT:
            return error(502, "upstream-too-large", "The service answered with more than the proxy accepts")
    except requests.Timeout:
        return error(504, "upstream-timeout", "The service did not answer in time")
    except requests.RequestException:
        return error(502, "upstream-unreachable", "The service could not be reached")
    try:
        x.value = json.loads(content)
        assert isinstance(x.value, dict)
    except (ValueError, AssertionError, RecursionError):
        return error(502, "upstream-invalid", "The service answered with something other than JSON")
    return None


def token_refused(x):
    """The service refused the access token: nothing can work until the configuration is right (said once a minute)."""
    if x.value.get("error_code") == 40003:
        g.esign["failure"] = "access-token"
        if say_once_a_minute("access-token"):
            current_app.logger.error("the service refused the access token (40003) for %s: check ESIGN_ACCESS_TOKEN and ESIGN_BASE_URL [request %s]", x.name, g.esign_request_id)
    return None


def filter_answer(x):
    """The access token out of everything (the screening data goes out of the browser's answer at the end)."""
    x.value = redact(x.value)
    return None


def sessions(x):
    """A start binds its session to the visitor (a refused one gives the person's count back); a poll that ends it says so."""
    value = x.value
    if x.role[0] == "start" and value.get("status") == "error":
        # the service refused the start: no session, no push; the person is not charged for it
        for scope, key in x.keys:
            if scope == "person":
                give_back(scope, key)
    if value.get("status") == "ok" and x.role[0] == "start" and isinstance(value.get("token"), str):
        atomically(lambda db: db.execute(
            "INSERT OR REPLACE INTO bindings (token, visitor, channel, status, expires, person, signer, upload) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (value["token"], x.visitor, x.role[1], x.role[2], time.time() + SESSION_TTL, json.dumps(x.person, ensure_ascii=False) if x.person else None,
             x.signer_person, json.dumps(x.upload) if x.upload else None)))
        g.esign["outcome"] = {"type": "started"}
    if x.role[0] == "status":
        if x.bound[4]:
            g.esign["person"] = json.loads(x.bound[4])
        if value.get("status") == "error" and value.get("error_code") != 40003:
            finished(x.token)
            g.esign["outcome"] = {"type": "finished", "outcome": str(value.get("error_code", "error"))}
    return None


def signed_by(x):
    """In depth: the one signature the service added in a gated signing must name the signed-in person."""
    if not (x.value.get("status") == "ok" and x.role[0] == "status" and x.part == "sign" and x.bound[5]):
        return None
    file = x.value.get("file")
    content = file.get("content") if isinstance(file, dict) else None
    try:
        persons, problem = added_signature(json.loads(x.bound[6]), base64.b64decode(content)) if isinstance(content, str) and x.bound[6] else (None, "cannot be read")
    except (ValueError, TypeError):
        persons, problem = None, "cannot be read"
    if persons and x.bound[5] in [person_digest(country, code) for country, code in persons]:
        return None
    if persons:
        current_app.logger.error("a finished %s was signed by another person than the signer: not handed over [request %s]", x.name, g.esign_request_id)
    else:
        current_app.logger.error("a finished %s is not handed over: the signed file %s [request %s]", x.name, problem, g.esign_request_id)
    g.esign["reason"] = "signer-mismatch"
    return error(403, "signer-mismatch", "Signing is allowed only as the person signed in to this site")


def hand_over_step(x):
    """The browser sees a result only after on_result succeeded for it (at least once, in a thread of its own)."""
    if not (x.value.get("status") == "ok" and x.role[0] == "status"):
        return None
    # a login gives the browser a new visitor id (one planted before the login is worth nothing after it)
    rotated = new_visitor() if x.part == "login" else None
    rotated_cookie = []

    def finish():
        # after on_result succeeded, before anyone is told: the session follows the new id, and what
        # this browser is to get (the new id, the session cookie on_result wrote) is kept for every poll
        if rotated:
            atomically(lambda db: db.execute("UPDATE bindings SET visitor = ?, rotated_from = ? WHERE token = ?", (rotated, x.bound[0], x.token)))
            probe = Response()
            probe.set_cookie(x.cookie_name, rotated, httponly=True, samesite="Strict", secure=request.is_secure, path="/")
            rotated_cookie.extend(probe.headers.getlist("Set-Cookie"))
        keep_cookies(x.token, rotated_cookie)

    try:
        delivered = hand_over(x.token, lambda: on_result(x.name, x.token, rotated or x.visitor, x.value), finish)
    except StateUnavailable:
        raise  # the state, not the host: 503
    except ResultRefused as refusal:
        if refusal.status:
            current_app.logger.error("on_result refused the result for %s: HTTP %s; the session ends with site-refused [request %s]", x.name, refusal.status, g.esign_request_id)
        finished(x.token)
        g.esign["outcome"] = {"type": "finished", "outcome": "site-refused"}
        return error(409, "site-refused", "The site did not accept this result")
    except Exception:
        current_app.logger.error("on_result failed for %s [request %s]", x.name, g.esign_request_id)
        g.esign["hook"] = "onResult"
        return error(500, "host-error", "The host could not process this request")
    if not delivered:
        return Response(WAITING, 200, NO_STORE)
    # "ran": the session cookie on_result wrote goes with this answer by itself, the rotated id beside it
    x.kept = rotated_cookie if delivered == "ran" else kept_cookies(x.token)
    x.new_cookie = None
    finished(x.token)
    if told_once(x.token):
        g.esign["outcome"] = {"type": "finished", "outcome": "ok"}
    return None


STEPS = (route, origin, content_type, read_fields, visitor_step, signer_step, binding, limits, poll_floor, forward,
         token_refused, filter_answer, sessions, signed_by, hand_over_step)


def handle(path):
    now = time.time()
    g.esign = {"at": datetime.fromtimestamp(now, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z"), "t0": now}
    if request.headers.get("User-Agent"):
        g.esign["userAgent"] = request.headers["User-Agent"][:256]
    x = Exchange(path)
    for step in STEPS:
        early = step(x)
        if early is not None:
            return x.answer(early)
    value = x.value if EXPOSE_SCREENING else without_screening(x.value)
    return x.answer(Response(json.dumps(value), x.upstream.status_code, NO_STORE))


app = Flask(__name__)
app.register_blueprint(blueprint)
