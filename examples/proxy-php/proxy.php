<?php
/**
 * The esign-elements proxy contract in plain PHP 8.2+ with curl and SQLite (PDO), no Composer.
 *
 * Run:  ESIGN_BASE_URL=https://service.example ESIGN_ACCESS_TOKEN=... php -S 127.0.0.1:8080 proxy.php
 * Or as the front controller for /esign/ under php-fpm (nginx: location /esign/ { fastcgi_pass ...;
 * SCRIPT_FILENAME this file }), with the web server's own body limit (nginx client_max_body_size 80m).
 * Check it with:  npx esign-sandbox check-proxy http://127.0.0.1:8080/esign
 *
 * What every worker process must agree on (which visitor started which session, the rate-limit
 * counters, who is handing a result over, when a session was last polled) lives in one SQLite file
 * (ESIGN_STATE_FILE), written in IMMEDIATE transactions so that concurrent workers take turns.
 * What it did is written to stderr as one JSON line per request that was refused, failed, met a
 * failing on_result, started or ended a session: the Node proxy's events, by the same names.
 */
declare(strict_types=1);

const PREFIX = '/esign';
const BODY_LIMIT = 80 * 1024 * 1024;
const SESSION_BODY_LIMIT = 16 * 1024; // every session operation but the two that carry files
const ANSWER_LIMIT = 120 * 1024 * 1024;
const SESSION_TTL = 30 * 60;
const RESULT_TIMEOUT = 30.0; // seconds on_result may take; past it the run counts as failed
const RESULT_WAIT = 2.0; // seconds a poll waits for another request's on_result before it answers "waiting"
const MIN_POLL_INTERVAL = 0.5; // a poll sooner than this after the last one is answered "waiting" unforwarded
const START_TEXT_LIMIT = 200;
const ID = '[A-Za-z0-9_-]{1,128}';
// the events' reasons and failures by the proxy's error kinds, and the Node proxy's operation ids
const REASONS = ['operation-not-allowed' => 'not-allowed', 'cross-site' => 'cross-site', 'unsupported-media-type' => 'content-type',
    'malformed-json' => 'invalid-field', 'invalid-field' => 'invalid-field', 'request-too-large' => 'too-large', 'rate-limited' => 'rate-limited',
    'signer-mismatch' => 'signer-mismatch', 'signer-unknown' => 'signer-unknown'];
const FAILURES = ['upstream-unreachable' => 'service-unreachable', 'upstream-timeout' => 'service-timeout', 'upstream-invalid' => 'service-invalid',
    'upstream-redirect' => 'service-invalid', 'upstream-too-large' => 'service-invalid'];
const NODE_NAMES = ['mobile-login' => 'mobileLogin', 'smartid-login' => 'smartIdLogin', 'mobile-sign' => 'mobileSign', 'smartid-sign' => 'smartIdSign',
    'mobile-hash' => 'mobileHashSign', 'smartid-hash' => 'smartIdHashSign', 'mobile-login-status' => 'mobileLoginStatus',
    'smartid-login-status' => 'smartIdLoginStatus', 'mobile-sign-status' => 'mobileSignStatus', 'smartid-sign-status' => 'smartIdSignStatus',
    'mobile-hash-status' => 'mobileHashSignStatus', 'smartid-hash-status' => 'smartIdHashSignStatus',
    'mobile-remove' => 'removeMobileSession', 'smartid-remove' => 'removeSmartIdSession'];

/** What the request's event will say, filled in as it is read: never a token, a body or a person in clear. */
$GLOBALS['event'] = ['t0' => microtime(true)] + (isset($_SERVER['HTTP_USER_AGENT']) ? ['userAgent' => substr((string) $_SERVER['HTTP_USER_AGENT'], 0, 256)] : []);

$raw = (string) ($_SERVER['REQUEST_URI'] ?? '');
if (!str_starts_with($raw, PREFIX . '/')) {
    if (PHP_SAPI === 'cli-server') {
        return false; // not for the proxy: php -S serves the host's own files
    }
    http_response_code(404);
    exit;
}

$config = [
    'base' => rtrim((string) getenv('ESIGN_BASE_URL'), '/'),
    'token' => (string) getenv('ESIGN_ACCESS_TOKEN'),
    'origins' => array_values(array_filter(explode(',', (string) getenv('ESIGN_ALLOWED_ORIGINS')))),
    'screening' => getenv('ESIGN_EXPOSE_SCREENING') === '1',
    'scheme' => (string) getenv('ESIGN_PUBLIC_SCHEME'),
    'by_address' => getenv('ESIGN_LIMIT_BY_ADDRESS') === '1',
    'state' => (string) (getenv('ESIGN_STATE_FILE') ?: sys_get_temp_dir() . '/esign-proxy-state.sqlite'),
    // starts per window (seconds): "visitor,person,window[,address]", e.g. "3,2,60" for tests
    'limits' => ['visitor' => [12, 600], 'person' => [6, 600], 'address' => [60, 600]],
];
if (getenv('ESIGN_RATE_LIMIT')) {
    $n = array_map('intval', explode(',', (string) getenv('ESIGN_RATE_LIMIT')));
    $config['limits'] = ['visitor' => [$n[0], $n[2]], 'person' => [$n[1], $n[2]], 'address' => [$n[3] ?? 60, $n[2]]];
}
if (strlen($config['token']) < 8 || $config['base'] === '') {
    fail(500, 'misconfigured', 'ESIGN_BASE_URL and ESIGN_ACCESS_TOKEN (8 characters or more) must be set');
}

