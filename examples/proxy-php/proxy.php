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

// The rules every esign-elements proxy keeps (operations, fields, shapes, limits, lifetimes, event
// names) come from proxy-rules.json beside this file, made from the Node proxy's own rulebook.
$RULES = json_decode((string) file_get_contents((string) (getenv('ESIGN_RULES_FILE') ?: __DIR__ . '/proxy-rules.json')), true, 512, JSON_THROW_ON_ERROR);
define('RULES_VERSION', 1); // the version of proxy-rules.json this script keeps
define('PREFIX', rtrim((string) (getenv('ESIGN_PREFIX') ?: '/esign'), '/'));
define('BODY_LIMIT', (int) $RULES['bodyLimit']);
define('SESSION_BODY_LIMIT', (int) $RULES['sessionBodyLimit']); // every session operation but those that carry files
define('ANSWER_LIMIT', (int) $RULES['answerLimit']);
define('UPSTREAM_TIMEOUT', $RULES['upstreamTimeoutMs'] / 1000);
define('SESSION_TTL', $RULES['sessionTtlMs'] / 1000);
define('FINISHED_TTL', $RULES['finishedSessionTtlMs'] / 1000); // a finished session's marks stay this long for late polls
define('RESULT_TIMEOUT', $RULES['result']['timeoutMs'] / 1000); // seconds on_result may take; past it the run counts as failed
define('RESULT_WAIT', $RULES['result']['waitMs'] / 1000); // seconds a poll waits for another request's on_result before it answers "waiting"
define('LEASE', $RULES['result']['leaseMs'] / 1000); // the claim on a result, renewed while on_result runs: a dead worker's lapses this soon
define('RENEW_EVERY', $RULES['result']['renewEveryMs'] / 1000);
// where nothing can renew the lease (proc_open disabled, no PHP CLI): held for the whole time limit and this much more
define('LEASE_MARGIN', $RULES['result']['leaseMarginMs'] / 1000);
define('MIN_POLL_INTERVAL', $RULES['minPollIntervalMs'] / 1000); // a poll sooner than this after the last one is answered "waiting" unforwarded
define('STORE_RETRY_AFTER', (int) $RULES['storeRetryAfterSeconds']);
define('START_TEXT_LIMIT', (int) $RULES['startTextLimit']);
// the events' reasons and failures by the proxy's error kinds
define('REASONS', $RULES['events']['refusals']);
define('FAILURES', $RULES['events']['failures']);

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

// the request id: the edge's, from ESIGN_TRUST_REQUEST_ID_HEADER, only where the host's edge sets it
// (a browser can send any header); answered, and in the request's event and log lines
$trusted = (string) getenv('ESIGN_TRUST_REQUEST_ID_HEADER');
$given = $trusted !== '' ? (string) ($_SERVER['HTTP_' . strtoupper(str_replace('-', '_', $trusted))] ?? '') : '';
define('REQUEST_ID', preg_match('/^[A-Za-z0-9._:-]{1,128}$/D', $given) ? $given : request_uuid());
header('x-request-id: ' . REQUEST_ID);
$GLOBALS['event'] = ['requestId' => REQUEST_ID] + $GLOBALS['event'];

$config = [
    'base' => rtrim((string) getenv('ESIGN_BASE_URL'), '/'),
    'token' => (string) getenv('ESIGN_ACCESS_TOKEN'),
    'origins' => array_values(array_filter(explode(',', (string) getenv('ESIGN_ALLOWED_ORIGINS')))),
    'screening' => getenv('ESIGN_EXPOSE_SCREENING') === '1',
    'scheme' => (string) getenv('ESIGN_PUBLIC_SCHEME'),
    'by_address' => getenv('ESIGN_LIMIT_BY_ADDRESS') === '1',
    'state' => (string) (getenv('ESIGN_STATE_FILE') ?: private_state_dir() . '/state.sqlite'),
    // starts per window (seconds): "visitor,person,window[,address]", e.g. "3,2,60" for tests
    'limits' => array_map(fn (array $rule) => [$rule['limit'], $rule['windowMs'] / 1000], ['visitor' => $RULES['rateLimits']['perVisitor'], 'person' => $RULES['rateLimits']['perPerson'], 'address' => $RULES['rateLimits']['perAddress']]),
];
if (getenv('ESIGN_RATE_LIMIT')) {
    $n = array_map('intval', explode(',', (string) getenv('ESIGN_RATE_LIMIT')));
    $config['limits'] = ['visitor' => [$n[0], $n[2]], 'person' => [$n[1], $n[2]], 'address' => [$n[3] ?? 60, $n[2]]];
}
if (($RULES['version'] ?? null) !== RULES_VERSION) {
    // a rules file of another version may mean other fields or limits than this script can keep
    file_put_contents('php://stderr', '[esign-proxy] proxy-rules.json is of version ' . json_encode($RULES['version'] ?? null) . '; this proxy keeps version ' . RULES_VERSION . ": use the proxy-rules.json of the same release [request " . REQUEST_ID . "]\n");
    fail(500, 'misconfigured', 'The proxy\'s rules file is of an unknown version');
}
if (strlen($config['token']) < 8 || $config['base'] === '') {
    fail(500, 'misconfigured', 'ESIGN_BASE_URL and ESIGN_ACCESS_TOKEN (8 characters or more) must be set');
}

// --- the allow-list: method, path, the operation's own fields and JSON types ------------------------
// id => [method, path pattern, fields, role, channel, kind]; role: ['start', channel, status id] | ['status'] | ['remove', channel]
// Document operations are off here; a host that enables them adds them with an authorize check per uuid.
$operations = [];
foreach ($RULES['sessionOperations'] as $id) {
    $op = $RULES['operations'][$id];
    $pattern = implode('', array_map(
        fn (string $part) => preg_match('/^\{(\w+)\}$/', $part, $param) ? '(?<' . $param[1] . '>' . $RULES['paramPattern'] . ')' : preg_quote($part, '#'),
        preg_split('/(\{\w+\})/', $op['path'], -1, PREG_SPLIT_DELIM_CAPTURE | PREG_SPLIT_NO_EMPTY),
    ));
    $role = match ($op['role']) { 'start' => ['start', $op['channel'], $op['status']], 'remove' => ['remove', $op['channel']], default => ['status'] };
    $operations[$id] = [$op['method'], ($op['localized'] ? '(?:' . preg_quote($RULES['englishPrefix'], '#') . ')?' : '') . $pattern, $op['fields'], $role, $op['channel'], $op['kind'] ?? null];
}
define('FILE_STARTS', array_keys(array_filter($RULES['operations'], fn (array $op) => $op['carriesFiles'])));
// Start fields by the service's published shapes: checked before anything is counted or forwarded.
define('SHAPES', $RULES['startShapes']);
define('SCREENING_FIELDS', $RULES['screeningFields']);