// --- the allow-list: method, path, the operation's own fields and JSON types ------------------------
$files = ['files' => [['name' => 'string', 'content' => 'string', 'digest' => 'string']]];
$screening = ['peps' => 'bool', 'sanctions' => 'bool'];
$sign = ['type' => 'string', 'message' => 'string', 'code' => 'string', 'signature_position' => 'string', 'signature_page' => 'string',
    'pdf' => $files, 'asice' => $files, 'adoc' => $files, 'bdoc' => $files] + $screening;
// name => [method, path pattern, fields, role]; role: ['start', channel, status name] | ['status'] | ['remove', channel]
$operations = [
    'mobile-login' => ['POST', '/mobile/login\.json', ['phone' => 'string', 'code' => 'string', 'language' => 'string', 'message' => 'string', 'message_format' => 'string'] + $screening, ['start', 'mobile', 'mobile-login-status']],
    'smartid-login' => ['POST', '/smartid/login\.json', ['code' => 'string', 'country' => 'string', 'message' => 'string'] + $screening, ['start', 'smartid', 'smartid-login-status']],
    'mobile-sign' => ['POST', '/mobile/sign\.json', $sign + ['phone' => 'string', 'message_format' => 'string'], ['start', 'mobile', 'mobile-sign-status']],
    'smartid-sign' => ['POST', '/smartid/sign\.json', $sign + ['country' => 'string', 'certificate_level' => 'string'], ['start', 'smartid', 'smartid-sign-status']],
    'mobile-hash' => ['POST', '/mobile/sign/hash\.json', ['hash' => 'string', 'hash_algorithm' => 'string', 'phone' => 'string', 'code' => 'string', 'country' => 'string', 'message' => 'string'], ['start', 'mobile', 'mobile-hash-status']],
    'smartid-hash' => ['POST', '/smartid/sign/hash\.json', ['hash' => 'string', 'hash_algorithm' => 'string', 'code' => 'string', 'country' => 'string', 'message' => 'string'], ['start', 'smartid', 'smartid-hash-status']],
    'mobile-login-status' => ['POST', '/mobile/status/(?<token>' . ID . ')\.json', [], ['status']],
    'smartid-login-status' => ['POST', '/smartid/status/(?<token>' . ID . ')\.json', [], ['status']],
    'mobile-sign-status' => ['POST', '/mobile/sign/status/(?<token>' . ID . ')\.json', [], ['status']],
    'smartid-sign-status' => ['POST', '/smartid/sign/status/(?<token>' . ID . ')\.json', [], ['status']],
    'mobile-hash-status' => ['POST', '/mobile/sign-hash/status/(?<token>' . ID . ')\.json', [], ['status']],
    'smartid-hash-status' => ['POST', '/smartid/sign/hash/status/(?<token>' . ID . ')\.json', [], ['status']],
    'mobile-remove' => ['DELETE', '/api/mobile/session/(?<token>' . ID . ')', [], ['remove', 'mobile']],
    'smartid-remove' => ['DELETE', '/api/smartid/session/(?<token>' . ID . ')', [], ['remove', 'smartid']],
];
// Document operations are off here; a host that enables them adds them with an authorize check per uuid.
const FILE_STARTS = ['mobile-sign', 'smartid-sign'];
// Start fields by the service's published shapes: checked before anything is counted or forwarded.
const SHAPES = ['code' => '[0-9]{6}-?[0-9]{5}', 'phone' => '\+37(?:0[0-9]{8}|2[0-9]{7,8})', 'country' => 'LT|LV|EE', 'hash' => '[0-9a-fA-F]{64}(?:[0-9a-fA-F]{64})?'];
const SCREENING_FIELDS = ['peps_data', 'sanctions_data'];

/**
 * The verified result, before the browser sees it: log the person in, store the file, ...
 * (idempotent by $token). $operation is the Node proxy's id (mobileLoginStatus, smartIdSignStatus, ...).
 * A host defines its own on_result() and signer() and then includes this file (session-recipe.php).
 */
if (!function_exists('on_result')) {
function on_result(string $operation, string $token, string $visitor, stdClass $answer): void
{
    // the verified result, before the browser sees it: log the person in, store the file, ...
    // (ESIGN_RESULT_LOG, for trying the example out: a line per result, no personal data)
    if (getenv('ESIGN_RESULT_LOG')) {
        file_put_contents((string) getenv('ESIGN_RESULT_LOG'), json_encode(['operation' => $operation, 'status' => $answer->status ?? null]) . "\n", FILE_APPEND | LOCK_EX);
    }
}
}