/**
 * Thrown by on_result() when your site will not take this result (a person it does not serve): the
 * session ends for the browser with 409 site-refused, and is not tried again; any other throw is
 * tried again by the next poll.
 */
final class ResultRefused extends Exception
{
    public function __construct(public readonly ?int $status = null)
    {
        parent::__construct($status === null ? 'the host refused the result' : "the host refused the result (HTTP $status)");
    }
}

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
    report_to_check($token);
}
}

/**
 * With ESIGN_CHECK_HOOK_URL (esign-sandbox check-proxy's result-first row): say when this run begins
 * and ends, and take ESIGN_CHECK_HOOK_MS between, as a slow host's work would.
 */
if (!function_exists('report_to_check')) {
function report_to_check(string $token): void
{
    $hook = (string) getenv('ESIGN_CHECK_HOOK_URL');
    if ($hook === '') {
        return;
    }
    $post = function (string $at) use ($hook, $token): string {
        @file_get_contents($hook, false, stream_context_create(['http' => ['method' => 'POST', 'header' => 'content-type: application/json', 'content' => json_encode(['token' => $token, 'at' => $at]), 'timeout' => 5, 'ignore_errors' => true]]));
        return $http_response_header[0] ?? '';
    };
    // the check's site turns this person away with 409
    $refused = str_contains($post('start'), ' 409');
    usleep((int) getenv('ESIGN_CHECK_HOOK_MS') * 1000);
    $post('end');
    if ($refused) {
        throw new ResultRefused(409);
    }
}
}

/**
 * Sign only as the person signed in to your site: with ESIGN_SIGNER set (or GATE_SIGNING defined
 * true before this file is included), every signing start is for signer() alone. Return the person
 * from your session, e.g. $_SESSION['person'] after your on_result stored it: a country and a code
 * (the same digits in two countries are two people), ['country' => 'EE', 'code' => ..., 'phone' => ?],
 * or null when nobody is signed in. ESIGN_SIGNER sets one for tests: "code,country[,phone]", or "-".
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

define('COUNTRIES', $RULES['countries']);

/** A code as one person has it: only in Latvia is the code with or without its hyphen the same. */
function canonical_code(?string $country, string $code): string
{
    $compact = (string) preg_replace('/\s/', '', $code);
    return $country === 'LV' ? str_replace('-', '', $compact) : $compact;
}

/** Mobile-ID exists in Lithuania (+370) and Estonia (+372). */
function phone_country(string $phone): ?string
{
    $compact = (string) preg_replace('/[\s-]/', '', $phone);
    return str_starts_with($compact, '+370') ? 'LT' : (str_starts_with($compact, '+372') ? 'EE' : null);
}

/** The one country a start names (its country field, a Mobile-ID phone's), or null for none or two. */
function start_country(stdClass $sent): ?string
{
    $named = [];
    if (is_string($sent->country ?? null)) {
        $named[strtoupper($sent->country)] = true;
    }
    if (is_string($sent->phone ?? null) && phone_country($sent->phone) !== null) {
        $named[phone_country($sent->phone)] = true;
    }
    return count($named) === 1 ? (string) array_key_first($named) : null;
}

/** A person as a binding keeps them: a digest of country and code, never the code in clear. */
function person_digest(string $country, string $code): string
{
    return digest("signer:$country:" . canonical_code($country, $code));
}

/** What is wrong with a signer() answer that is not null, or null when it names a person. */
function signer_problem(mixed $who): ?string
{
    if (!is_array($who)) {
        return 'neither null nor [country, code]';
    }
    if (!is_string($who['code'] ?? null) || trim($who['code']) === '') {
        return 'a person without a code';
    }
    if (!in_array($who['country'] ?? null, COUNTRIES, true)) {
        return 'a person without a country (LT, LV or EE): a person is a country and a code';
    }
    return null;
}

/** The start is for the signer: their country (the field, a Mobile-ID phone's), their code as that country writes it, their phone where given. */
function same_signer(stdClass $sent, array $who): bool
{
    $country = $who['country'];
    if (start_country($sent) !== $country) {
        return false;
    }
    if (!is_string($sent->code ?? null) || canonical_code($country, $sent->code) !== canonical_code($country, (string) $who['code'])) {
        return false;
    }
    if (!empty($who['phone']) && is_string($sent->phone ?? null) && preg_replace('/\D/', '', $sent->phone) !== preg_replace('/\D/', '', $who['phone'])) {
        return false;
    }
    return true;
}

/** [country, code] of subject serial numbers (OID 2.5.4.5, "PNOLT-<code>") in DER bytes. */
function persons_in_der(string $der): array
{
    $persons = [];
    preg_match_all('/\x06\x03\x55\x04\x05[\x13\x0c]([\x00-\x40])/s', $der, $found, PREG_OFFSET_CAPTURE);
    foreach ($found[1] as [$length, $at]) {
        $value = substr($der, $at + 1, ord($length));
        if (preg_match('/^PNO([A-Z]{2})-([0-9A-Z-]{6,20})$/D', $value, $number) && in_array($number[1], COUNTRIES, true)) {
            $persons[] = [$number[1], canonical_code($number[1], $number[2])];
        }
    }
    return $persons;
}

/** The entries of a ZIP's central directory, by name. */
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