/**
 * Sign only as the person signed in to your site: with ESIGN_SIGNER set (or GATE_SIGNING defined
 * true before this file is included), every signing start is for signer() alone. Return the person
 * from your session, e.g. $_SESSION['person'] after your on_result stored it: ['code' => ...,
 * 'country' => ?, 'phone' => ?], or null when nobody is signed in. ESIGN_SIGNER sets one for tests: "code[,country[,phone]]", or "-".
 */
if (!defined('GATE_SIGNING')) {
    define('GATE_SIGNING', (string) getenv('ESIGN_SIGNER') !== '');
}

if (!function_exists('signer')) {
function signer(): ?array
{
    $given = (string) getenv('ESIGN_SIGNER');
    if ($given === '' || $given === '-') {
        return null;
    }
    [$code, $country, $phone] = array_pad(explode(',', $given), 3, '');
    return ['code' => $code, 'country' => $country ?: null, 'phone' => $phone ?: null];
}
}

/** The start is for the signer: the same code (canonical), and country and phone where both say one. */
function same_signer(stdClass $sent, array $who): bool
{
    if (!is_string($sent->code ?? null) || str_replace('-', '', $sent->code) !== preg_replace('/[\s-]/', '', (string) $who['code'])) {
        return false;
    }
    if (!empty($who['country']) && is_string($sent->country ?? null) && strtoupper($sent->country) !== strtoupper($who['country'])) {
        return false;
    }
    if (!empty($who['phone']) && is_string($sent->phone ?? null) && preg_replace('/\D/', '', $sent->phone) !== preg_replace('/\D/', '', $who['phone'])) {
        return false;
    }
    return true;
}

/** Personal codes of subject serial numbers (OID 2.5.4.5, "PNOLT-<code>") in DER bytes. */
function codes_in_der(string $der): array
{
    $codes = [];
    preg_match_all('/\x06\x03\x55\x04\x05[\x13\x0c]([\x00-\x40])/s', $der, $found, PREG_OFFSET_CAPTURE);
    foreach ($found[1] as [$length, $at]) {
        $value = substr($der, $at + 1, ord($length));
        if (preg_match('/^PNO[A-Z]{2}-([0-9A-Z-]{6,20})$/D', $value, $number)) {
            $codes[] = str_replace('-', '', $number[1]);
        }
    }
    return $codes;
}

/** The named entry of a ZIP (stored or deflated), by its central directory. */
function zip_entries(string $zip): array
{
    $end = strrpos($zip, "PK\x05\x06");
    if ($end === false || $end + 22 > strlen($zip)) {
        return [];
    }
    ['count' => $count, 'offset' => $at] = unpack('vcount/x4/Voffset', substr($zip, $end + 10, 10));
    $entries = [];
    for ($i = 0; $i < $count && $at + 46 <= strlen($zip) && substr($zip, $at, 4) === "PK\x01\x02"; $i++) {
        $entry = unpack('vmethod/x8/Vsize/x4/vname/vextra/vcomment/x8/Vlocal', substr($zip, $at + 10, 36));
        $entries[substr($zip, $at + 46, $entry['name'])] = $entry;
        $at += 46 + $entry['name'] + $entry['extra'] + $entry['comment'];
    }
    return $entries;
}

function zip_entry(string $zip, array $entry): ?string
{
    $at = $entry['local'];
    if (substr($zip, $at, 4) !== "PK\x03\x04") {
        return null;
    }
    ['name' => $name, 'extra' => $extra] = unpack('vname/vextra', substr($zip, $at + 26, 4));
    $stored = substr($zip, $at + 30 + $name + $extra, $entry['size']);
    $bytes = $entry['method'] === 0 ? $stored : ($entry['method'] === 8 ? @gzinflate($stored, 16 * 1024 * 1024) : false);
    return $bytes === false ? null : $bytes;
}

/**
 * Who made the newest signature of a signed PDF (its last /Contents) or ASiC-E/BDOC/ADOC container
 * (its highest signatures<N>.xml), by certificate serial numbers; null when none can be read.
 */
function newest_signer_codes(string $file): ?array
{
    $ders = [];
    if (str_starts_with($file, '%PDF-')) {
        if (preg_match_all('/\/Contents\s*<([0-9A-Fa-f\s]{128,})>/', $file, $found)) {
            $ders[] = (string) hex2bin(preg_replace('/\s/', '', end($found[1])));
        }
    } elseif (str_starts_with($file, 'PK')) {
        $newest = null;
        foreach (zip_entries($file) as $name => $entry) {
            if (preg_match('#^META-INF/(?:signatures/)?signatures(\d+)\.xml$#D', (string) $name, $n) && ($newest === null || (int) $n[1] >= $newest[0])) {
                $newest = [(int) $n[1], $entry];
            }
        }
        $xml = $newest === null ? null : zip_entry($file, $newest[1]);
        preg_match_all('#<(?:[\w-]+:)?X509Certificate>([A-Za-z0-9+/=\s]+)</#', (string) $xml, $certificates);
        foreach ($certificates[1] as $certificate) {
            $ders[] = (string) base64_decode(preg_replace('/\s/', '', $certificate));
        }
    }
    $codes = array_merge(...array_map('codes_in_der', $ders ?: ['']));
    return $codes ?: null;
}

/** One JSON line on stderr, the request's event: `type` and its own fields besides what is known of the request. */
function event(string $type, array $fields = []): void
{
    $known = $GLOBALS['event'];
    $t0 = $known['t0'];
    unset($known['t0']);
    $at = DateTimeImmutable::createFromFormat('U.u', sprintf('%.6F', $t0))->format('Y-m-d\TH:i:s.v\Z');
    $line = json_encode(['at' => $at, 'durationMs' => (int) round((microtime(true) - $t0) * 1000)] + $known + ['type' => $type] + $fields, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
    file_put_contents('php://stderr', $line . "\n");
}

function mask_code(string $code): string
{
    $compact = preg_replace('/\s/', '', $code);
    return strlen($compact) >= 8 ? substr($compact, 0, 4) . '••••' . substr($compact, -3) : '•••';
}

function mask_phone(string $phone): string
{
    return preg_match('/^(\+\d{3})(\d)\d*(\d{3})$/D', preg_replace('/[\s-]/', '', $phone), $m) ? "{$m[1]}\u{00a0}{$m[2]}••\u{00a0}••{$m[3]}" : '•••';
}

/** A person as events show them: keyed digests with ESIGN_EVENT_SECRET (the host computes the same), else masked. */
function event_person(stdClass $sent): ?array
{
    $secret = (string) getenv('ESIGN_EVENT_SECRET');
    $person = [];
    if (isset($sent->code) && is_string($sent->code) && $sent->code !== '') {
        $person['code'] = $secret !== '' ? hash_hmac('sha256', 'code:' . str_replace('-', '', $sent->code), $secret) : mask_code($sent->code);
    }
    if (isset($sent->phone) && is_string($sent->phone) && $sent->phone !== '') {
        $person['phone'] = $secret !== '' ? hash_hmac('sha256', 'phone:' . preg_replace('/\D/', '', $sent->phone), $secret) : mask_phone($sent->phone);
    }
    return $person ?: null;
}

/** Answers and ends the request. */
function respond(int $status, string $json, array $headers = []): never
{
    http_response_code($status);
    header('content-type: application/json');
    header('cache-control: no-store');
    foreach ($headers as $header) {
        header($header);
    }
    echo $json;
    exit;
}

/** A refusal of the proxy's own: `{"status":"error","proxy_error":kind}`, written as an event too. */
function fail(int $status, string $kind, string $message, array $extra = [], array $headers = []): never
{
    if (isset(REASONS[$kind])) {
        event('refused', ['reason' => REASONS[$kind], 'status' => $status]);
    } elseif (isset(FAILURES[$kind])) {
        event('failed', ['failure' => FAILURES[$kind], 'status' => $status]);
    } elseif ($kind === 'host-error') {
        event('host-error', ['hook' => 'onResult', 'status' => $status]);
    }
    respond($status, json_encode(['status' => 'error', 'message' => $message, 'proxy_error' => $kind] + $extra, JSON_UNESCAPED_SLASHES), $headers);
}

final class InvalidField extends Exception
{
}

/** The fields the operation takes, of their JSON types; anything else is dropped, a wrong type refused. */
function pick(mixed $shape, mixed $value, string $path): mixed
{
    if (is_string($shape)) {
        $ok = $shape === 'bool' ? is_bool($value) : is_string($value);
        if (!$ok) {
            throw new InvalidField($path);
        }
        return $value;
    }
    if ($shape !== [] && array_is_list($shape)) {
        if (!is_array($value)) {
            throw new InvalidField($path);
        }
        return array_map(fn ($item, $i) => pick($shape[0], $item, "$path.$i"), $value, array_keys($value));
    }
    if (!$value instanceof stdClass) {
        throw new InvalidField($path);
    }
    $out = new stdClass();
    foreach ($shape as $key => $inner) {
        if (property_exists($value, $key)) {
            $out->$key = pick($inner, $value->$key, $path === '' ? $key : "$path.$key");
        }
    }
    return $out;
}

/** The answer with the access token removed from every string and key. */
function redact(mixed $value, string $token): mixed
{
    if (is_string($value)) {
        return str_replace($token, '[redacted]', $value);
    }
    if (is_array($value)) {
        return array_map(fn ($item) => redact($item, $token), $value);
    }
    if ($value instanceof stdClass) {
        $out = new stdClass();
        foreach (get_object_vars($value) as $key => $item) {
            $out->{redact((string) $key, $token)} = redact($item, $token);
        }
        return $out;
    }
    return $value;
}

/** The answer without PEP and sanctions data at any depth. */
function without_screening(mixed $value): mixed
{
    if (is_array($value)) {
        return array_map('without_screening', $value);
    }
    if ($value instanceof stdClass) {
        $out = new stdClass();
        foreach (get_object_vars($value) as $key => $item) {
            if (!in_array($key, SCREENING_FIELDS, true)) {
                $out->$key = without_screening($item);
            }
        }
        return $out;
    }
    return $value;
}

function bad_start_field(stdClass $sent): ?string
{
    foreach (get_object_vars($sent) as $name => $value) {
        if (!is_string($value)) {
            continue;
        }
        $shape = SHAPES[$name] ?? null;
        if ($shape !== null ? !preg_match('/^(?:' . $shape . ')$/D', $value) : strlen($value) > START_TEXT_LIMIT) {
            return (string) $name;
        }
    }
    return null;
}

/**
 * Whom a start's push reaches. Smart-ID pushes to the code's account. Mobile-ID pushes only when
 * phone and code belong together (a wrong pair is turned away at the poll, after an accepted start),
 * so it counts the pair: a person's code with phones not theirs never uses up their starts, and one
 * phone still gets at most the limit.
 */
function person_key(string $channel, stdClass $sent): string
{
    $code = str_replace('-', '', (string) $sent->code);
    if ($channel !== 'mobile') {
        return 'smartid:' . $code;
    }
    return 'mobile:' . $code . ':' . preg_replace('/\D/', '', is_string($sent->phone ?? null) ? $sent->phone : '');
}

/** A fixed-size key, whatever was sent, and no personal code in clear in the state file. */
function digest(string $text): string
{
    return substr(hash('sha256', $text), 0, 32);
}

/** An IPv4 address as it is (IPv4-mapped too), an IPv6 one by its /64 (one household holds a whole /64). */
function address_key(string $address): string
{
    $packed = @inet_pton(explode('%', $address)[0]);
    if ($packed === false || strlen($packed) === 4) {
        return $address;
    }
    if (str_starts_with($packed, str_repeat("\0", 10) . "\xff\xff")) {
        return (string) inet_ntop(substr($packed, 12));
    }
    return inet_ntop(substr($packed, 0, 8) . str_repeat("\0", 8)) . '/64';
}

/** The state every worker shares. */
function state(string $file): PDO
{
    $db = new PDO('sqlite:' . $file, null, null, [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
    $db->exec('PRAGMA busy_timeout = 10000');
    $db->exec('PRAGMA journal_mode = WAL');
    $db->exec('CREATE TABLE IF NOT EXISTS bindings (token TEXT PRIMARY KEY, visitor TEXT, channel TEXT, status TEXT, expires REAL, person TEXT, signer TEXT)');
    if (!in_array('signer', array_column($db->query('PRAGMA table_info(bindings)')->fetchAll(PDO::FETCH_ASSOC), 'name'), true)) {
        $db->exec('ALTER TABLE bindings ADD COLUMN signer TEXT'); // a state file of an earlier version
    }
    $db->exec('CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, count INTEGER, resets REAL)');
    $db->exec('CREATE TABLE IF NOT EXISTS claims (token TEXT PRIMARY KEY, lease TEXT, expires REAL)');
    $db->exec('CREATE TABLE IF NOT EXISTS polls (token TEXT PRIMARY KEY, at REAL)');
    return $db;
}

/** Runs $work in one IMMEDIATE transaction: no other worker writes between its read and its write. */
function atomically(PDO $db, callable $work): mixed
{
    $db->exec('BEGIN IMMEDIATE');
    try {
        $result = $work($db);
        $db->exec('COMMIT');
        return $result;
    } catch (Throwable $error) {
        $db->exec('ROLLBACK');
        throw $error;
    }
}

/** Forgets expired sessions (their claims and poll times too) and counters. */
function sweep(PDO $db, float $now): void
{
    atomically($db, function (PDO $db) use ($now) {
        $expired = $db->prepare('SELECT token FROM bindings WHERE expires <= ?');
        $expired->execute([$now]);
        foreach ($expired->fetchAll(PDO::FETCH_COLUMN) as $token) {
            foreach (['bindings', 'claims', 'polls'] as $table) {
                $db->prepare("DELETE FROM $table WHERE token = ?")->execute([$token]);
            }
        }
        $db->prepare('DELETE FROM counters WHERE resets <= ?')->execute([$now]);
    });
}

/** Counts one start under $key; the seconds until the window resets when over the limit, else 0. */
function over_limit(PDO $db, string $key, array $limit): int
{
    [$max, $window] = $limit;
    return atomically($db, function (PDO $db) use ($key, $max, $window) {
        $now = microtime(true);
        $row = $db->prepare('SELECT count, resets FROM counters WHERE key = ?');
        $row->execute([$key]);
        [$count, $resets] = $row->fetch(PDO::FETCH_NUM) ?: [0, $now + $window];
        if ($resets <= $now) {
            [$count, $resets] = [0, $now + $window];
        }
        $db->prepare('INSERT OR REPLACE INTO counters (key, count, resets) VALUES (?, ?, ?)')->execute([$key, $count + 1, $resets]);
        return $count + 1 > $max ? max(1, (int) ceil($resets - $now)) : 0;
    });
}

function give_back(PDO $db, string $key): void
{
    $db->prepare('UPDATE counters SET count = count - 1 WHERE key = ?')->execute([$key]);
}

/**
 * True once on_result has succeeded for this session (by this or another worker); false when
 * another worker is running it past RESULT_WAIT; throws what $run threw.
 */
function hand_over(PDO $db, string $token, callable $run): bool
{
    $lease = bin2hex(random_bytes(8));
    $until = microtime(true) + RESULT_WAIT;
    for (;;) {
        $taken = atomically($db, function (PDO $db) use ($token, $lease) {
            $row = $db->prepare('SELECT lease, expires FROM claims WHERE token = ?');
            $row->execute([$token]);
            $claim = $row->fetch(PDO::FETCH_ASSOC);
            if ($claim && $claim['lease'] === 'done') {
                return 'done';
            }
            if (!$claim || (float) $claim['expires'] <= microtime(true)) { // free, or its holder died
                $db->prepare('INSERT OR REPLACE INTO claims (token, lease, expires) VALUES (?, ?, ?)')
                    ->execute([$token, $lease, microtime(true) + RESULT_TIMEOUT + 1]);
                return 'mine';
            }
            return 'busy';
        });
        if ($taken === 'done') {
            return true;
        }
        if ($taken === 'mine') {
            break;
        }
        if (microtime(true) >= $until) {
            return false;
        }
        usleep(50_000);
    }
    try {
        $started = microtime(true);
        $run();
        if (microtime(true) - $started > RESULT_TIMEOUT) {
            throw new RuntimeException('on_result took longer than RESULT_TIMEOUT');
        }
    } catch (Throwable $error) {
        $db->prepare('DELETE FROM claims WHERE token = ? AND lease = ?')->execute([$token, $lease]);
        throw $error;
    }
    $db->prepare("UPDATE claims SET lease = 'done' WHERE token = ?")->execute([$token]);
    return true;
}

// --- the request ------------------------------------------------------------------------------------
$method = (string) ($_SERVER['REQUEST_METHOD'] ?? 'GET');
$path = substr($raw, strlen(PREFIX));
$found = null;
if (!preg_match('/[?#%\\\\]/', $path)) {
    foreach ($operations as $name => [$opMethod, $pattern, $fields, $role]) {
        if ($method === $opMethod && preg_match('#^(?:/en)?' . $pattern . '$#D', $path, $match)) {
            $found = [$name, $fields, $role, $match['token'] ?? null];
            break;
        }
    }
}
if ($found === null) {
    fail(404, 'operation-not-allowed', 'Not an operation of the service');
}
[$operation, $fields, $role, $token] = $found;
[$channel, $part] = explode('-', $operation);
$GLOBALS['event'] += ['operation' => NODE_NAMES[$operation]] + (in_array($part, ['login', 'sign', 'hash'], true) ? ['kind' => $part] : []) + ['channel' => $channel];
$db = state($config['state']);
$now = microtime(true);
sweep($db, $now);

$bodyLimit = in_array($operation, FILE_STARTS, true) ? BODY_LIMIT : SESSION_BODY_LIMIT; // only signing carries files
if ((int) ($_SERVER['CONTENT_LENGTH'] ?? 0) > $bodyLimit) {
    fail(413, 'request-too-large', 'Request body is too large', [], ['Connection: close']);
}

$host = (string) ($_SERVER['HTTP_HOST'] ?? '');
$https = ($_SERVER['HTTPS'] ?? '') !== '' && ($_SERVER['HTTPS'] ?? '') !== 'off';
$origin = $_SERVER['HTTP_ORIGIN'] ?? null;
$schemes = $config['scheme'] !== '' ? [$config['scheme']]
    : ($https ? ['https'] : (preg_match('/^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?$/Di', $host) ? ['https', 'http'] : ['https']));
if (!in_array($origin, $config['origins'], true)) {
    $crossSite = ($_SERVER['HTTP_SEC_FETCH_SITE'] ?? '') === 'cross-site';
    $parts = $origin === null ? null : explode('://', $origin, 2);
    $foreign = $parts !== null && (count($parts) !== 2 || $parts[1] !== $host || !in_array($parts[0], $schemes, true));
    if ($crossSite || $foreign) {
        fail(403, 'cross-site', 'Requests from other sites are not accepted');
    }
}
$type = strtolower(trim(explode(';', (string) ($_SERVER['CONTENT_TYPE'] ?? ''))[0]));
if ($type !== 'application/json') {
    fail(415, 'unsupported-media-type', 'Request body must be application/json');
}
$data = (string) file_get_contents('php://input', false, null, 0, $bodyLimit + 1);
if (strlen($data) > $bodyLimit) {
    fail(413, 'request-too-large', 'Request body is too large');
}
try {
    $body = json_decode($data === '' ? 'null' : $data, false, 512, JSON_THROW_ON_ERROR);
} catch (JsonException) {
    $body = null;
}
if (!$body instanceof stdClass) {
    fail(400, 'malformed-json', 'Request body must be a JSON object');
}
try {
    $sent = pick($fields, $body, '');
} catch (InvalidField $bad) {
    fail(400, 'invalid-field', 'A field has the wrong type', ['field' => $bad->getMessage()]);
}
if ($role[0] === 'start' && ($bad = bad_start_field($sent)) !== null) {
    fail(400, 'invalid-field', 'A field has the wrong type', ['field' => $bad]);
}

$visitor = (string) ($_COOKIE['esign-visitor'] ?? '');
if (!preg_match('/^[A-Za-z0-9_-]{16,64}$/D', $visitor)) {
    $visitor = rtrim(strtr(base64_encode(random_bytes(18)), '+/', '-_'), '=');
    setcookie('esign-visitor', $visitor, ['path' => '/', 'httponly' => true, 'samesite' => 'Strict', 'secure' => $https]);
}
$GLOBALS['event']['visitor'] = $visitor;
$person = $role[0] === 'start' ? event_person($sent) : null;
if ($person !== null) {
    $GLOBALS['event']['person'] = $person;
}
if ($role[0] === 'start' && $config['by_address'] && isset($_SERVER['REMOTE_ADDR'])) {
    $GLOBALS['event']['address'] = (string) $_SERVER['REMOTE_ADDR'];
}

$signerCode = null;
if (GATE_SIGNING && $role[0] === 'start' && in_array($part, ['sign', 'hash'], true)) {
    $who = signer();
    if ($who === null) {
        fail(403, 'signer-unknown', 'Nobody is signed in to this site to sign as');
    }
    if (!same_signer($sent, $who)) {
        fail(403, 'signer-mismatch', 'Signing is allowed only as the person signed in to this site');
    }
    $signerCode = preg_replace('/[\s-]/', '', (string) $who['code']);
}

$notFound = fn () => respond(404, json_encode(['status' => 'error', 'message' => 'Session for given token was not found'] + ($role[0] === 'status' ? ['error_code' => 40402] : [])));
if ($role[0] === 'status' || $role[0] === 'remove') {
    $row = $db->prepare('SELECT visitor, channel, status, expires, person, signer FROM bindings WHERE token = ?');
    $row->execute([$token]);
    $bound = $row->fetch(PDO::FETCH_ASSOC);
    $ok = $bound && hash_equals($bound['visitor'], $visitor) && (float) $bound['expires'] > $now
        && ($role[0] === 'status' ? $bound['status'] === $operation : $bound['channel'] === $role[1]);
    if (!$ok) {
        event('refused', ['reason' => 'not-your-session', 'status' => 404]);
        $notFound();
    }
}
$counted = [];
if ($role[0] === 'start') {
    $keys = ['visitor:' . digest($visitor) => 'visitor'];
    if (isset($sent->code) && is_string($sent->code)) {
        $keys['person:' . digest(person_key($role[1], $sent))] = 'person';
    }
    if ($config['by_address'] && isset($_SERVER['REMOTE_ADDR'])) {
        $keys['address:' . digest(address_key((string) $_SERVER['REMOTE_ADDR']))] = 'address';
    }
    foreach ($keys as $key => $scope) {
        $wait = over_limit($db, $key, $config['limits'][$scope]);
        if ($wait > 0) {
            fail(429, 'rate-limited', 'Too many sessions started; try again later', ['retry_after' => $wait], ["Retry-After: $wait"]);
        }
        if ($scope === 'person') {
            $counted[] = $key;
        }
    }
}
if ($role[0] === 'status') {
    $tooSoon = atomically($db, function (PDO $db) use ($token) {
        $row = $db->prepare('SELECT at FROM polls WHERE token = ?');
        $row->execute([$token]);
        $last = (float) ($row->fetchColumn() ?: 0);
        if (microtime(true) - $last < MIN_POLL_INTERVAL) {
            return true;
        }
        $db->prepare('INSERT OR REPLACE INTO polls (token, at) VALUES (?, ?)')->execute([$token, microtime(true)]);
        return false;
    });
    if ($tooSoon) {
        respond(200, '{"status":"waiting"}');
    }
}

// --- to the service ----------------------------------------------------------------------------------
$forward = clone $sent;
$forward->access_token = $config['token'];
$content = '';
$tooLarge = false;
$curl = curl_init($config['base'] . $path);
curl_setopt_array($curl, [
    CURLOPT_CUSTOMREQUEST => $method,
    CURLOPT_POSTFIELDS => json_encode($forward, JSON_UNESCAPED_SLASHES),
    CURLOPT_HTTPHEADER => ['content-type: application/json', 'accept: application/json'],
    CURLOPT_FOLLOWLOCATION => false,
    CURLOPT_TIMEOUT => 60,
    CURLOPT_CONNECTTIMEOUT => 10,
    CURLOPT_ENCODING => '',
    CURLOPT_PROTOCOLS => CURLPROTO_HTTP | CURLPROTO_HTTPS,
    CURLOPT_WRITEFUNCTION => function ($curl, string $chunk) use (&$content, &$tooLarge): int {
        if (strlen($content) + strlen($chunk) > ANSWER_LIMIT) {
            $tooLarge = true;
            return 0; // stops the transfer
        }
        $content .= $chunk;
        return strlen($chunk);
    },
]);
$done = curl_exec($curl);
$status = (int) curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
$errno = curl_errno($curl);
curl_close($curl);
if ($tooLarge) {
    fail(502, 'upstream-too-large', 'The service answered with more than the proxy accepts');
}
if ($done === false) {
    $errno === CURLE_OPERATION_TIMEDOUT
        ? fail(504, 'upstream-timeout', 'The service did not answer in time')
        : fail(502, 'upstream-unreachable', 'The service could not be reached');
}
if ($status >= 300 && $status < 400) {
    fail(502, 'upstream-redirect', 'The service answered with a redirect, which is not followed');
}
try {
    $value = json_decode($content, false, 512, JSON_THROW_ON_ERROR);
} catch (JsonException) {
    $value = null;
}
if (!$value instanceof stdClass) {
    fail(502, 'upstream-invalid', 'The service answered with something other than JSON');
}
$value = redact($value, $config['token']);
$tokenRefused = ($value->error_code ?? null) === 40003;
if ($tokenRefused) {
    // the service refused the access token: nothing can work until the configuration is right (said once a minute)
    event('failed', ['failure' => 'access-token', 'status' => $status]);
    $say = atomically($db, function (PDO $db) {
        $row = $db->query("SELECT at FROM polls WHERE token = ':token-refused'")->fetchColumn();
        if ($row !== false && microtime(true) - (float) $row < 60) {
            return false;
        }
        $db->prepare('INSERT OR REPLACE INTO polls (token, at) VALUES (?, ?)')->execute([':token-refused', microtime(true)]);
        return true;
    });
    if ($say) {
        file_put_contents('php://stderr', '[esign-proxy] the service refused the access token (40003) for ' . NODE_NAMES[$operation] . ": check ESIGN_ACCESS_TOKEN and ESIGN_BASE_URL\n");
    }
}
$answerStatus = $value->status ?? null;
if ($role[0] === 'start' && $answerStatus === 'error') {
    // the service refused the start: no session; the person is not charged for it
    foreach ($counted as $key) {
        give_back($db, $key);
    }
}
if ($answerStatus === 'ok' && $role[0] === 'start' && isset($value->token) && is_string($value->token)) {
    $db->prepare('INSERT OR REPLACE INTO bindings (token, visitor, channel, status, expires, person, signer) VALUES (?, ?, ?, ?, ?, ?, ?)')
        ->execute([$value->token, $visitor, $role[1], $role[2], microtime(true) + SESSION_TTL, $person === null ? null : json_encode($person, JSON_UNESCAPED_UNICODE), $signerCode]);
    event('started');
}
if ($role[0] === 'status' && !empty($bound['person'])) {
    $GLOBALS['event']['person'] = json_decode($bound['person'], true);
}
if ($role[0] === 'status' && $answerStatus === 'error') {
    if (!$tokenRefused) {
        event('finished', ['outcome' => (string) ($value->error_code ?? 'error')]);
    }
}
if ($answerStatus === 'ok' && str_ends_with($operation, '-sign-status') && !empty($bound['signer'])) {
    // in depth: the file's newest signature must name the signed-in person
    $content = $value->file->content ?? null;
    $codes = is_string($content) ? newest_signer_codes((string) base64_decode($content)) : null;
    if ($codes === null || !in_array($bound['signer'], $codes, true)) {
        file_put_contents('php://stderr', '[esign-proxy] a finished ' . NODE_NAMES[$operation] . " was signed by another person than the signer: not handed over\n");
        fail(403, 'signer-mismatch', 'Signing is allowed only as the person signed in to this site');
    }
}
if ($answerStatus === 'ok' && $role[0] === 'status') {
    // the browser sees the result only after on_result succeeded for it (at least once)
    try {
        $delivered = hand_over($db, $token, fn () => on_result(NODE_NAMES[$operation], $token, $visitor, $value));
    } catch (Throwable) {
        fail(500, 'host-error', 'The host could not process this request');
    }
    if (!$delivered) {
        respond(200, '{"status":"waiting"}');
    }
    event('finished', ['outcome' => 'ok']);
}
if (!$config['screening']) {
    $value = without_screening($value);
}
respond($status, json_encode($value, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE));