/** An entry's bytes (stored or deflated, at most 16 MiB inflated), null when unreadable. */
function zip_entry(string $zip, array $entry): ?string
{
    $at = $entry['local'];
    if (substr($zip, $at, 4) !== "PK\x03\x04") {
        return null;
    }
    ['name' => $name, 'extra' => $extra] = unpack('vname/vextra', substr($zip, $at + 26, 4));
    $stored = substr($zip, $at + 30 + $name + $extra, $entry['size']);
    $bytes = $entry['method'] === 0 ? $stored : ($entry['method'] === 8 ? @gzinflate($stored, INFLATE_LIMIT) : false);
    return $bytes === false ? null : $bytes;
}

define('SIGNATURE_ENTRY', '#' . $RULES['signatureEntries']['pattern'] . '#D');
define('MOST_SIGNATURE_ENTRIES', (int) $RULES['signatureEntries']['most']);
define('INFLATE_LIMIT', (int) $RULES['signatureEntries']['inflateLimit']); // the most a signature entry may inflate to

/** A container's signature entries by name, each its bytes (null when unreadable). */
function signature_entries(string $file): array
{
    $found = [];
    if (!str_starts_with($file, 'PK')) {
        return $found;
    }
    foreach (zip_entries($file) as $name => $entry) {
        if (preg_match(SIGNATURE_ENTRY, (string) $name)) {
            $found[(string) $name] = zip_entry($file, $entry);
        }
    }
    return $found;
}

/**
 * What the uploaded file held before the service signed it: a PDF's length and digest, a
 * container's signature entries with a digest each (and loose files named like one); null for more
 * signature entries than any real container has.
 */
function upload_print(stdClass $sent): ?array
{
    $type = is_string($sent->type ?? null) ? $sent->type : '';
    $files = [];
    foreach (($type !== '' ? ($sent->{$type}->files ?? []) : []) as $file) {
        $files[] = [(string) ($file->name ?? ''), (string) base64_decode((string) ($file->content ?? ''))];
    }
    if ($type === 'pdf') {
        $pdf = $files[0][1] ?? '';
        return ['type' => 'pdf', 'length' => strlen($pdf), 'sha256' => hash('sha256', $pdf)];
    }
    $entries = [];
    foreach ($files as [$name, $content]) {
        if (preg_match(SIGNATURE_ENTRY, $name)) {
            $entries[$name] = hash('sha256', $content);
        }
    }
    if (count($files) === 1) {
        foreach (signature_entries($files[0][1]) as $name => $bytes) {
            $entries[$name] = $bytes === null ? '' : hash('sha256', $bytes);
        }
    }
    return count($entries) > MOST_SIGNATURE_ENTRIES ? null : ['type' => 'container', 'entries' => $entries];
}

/** [persons, null] of the one signature the service added to the uploaded file, or [null, why]. */
function added_signature(array $upload, string $signed): array
{
    $ders = [];
    if ($upload['type'] === 'pdf') {
        if (strlen($signed) <= $upload['length'] || hash('sha256', substr($signed, 0, $upload['length'])) !== $upload['sha256']) {
            return [null, 'does not begin with the uploaded file'];
        }
        $count = preg_match_all('/\/Contents\s*<([0-9A-Fa-f\s]{128,})>/', substr($signed, $upload['length']), $found);
        if ($count !== 1) {
            return [null, $count ? 'has more than one new signature' : 'has no new signature'];
        }
        $ders[] = (string) hex2bin((string) preg_replace('/\s/', '', $found[1][0]));
    } else {
        $now = signature_entries($signed);
        foreach ($upload['entries'] as $name => $before) {
            if (($now[$name] ?? null) === null || hash('sha256', $now[$name]) !== $before) {
                return [null, 'changed or dropped a signature it already had'];
            }
        }
        $added = array_values(array_diff(array_keys($now), array_keys($upload['entries'])));
        if (count($added) !== 1) {
            return [null, $added ? 'has more than one new signature' : 'has no new signature'];
        }
        if ($now[$added[0]] === null) {
            return [null, 'has a new signature that cannot be read'];
        }
        preg_match_all('#<(?:[\w-]+:)?X509Certificate>([A-Za-z0-9+/=\s]+)</#', $now[$added[0]], $certificates);
        foreach ($certificates[1] as $certificate) {
            $ders[] = (string) base64_decode((string) preg_replace('/\s/', '', $certificate));
        }
    }
    $persons = array_merge([], ...array_map('persons_in_der', $ders));
    return $persons ? [$persons, null] : [null, 'has a new signature that names nobody'];
}

/** The visitor cookie's MAC under ESIGN_VISITOR_SECRET (else the access token): the proxy adopts only ids it minted. */
function visitor_mac(string $random): string
{
    $secret = (string) (getenv('ESIGN_VISITOR_SECRET') ?: getenv('ESIGN_ACCESS_TOKEN'));
    return substr(rtrim(strtr(base64_encode(hash_hmac('sha256', "esign-visitor:$random", $secret, true)), '+/', '-_'), '='), 0, 22);
}

function new_visitor(): string
{
    $random = rtrim(strtr(base64_encode(random_bytes(18)), '+/', '-_'), '=');
    return $random . visitor_mac($random);
}

function minted_visitor(string $value): bool
{
    return preg_match('/^[A-Za-z0-9_-]{46}$/D', $value) === 1 && hash_equals(visitor_mac(substr($value, 0, 24)), substr($value, 24));
}

/** The visitor in events: a keyed digest (ESIGN_EVENT_SECRET, else the access token), never the cookie's value. */
function visitor_digest(string $visitor): string
{
    return hash_hmac('sha256', "visitor:$visitor", (string) (getenv('ESIGN_EVENT_SECRET') ?: getenv('ESIGN_ACCESS_TOKEN')));
}

/** A version 4 UUID, for a request's id. */
function request_uuid(): string
{
    $bytes = random_bytes(16);
    $bytes[6] = chr((ord($bytes[6]) & 0x0f) | 0x40);
    $bytes[8] = chr((ord($bytes[8]) & 0x3f) | 0x80);
    return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($bytes), 4));
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
        event('host-error', ['hook' => $extra['hook'] ?? 'onResult', 'status' => $status]);
        unset($extra['hook']);
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
        $ok = match ($shape) { 'boolean' => is_bool($value), 'integer' => is_int($value), default => is_string($value) };
        if (!$ok) {
            throw new InvalidField($path);
        }
        return $value;
    }
    if (isset($shape['array'])) {
        if (!is_array($value)) {
            throw new InvalidField($path);
        }
        return array_map(fn ($item, $i) => pick($shape['array'], $item, "$path.$i"), $value, array_keys($value));
    }
    if (!$value instanceof stdClass) {
        throw new InvalidField($path);
    }
    $out = new stdClass();
    foreach ($shape['object'] ?? $shape as $key => $inner) {
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
        if ($shape !== null ? !preg_match('/' . $shape . '/D', $value) : strlen($value) > START_TEXT_LIMIT) {
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
    $country = start_country($sent);
    $code = canonical_code($country, (string) $sent->code);
    if ($channel !== 'mobile') {
        return 'smartid:' . ($country ?? '-') . ':' . $code;
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

/**
 * Where the state is kept when ESIGN_STATE_FILE is not set: a folder of this account's own in the
 * system's temp folder (0700), never a file every account there can read. A folder of that name
 * that is another account's, or open to others, is refused: nothing is kept there.
 */
function private_state_dir(): string
{
    $uid = function_exists('posix_geteuid') ? posix_geteuid() : getmyuid();
    $dir = sys_get_temp_dir() . '/esign-proxy-' . $uid;
    if (!is_dir($dir) && !@mkdir($dir, 0700) && !is_dir($dir)) {
        fail(500, 'misconfigured', 'The proxy cannot make its state folder; set ESIGN_STATE_FILE');
    }
    clearstatcache(true, $dir);
    if (is_link($dir) || fileowner($dir) !== $uid || (fileperms($dir) & 0077) !== 0) {
        file_put_contents('php://stderr', "[esign-proxy] the state folder $dir is another account's or open to others: refused; set ESIGN_STATE_FILE [request " . REQUEST_ID . "]\n");
        fail(500, 'misconfigured', 'The proxy\'s state folder is not its own; set ESIGN_STATE_FILE');
    }
    return $dir;
}

/** The state every worker shares: its files (the database, its WAL and index) readable by this account alone. */
function state(string $file): PDO
{
    $mask = umask(0077);
    try {
        return open_state($file);
    } finally {
        umask($mask);
    }
}

function open_state(string $file): PDO
{
    $db = new PDO('sqlite:' . $file, null, null, [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
    // a state that cannot be read or written within a second fails the request closed (503, Retry-After)
    $db->exec('PRAGMA busy_timeout = 1000');
    $db->exec('PRAGMA journal_mode = WAL');
    $db->exec('CREATE TABLE IF NOT EXISTS bindings (token TEXT PRIMARY KEY, visitor TEXT, channel TEXT, status TEXT, expires REAL, person TEXT, signer TEXT, upload TEXT, rotated_from TEXT)');
    $columns = array_column($db->query('PRAGMA table_info(bindings)')->fetchAll(PDO::FETCH_ASSOC), 'name');
    foreach (['signer', 'upload', 'rotated_from'] as $column) {
        if (!in_array($column, $columns, true)) {
            $db->exec("ALTER TABLE bindings ADD COLUMN $column TEXT"); // a state file of an earlier version
        }
    }
    $db->exec('CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, count INTEGER, resets REAL)');
    $db->exec('CREATE TABLE IF NOT EXISTS claims (token TEXT PRIMARY KEY, lease TEXT, expires REAL)');
    $db->exec('CREATE TABLE IF NOT EXISTS polls (token TEXT PRIMARY KEY, at REAL)');
    $db->exec('CREATE TABLE IF NOT EXISTS kept (token TEXT PRIMARY KEY, cookies TEXT, expires REAL)');
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
            foreach (['bindings', 'claims', 'polls', 'kept'] as $table) {
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
        $row->closeCursor();
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
 * 'ran' when on_result succeeded in this request, 'done' when it had succeeded before (by this or
 * another worker); false when another worker is running it past RESULT_WAIT; throws what $run
 * threw (ResultRefused, kept: every later poll of the session throws it too). $keep runs after
 * $run succeeded, before the result is marked done (as the Python proxy's finish()).
 */
function hand_over(PDO $db, string $token, callable $run, callable $keep): string|false
{
    $lease = bin2hex(random_bytes(8));
    $until = microtime(true) + RESULT_WAIT;
    // a lease nothing can renew is taken for the run's whole time limit: never two runs at once
    $unrenewable = renewer_missing();
    $leaseFor = $unrenewable === null ? LEASE : RESULT_TIMEOUT + LEASE_MARGIN;
    for (;;) {
        $taken = atomically($db, function (PDO $db) use ($token, $lease, $leaseFor) {
            $row = $db->prepare('SELECT lease, expires FROM claims WHERE token = ?');
            $row->execute([$token]);
            $claim = $row->fetch(PDO::FETCH_ASSOC);
            $row->closeCursor();
            if ($claim && in_array($claim['lease'], ['done', 'told', 'refused'], true)) {
                return $claim['lease'] === 'refused' ? 'refused' : 'done';
            }
            if (!$claim || (float) $claim['expires'] <= microtime(true)) { // free, or its holder died
                $db->prepare('INSERT OR REPLACE INTO claims (token, lease, expires) VALUES (?, ?, ?)')
                    ->execute([$token, $lease, microtime(true) + $leaseFor]);
                return 'mine';
            }
            return 'busy';
        });
        if ($taken === 'refused') {
            throw new ResultRefused();
        }
        if ($taken === 'done') {
            return 'done';
        }
        if ($taken === 'mine') {
            break;
        }
        if (microtime(true) >= $until) {
            return false;
        }
        usleep(50_000);
    }
    // the lease is renewed while on_result runs, by a small process of its own: it stops when this
    // request closes its pipe, when this worker dies, or at the time limit, and then the lease
    // lapses within LEASE; where no such process can run, the lease was taken for the whole time
    if ($unrenewable !== null) {
        say_once($db, 'no-renewer', "a result's lease cannot be renewed here ($unrenewable): each is held for on_result's whole time limit (" . (RESULT_TIMEOUT + LEASE_MARGIN) . ' s), so a worker that dies while on_result runs delays that person this long');
    }
    $renewer = $unrenewable === null ? renew_while_running($token, $lease) : null;
    try {
        $started = microtime(true);
        $run();
        if (microtime(true) - $started > RESULT_TIMEOUT) {
            throw new RuntimeException('on_result took longer than RESULT_TIMEOUT');
        }
        // what the result's answer carries (its cookies) is kept before the result is marked done:
        // a poll that finds it done sends them again, never an answer without them
        $keep();
    } catch (ResultRefused $refusal) {
        stop_renewing($renewer);
        $db->prepare("UPDATE claims SET lease = 'refused', expires = ? WHERE token = ?")->execute([microtime(true) + FINISHED_TTL, $token]);
        throw $refusal;
    } catch (Throwable $error) {
        stop_renewing($renewer);
        $db->prepare('DELETE FROM claims WHERE token = ? AND lease = ?')->execute([$token, $lease]);
        throw $error;
    }
    stop_renewing($renewer);
    $db->prepare("UPDATE claims SET lease = 'done', expires = ? WHERE token = ?")->execute([microtime(true) + FINISHED_TTL, $token]);
    return 'ran';
}

/**
 * The cookies of this answer (on_result's new session id at a login, the rotated visitor id), kept with the finished
 * session for every later poll of it: a poll answer lost on the way loses no login.
 */
function keep_cookies(PDO $db, string $token): void
{
    // (a visitor cookie here is the one a login rotated: a new visitor's own cookie was set before any session was bound)
    $lines = array_values(array_filter(headers_list(), fn (string $h) => stripos($h, 'set-cookie:') === 0));
    if ($lines) {
        $db->prepare('INSERT OR REPLACE INTO kept (token, cookies, expires) VALUES (?, ?, ?)')->execute([$token, json_encode($lines), microtime(true) + FINISHED_TTL]);
    }
}

/** The cookies kept for a finished session, sent again with a late poll's answer. */
function send_kept_cookies(PDO $db, string $token): void
{
    $row = $db->prepare('SELECT cookies FROM kept WHERE token = ? AND expires > ?');
    $row->execute([$token, microtime(true)]);
    $cookies = $row->fetchColumn();
    $row->closeCursor();
    foreach ($cookies === false ? [] : (array) json_decode((string) $cookies, true) as $line) {
        header((string) $line, false);
    }
}

/** The PHP command-line binary a lease's renewer runs with, or null where there is none. */
function php_cli(): ?string
{
    $given = (string) getenv('ESIGN_PHP_CLI');
    if ($given !== '') {
        return is_file($given) && is_executable($given) ? $given : null;
    }
    if (PHP_SAPI === 'cli' || PHP_SAPI === 'cli-server') {
        return PHP_BINARY;
    }
    // php-fpm's own binary cannot run a script; Debian's php-fpm does not bring the CLI with it
    foreach ([PHP_BINDIR, ...array_filter(explode(':', (string) getenv('PATH')))] as $dir) {
        if (is_file("$dir/php") && is_executable("$dir/php")) {
            return "$dir/php";
        }
    }
    return null;
}

/** Why no process can renew a result's lease here, or null when one can. */
function renewer_missing(): ?string
{
    if (!function_exists('proc_open')) {
        return 'proc_open is disabled';
    }
    return php_cli() === null ? 'no PHP command-line binary: install php-cli or set ESIGN_PHP_CLI' : null;
}

/** Writes $line to the log unless it was written already (by any worker, since the state file began). */
function say_once(PDO $db, string $what, string $line): void
{
    $first = atomically($db, function (PDO $db) use ($what) {
        $said = $db->prepare('INSERT OR IGNORE INTO polls (token, at) VALUES (?, ?)');
        $said->execute([":said:$what", microtime(true)]);
        return $said->rowCount() === 1;
    });
    if ($first) {
        file_put_contents('php://stderr', "[esign-proxy] $line [request " . REQUEST_ID . "]\n");
    }
}

/**
 * A process that renews this worker's lease every RENEW_EVERY seconds while its stdin stays open,
 * until on_result's time limit (PHP runs on_result in this very thread, with nothing to renew the
 * lease beside it).
 */
function renew_while_running(string $token, string $lease): mixed
{
    $code = '$db = new PDO("sqlite:" . $argv[1], null, null, [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);'
        . '$db->exec("PRAGMA busy_timeout = 1000");'
        . 'stream_set_blocking(STDIN, false); $end = microtime(true) + (float) $argv[6];'
        . 'while (microtime(true) < $end) { $r = [STDIN]; $w = $e = null;'
        . ' if (stream_select($r, $w, $e, (int) $argv[4], (int) (fmod((float) $argv[4], 1) * 1e6)) > 0 && fgets(STDIN) === false && feof(STDIN)) { exit; }'
        . ' try { $db->prepare("UPDATE claims SET expires = ? WHERE token = ? AND lease = ?")->execute([min(microtime(true) + $argv[5], $end), $argv[2], $argv[3]]); } catch (Throwable) {} }';
    $process = @proc_open([(string) php_cli(), '-r', $code, $GLOBALS['config']['state'], $token, $lease, (string) RENEW_EVERY, (string) LEASE, (string) RESULT_TIMEOUT], [0 => ['pipe', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
    return $process === false ? null : [$process, $pipes[0]];
}

function stop_renewing(mixed $renewer): void
{
    if ($renewer !== null) {
        fclose($renewer[1]);
        proc_close($renewer[0]);
    }
}

/** A finished session's binding stays only as long as a late poll needs it. */
function finished(PDO $db, string $token): void
{
    $db->prepare('UPDATE bindings SET expires = MIN(expires, ?) WHERE token = ?')->execute([microtime(true) + FINISHED_TTL, $token]);
}

// --- the request ------------------------------------------------------------------------------------
// the shared state that cannot be read or written: nothing it could not check goes on (fails closed)
set_exception_handler(function (Throwable $error): void {
    if ($error instanceof PDOException) {
        file_put_contents('php://stderr', '[esign-proxy] the state file cannot be read or written: ' . $error->getMessage() . " [request " . REQUEST_ID . "]\n");
        fail(503, 'store-unavailable', 'The proxy cannot reach its state; try again shortly', ['retry_after' => STORE_RETRY_AFTER], ['Retry-After: ' . STORE_RETRY_AFTER]);
    }
    file_put_contents('php://stderr', '[esign-proxy] ' . get_class($error) . ': ' . $error->getMessage() . " [request " . REQUEST_ID . "]\n");
    respond(500, '{"status":"error","message":"The proxy failed"}');
});
// The request, as named steps in the Node proxy's order (src/proxy/steps; `step_` keeps them apart from
// a host's own functions): each reads and fills the exchange $x, and answers early with fail() or
// respond(), which end the request.

/** What the steps learn of one request, in the order they learn it. */
final class Exchange
{
    public string $method = 'GET';
    public string $path = '';
    public array $config = [];
    public array $operations = [];
    public ?PDO $db = null;
    public float $now = 0.0;
    public string $operation = '';
    public array $fields = [];
    public array $role = [];
    public ?string $token = null;
    public ?string $channel = null;
    public ?string $part = null;
    public int $bodyLimit = 0;
    public bool $https = false;
    public ?stdClass $sent = null;
    public string $cookieName = '';
    public string $visitor = '';
    public ?array $person = null;
    public ?string $signerPerson = null;
    public ?array $upload = null;
    public array|false $bound = false;
    /** @var list<string> the per-person counter keys a start counted (given back when the service refuses it) */
    public array $counted = [];
    public int $status = 0;
    public ?stdClass $value = null;
    public bool $tokenRefused = false;
}

/** The operation, by method and path (nothing else is one: a query, an escape, another method), and its body limit. */
function step_route(Exchange $x): void
{
    $found = null;
    if (!preg_match('/[?#%\\\\]/', $x->path)) {
        foreach ($x->operations as $name => [$opMethod, $pattern, $fields, $role, $opChannel, $kind]) {
            if ($x->method === $opMethod && preg_match('#^' . $pattern . '$#D', $x->path, $match)) {
                $found = [$name, $fields, $role, $match['token'] ?? $match['sessionId'] ?? null, $opChannel, $kind];
                break;
            }
        }
    }
    if ($found === null) {
        fail(404, 'operation-not-allowed', 'Not an operation of the service');
    }
    [$x->operation, $x->fields, $x->role, $x->token, $x->channel, $x->part] = $found;
    $GLOBALS['event'] += ['operation' => $x->operation] + ($x->part !== null ? ['kind' => $x->part] : []) + ['channel' => $x->channel];
    $x->db = state($x->config['state']);
    $x->now = microtime(true);
    sweep($x->db, $x->now);
    $x->bodyLimit = in_array($x->operation, FILE_STARTS, true) ? BODY_LIMIT : SESSION_BODY_LIMIT; // only signing carries files
    if ((int) ($_SERVER['CONTENT_LENGTH'] ?? 0) > $x->bodyLimit) {
        fail(413, 'request-too-large', 'Request body is too large', [], ['Connection: close']);
    }
}

/** The host's own pages only: the Origin's host and scheme, or an allowed origin. */
function step_origin(Exchange $x): void
{
    $host = (string) ($_SERVER['HTTP_HOST'] ?? '');
    $x->https = ($_SERVER['HTTPS'] ?? '') !== '' && ($_SERVER['HTTPS'] ?? '') !== 'off';
    $origin = $_SERVER['HTTP_ORIGIN'] ?? null;
    $schemes = $x->config['scheme'] !== '' ? [$x->config['scheme']]
        : ($x->https ? ['https'] : (preg_match('/^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?$/Di', $host) ? ['https', 'http'] : ['https']));
    if (!in_array($origin, $x->config['origins'], true)) {
        $crossSite = ($_SERVER['HTTP_SEC_FETCH_SITE'] ?? '') === 'cross-site';
        $parts = $origin === null ? null : explode('://', $origin, 2);
        $foreign = $parts !== null && (count($parts) !== 2 || $parts[1] !== $host || !in_array($parts[0], $schemes, true));
        if ($crossSite || $foreign) {
            fail(403, 'cross-site', 'Requests from other sites are not accepted');
        }
    }
}

/** JSON bodies only. */
function step_content_type(Exchange $x): void
{
    $type = strtolower(trim(explode(';', (string) ($_SERVER['CONTENT_TYPE'] ?? ''))[0]));
    if ($type !== 'application/json') {
        fail(415, 'unsupported-media-type', 'Request body must be application/json');
    }
}

/** The body, within its limit, as a JSON object; only the operation's own fields, of their types, go on. */
function step_read_fields(Exchange $x): void
{
    $data = (string) file_get_contents('php://input', false, null, 0, $x->bodyLimit + 1);
    if (strlen($data) > $x->bodyLimit) {
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
        $x->sent = pick($x->fields, $body, '');
    } catch (InvalidField $bad) {
        fail(400, 'invalid-field', 'A field has the wrong type', ['field' => $bad->getMessage()]);
    }
    if ($x->role[0] === 'start' && ($bad = bad_start_field($x->sent)) !== null) {
        fail(400, 'invalid-field', 'A field has the wrong type', ['field' => $bad]);
    }
}

/** The proxy's own visitor id: `__Host-` over https (no subdomain can set it), adopted only when minted here. */
function step_visitor(Exchange $x): void
{
    $x->cookieName = $x->https ? '__Host-esign-visitor' : 'esign-visitor';
    $x->visitor = (string) ($_COOKIE[$x->cookieName] ?? '');
    if (!minted_visitor($x->visitor)) {
        $x->visitor = new_visitor();
        setcookie($x->cookieName, $x->visitor, ['path' => '/', 'httponly' => true, 'samesite' => 'Strict', 'secure' => $x->https]);
    }
    $GLOBALS['event']['visitor'] = visitor_digest($x->visitor);
    $x->person = $x->role[0] === 'start' ? event_person($x->sent) : null;
    if ($x->person !== null) {
        $GLOBALS['event']['person'] = $x->person;
    }
    if ($x->role[0] === 'start' && $x->config['by_address'] && isset($_SERVER['REMOTE_ADDR'])) {
        $GLOBALS['event']['address'] = (string) $_SERVER['REMOTE_ADDR'];
    }
}

/** With GATE_SIGNING, a signing starts only as the person signed in to the site (signer()). */
function step_signer_gate(Exchange $x): void
{
    if (!GATE_SIGNING || $x->role[0] !== 'start' || !in_array($x->part, ['sign', 'hash'], true)) {
        return;
    }
    try {
        $who = signer();
    } catch (Throwable) {
        file_put_contents('php://stderr', '[esign-proxy] signer() failed for ' . $x->operation . " [request " . REQUEST_ID . "]\n");
        fail(500, 'host-error', 'The host could not process this request', ['hook' => 'signer']);
    }
    if ($who === null) {
        fail(403, 'signer-unknown', 'Nobody is signed in to this site to sign as');
    }
    if (($problem = signer_problem($who)) !== null) {
        file_put_contents('php://stderr', "[esign-proxy] signer() returned $problem, for " . $x->operation . ": return ['country' => ..., 'code' => ...] of the person signed in, or null [request " . REQUEST_ID . "]\n");
        fail(500, 'host-error', 'The host could not process this request', ['hook' => 'signer']);
    }
    if (!same_signer($x->sent, $who)) {
        fail(403, 'signer-mismatch', 'Signing is allowed only as the person signed in to this site');
    }
    $x->signerPerson = person_digest($who['country'], (string) $who['code']);
    if ($x->part === 'sign' && ($x->upload = upload_print($x->sent)) === null) {
        fail(400, 'invalid-field', 'A field has the wrong type', ['field' => ($x->sent->type ?? '') . '.files']);
    }
}

/** A session is polled and removed only by the visitor that started it (or the id its login gave that browser). */
function step_binding(Exchange $x): void
{
    if ($x->role[0] !== 'status' && $x->role[0] !== 'remove') {
        return;
    }
    $row = $x->db->prepare('SELECT visitor, channel, status, expires, person, signer, upload, rotated_from FROM bindings WHERE token = ?');
    $row->execute([$x->token]);
    $x->bound = $row->fetch(PDO::FETCH_ASSOC);
    // a statement left open keeps a read transaction open: a later write would fail at once when
    // another worker wrote meanwhile (SQLite's busy snapshot), however long it was willing to wait
    $row->closeCursor();
    $bound = $x->bound;
    $ok = $bound && (hash_equals($bound['visitor'], $x->visitor) || hash_equals((string) $bound['rotated_from'], $x->visitor)) && (float) $bound['expires'] > $x->now
        && ($x->role[0] === 'status' ? $bound['status'] === $x->operation : $bound['channel'] === $x->role[1]);
    if (!$ok) {
        event('refused', ['reason' => 'not-your-session', 'status' => 404]);
        respond(404, json_encode(['status' => 'error', 'message' => 'Session for given token was not found'] + ($x->role[0] === 'status' ? ['error_code' => 40402] : [])));
    }
}

/** Session starts per visitor, per person (a country and a code) and, when told, per address. */
function step_limits(Exchange $x): void
{
    if ($x->role[0] !== 'start') {
        return;
    }
    $keys = ['visitor:' . digest($x->visitor) => 'visitor'];
    if (isset($x->sent->code) && is_string($x->sent->code)) {
        $keys['person:' . digest(person_key($x->role[1], $x->sent))] = 'person';
    }
    if ($x->config['by_address'] && isset($_SERVER['REMOTE_ADDR'])) {
        $keys['address:' . digest(address_key((string) $_SERVER['REMOTE_ADDR']))] = 'address';
    }
    foreach ($keys as $key => $scope) {
        $wait = over_limit($x->db, $key, $x->config['limits'][$scope]);
        if ($wait > 0) {
            $GLOBALS['event']['limit'] = $scope;
            fail(429, 'rate-limited', 'Too many sessions started; try again later', ['retry_after' => $wait], ["Retry-After: $wait"]);
        }
        if ($scope === 'person') {
            $x->counted[] = $key;
        }
    }
}

/** A poll sooner than MIN_POLL_INTERVAL after the session's last one is answered waiting, unforwarded. */
function step_poll_floor(Exchange $x): void
{
    if ($x->role[0] !== 'status') {
        return;
    }
    $token = $x->token;
    $tooSoon = atomically($x->db, function (PDO $db) use ($token) {
        $row = $db->prepare('SELECT at FROM polls WHERE token = ?');
        $row->execute([$token]);
        $last = (float) ($row->fetchColumn() ?: 0);
        $row->closeCursor();
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

/** To the service with the access token; no redirect followed, the answer read to its limit, JSON only. */
function step_forward(Exchange $x): void
{
    $forward = clone $x->sent;
    $forward->access_token = $x->config['token'];
    $content = '';
    $tooLarge = false;
    $curl = curl_init($x->config['base'] . $x->path);
    curl_setopt_array($curl, [
        CURLOPT_CUSTOMREQUEST => $x->method,
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
    $x->status = (int) curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
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
    if ($x->status >= 300 && $x->status < 400) {
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
    $x->value = $value;
}

/** The service refused the access token: nothing can work until the configuration is right (said once a minute). */
function step_token_refused(Exchange $x): void
{
    $x->tokenRefused = ($x->value->error_code ?? null) === 40003;
    if (!$x->tokenRefused) {
        return;
    }
    event('failed', ['failure' => 'access-token', 'status' => $x->status]);
    $say = atomically($x->db, function (PDO $db) {
        $said = $db->query("SELECT at FROM polls WHERE token = ':token-refused'");
        $row = $said->fetchColumn();
        $said->closeCursor();
        if ($row !== false && microtime(true) - (float) $row < 60) {
            return false;
        }
        $db->prepare('INSERT OR REPLACE INTO polls (token, at) VALUES (?, ?)')->execute([':token-refused', microtime(true)]);
        return true;
    });
    if ($say) {
        file_put_contents('php://stderr', '[esign-proxy] the service refused the access token (40003) for ' . $x->operation . ": check ESIGN_ACCESS_TOKEN and ESIGN_BASE_URL [request " . REQUEST_ID . "]\n");
    }
}

/** The access token out of everything (the screening data goes out of the browser's answer at the end). */
function step_filter_answer(Exchange $x): void
{
    $x->value = redact($x->value, $x->config['token']);
}

/** A start binds its session to the visitor (a refused one gives the person's count back); a poll that ends it says so. */
function step_sessions(Exchange $x): void
{
    $answerStatus = $x->value->status ?? null;
    if ($x->role[0] === 'start' && $answerStatus === 'error') {
        // the service refused the start: no session; the person is not charged for it
        foreach ($x->counted as $key) {
            give_back($x->db, $key);
        }
    }
    if ($answerStatus === 'ok' && $x->role[0] === 'start' && isset($x->value->token) && is_string($x->value->token)) {
        $x->db->prepare('INSERT OR REPLACE INTO bindings (token, visitor, channel, status, expires, person, signer, upload) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
            ->execute([$x->value->token, $x->visitor, $x->role[1], $x->role[2], microtime(true) + SESSION_TTL, $x->person === null ? null : json_encode($x->person, JSON_UNESCAPED_UNICODE), $x->signerPerson, $x->upload === null ? null : json_encode($x->upload)]);
        event('started');
    }
    if ($x->role[0] === 'status' && !empty($x->bound['person'])) {
        $GLOBALS['event']['person'] = json_decode($x->bound['person'], true);
    }
    if ($x->role[0] === 'status' && $answerStatus === 'error' && !$x->tokenRefused) {
        finished($x->db, $x->token);
        event('finished', ['outcome' => (string) ($x->value->error_code ?? 'error')]);
    }
}

/** In depth: the one signature the service added in a gated signing must name the signed-in person. */
function step_signed_by(Exchange $x): void
{
    if (($x->value->status ?? null) !== 'ok' || $x->role[0] !== 'status' || $x->part !== 'sign' || empty($x->bound['signer'])) {
        return;
    }
    $content = $x->value->file->content ?? null;
    $upload = empty($x->bound['upload']) ? null : json_decode($x->bound['upload'], true);
    [$persons, $problem] = is_string($content) && is_array($upload) ? added_signature($upload, (string) base64_decode($content)) : [null, 'cannot be read'];
    $named = array_map(fn (array $p) => person_digest($p[0], $p[1]), $persons ?? []);
    if (!in_array($x->bound['signer'], $named, true)) {
        file_put_contents('php://stderr', '[esign-proxy] a finished ' . $x->operation . ($persons ? ' was signed by another person than the signer: not handed over' : " is not handed over: the signed file $problem") . " [request " . REQUEST_ID . "]\n");
        fail(403, 'signer-mismatch', 'Signing is allowed only as the person signed in to this site');
    }
}

/** The browser sees a result only after on_result succeeded for it (at least once). */
function step_hand_over_result(Exchange $x): void
{
    if (($x->value->status ?? null) !== 'ok' || $x->role[0] !== 'status') {
        return;
    }
    [$db, $token, $operation, $value] = [$x->db, $x->token, $x->operation, $x->value];
    try {
        // a login gives the browser a new visitor id (one planted before the login is worth nothing after it)
        $rotated = $x->part === 'login' ? new_visitor() : null;
        $delivered = hand_over($db, $token, fn () => on_result($operation, $token, $rotated ?? $x->visitor, $value), function () use ($x, $db, $token, $rotated): void {
            if ($rotated !== null) {
                $db->prepare('UPDATE bindings SET visitor = ?, rotated_from = ? WHERE token = ?')->execute([$rotated, $x->bound['visitor'], $token]);
                setcookie($x->cookieName, $rotated, ['path' => '/', 'httponly' => true, 'samesite' => 'Strict', 'secure' => $x->https]);
            }
            keep_cookies($db, $token);
        });
    } catch (PDOException $error) {
        throw $error; // the state, not the host: 503 by the exception handler
    } catch (ResultRefused $refusal) {
        if ($refusal->status !== null) {
            file_put_contents('php://stderr', "[esign-proxy] on_result() refused the result for $operation: HTTP {$refusal->status}; the session ends with site-refused [request " . REQUEST_ID . "]\n");
        }
        finished($db, $token);
        event('finished', ['outcome' => 'site-refused']);
        respond(409, json_encode(['status' => 'error', 'message' => 'The site did not accept this result', 'proxy_error' => 'site-refused']));
    } catch (Throwable $error) {
        file_put_contents('php://stderr', "[esign-proxy] on_result() failed for $operation: " . get_class($error) . ': ' . substr($error->getMessage(), 0, 300) . " [request " . REQUEST_ID . "]\n");
        fail(500, 'host-error', 'The host could not process this request');
    }
    if (!$delivered) {
        respond(200, '{"status":"waiting"}');
    }
    if ($delivered !== 'ran') {
        send_kept_cookies($db, $token);
    }
    finished($db, $token);
    // said once, by the one request that tells a browser its session finished
    $told = $db->prepare("UPDATE claims SET lease = 'told' WHERE token = ? AND lease = 'done'");
    $told->execute([$token]);
    if ($told->rowCount() === 1) {
        event('finished', ['outcome' => 'ok']);
    }
}

const STEPS = ['step_route', 'step_origin', 'step_content_type', 'step_read_fields', 'step_visitor', 'step_signer_gate', 'step_binding', 'step_limits',
    'step_poll_floor', 'step_forward', 'step_token_refused', 'step_filter_answer', 'step_sessions', 'step_signed_by', 'step_hand_over_result'];

$x = new Exchange();
$x->method = (string) ($_SERVER['REQUEST_METHOD'] ?? 'GET');
$x->path = substr($raw, strlen(PREFIX));
$x->config = $config;
$x->operations = $operations;
foreach (STEPS as $step) {
    $step($x);
}
respond($x->status, json_encode($x->config['screening'] ? $x->value : without_screening($x->value), JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE));
