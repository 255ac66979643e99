<?php
declare(strict_types=1);

namespace Esign\Proxy;

/**
 * What every worker must agree on (which visitor started which session, the rate-limit counters,
 * who is handing a result over, when a session was last polled), in one SQLite file written in
 * IMMEDIATE transactions so that workers take turns. Nothing in it is usable by whoever reads it:
 * visitors and persons by their store keys, counters by digests, kept cookies sealed; the file and
 * its folder are this account's alone.
 */
final class State
{
    private function __construct(public readonly \PDO $db, public readonly string $file, private readonly Settings $settings)
    {
    }

    /** The state of these settings, opened (made 0600 where it is made); an Answer when its place is refused. */
    public static function open(Settings $settings, Operator $log): self
    {
        $file = self::place($settings, $log);
        self::keepPrivate($file, $log);
        $mask = umask(0077);
        try {
            $db = new \PDO('sqlite:' . $file, null, null, [\PDO::ATTR_ERRMODE => \PDO::ERRMODE_EXCEPTION]);
            // a state that cannot be read or written within a second fails the request closed (503, Retry-After)
            $db->exec('PRAGMA busy_timeout = 1000');
            $db->exec('PRAGMA journal_mode = WAL');
            $db->exec('CREATE TABLE IF NOT EXISTS bindings (token TEXT PRIMARY KEY, visitor TEXT, channel TEXT, status TEXT, expires REAL, person TEXT, signer TEXT, upload TEXT, rotated_from TEXT)');
            $columns = array_column($db->query('PRAGMA table_info(bindings)')->fetchAll(\PDO::FETCH_ASSOC), 'name');
            foreach (['signer', 'upload', 'rotated_from'] as $column) {
                if (!in_array($column, $columns, true)) {
                    $db->exec("ALTER TABLE bindings ADD COLUMN $column TEXT"); // a state file of an earlier version
                }
            }
            $db->exec('CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, count INTEGER, resets REAL)');
            $db->exec('CREATE TABLE IF NOT EXISTS claims (token TEXT PRIMARY KEY, lease TEXT, expires REAL)');
            $db->exec('CREATE TABLE IF NOT EXISTS polls (token TEXT PRIMARY KEY, at REAL)');
            $db->exec('CREATE TABLE IF NOT EXISTS kept (token TEXT PRIMARY KEY, cookies TEXT, expires REAL)');
        } finally {
            umask($mask);
        }
        return new self($db, $file, $settings);
    }

    /**
     * Where the state is kept: ESIGN_STATE_FILE, outside the system's temporary folder (which every
     * account of the machine shares, and which is emptied at a restart); in development, without it,
     * a folder of this account's own there (0700). A folder of that name that is another account's,
     * or open to others, is refused.
     */
    private static function place(Settings $settings, Operator $log): string
    {
        $temp = realpath(sys_get_temp_dir()) ?: sys_get_temp_dir();
        if ($settings->stateFile !== '') {
            $dir = realpath(dirname($settings->stateFile));
            if (!$settings->development && $dir !== false && str_starts_with($dir . '/', rtrim($temp, '/') . '/')) {
                $log->say('ESIGN_STATE_FILE is in the system\'s temporary folder, which every account of the machine shares and a restart empties: refused; set it to a folder of the site\'s own (or ESIGN_DEVELOPMENT=1 while developing)');
                throw new StateRefused('The proxy\'s state file is in the temporary folder; set ESIGN_STATE_FILE');
            }
            return $settings->stateFile;
        }
        if (!$settings->development) {
            $log->say('ESIGN_STATE_FILE is not set: set it to a file in a folder of the site\'s own, which every worker can write (or ESIGN_DEVELOPMENT=1 while developing, for a private folder in the temporary one)');
            throw new StateRefused('ESIGN_STATE_FILE must be set');
        }
        $uid = function_exists('posix_geteuid') ? posix_geteuid() : getmyuid();
        $dir = $temp . '/esign-proxy-' . $uid;
        if (!is_dir($dir) && !@mkdir($dir, 0700) && !is_dir($dir)) {
            throw new StateRefused('The proxy cannot make its state folder; set ESIGN_STATE_FILE');
        }
        clearstatcache(true, $dir);
        if (is_link($dir) || fileowner($dir) !== $uid || (fileperms($dir) & 0077) !== 0) {
            $log->say("the state folder $dir is another account's or open to others: refused; set ESIGN_STATE_FILE");
            throw new StateRefused('The proxy\'s state folder is not its own; set ESIGN_STATE_FILE');
        }
        return $dir . '/state.sqlite';
    }

    /**
     * A state file made before (by hand, by a deployment, by an earlier version) is this account's
     * alone: one open to others is made 0600 (SQLite gives its WAL the file's permissions), a link
     * or another account's file is refused.
     */
    private static function keepPrivate(string $file, Operator $log): void
    {
        $uid = function_exists('posix_geteuid') ? posix_geteuid() : getmyuid();
        foreach ([$file, "$file-wal", "$file-shm"] as $path) {
            clearstatcache(true, $path);
            if (is_link($path) || (file_exists($path) && fileowner($path) !== $uid)) {
                $log->say('the state file ' . basename($path) . ' is a link or another account\'s: refused; let the proxy make it, in a folder of the site\'s own');
                throw new StateRefused('The proxy\'s state file is not its own; set ESIGN_STATE_FILE');
            }
            if (file_exists($path) && (fileperms($path) & 0077) !== 0) {
                chmod($path, 0600);
                $log->say('the state file ' . basename($path) . ' was open to other accounts: made 0600');
            }
        }
    }

    /** Runs $work in one IMMEDIATE transaction: no other worker writes between its read and its write. */
    public function atomically(callable $work): mixed
    {
        $this->db->exec('BEGIN IMMEDIATE');
        try {
            $result = $work($this->db);
            $this->db->exec('COMMIT');
            return $result;
        } catch (\Throwable $error) {
            $this->db->exec('ROLLBACK');
            throw $error;
        }
    }

    /**
     * A session token as the file keeps it: a keyed digest (the Node proxy's store keeps it so too),
     * so that whoever reads the file (or the lease renewer's arguments in the process list) finds no
     * token to poll or remove a session with.
     */
    public static function tokenName(Settings $settings, string $token): string
    {
        return 'token:' . hash_hmac('sha256', "token:$token", $settings->visitorKey());
    }

    private function named(string $token): string
    {
        return self::tokenName($this->settings, $token);
    }

    /** One value read, its statement closed (an open one keeps a read transaction: a later write would fail at once). */
    private function one(string $sql, array $values, int $mode = \PDO::FETCH_COLUMN): mixed
    {
        $row = $this->db->prepare($sql);
        $row->execute($values);
        $value = $row->fetch($mode);
        $row->closeCursor();
        return $value;
    }

    /** Forgets expired sessions (their claims, poll times and kept cookies too) and counters: at most once a minute, by any worker. */
    public function sweepIfDue(float $now): bool
    {
        if ($now - (float) ($this->one("SELECT at FROM polls WHERE token = ':swept'", []) ?: 0) < 60) {
            return false;
        }
        return $this->atomically(function (\PDO $db) use ($now): bool {
            if ($now - (float) ($this->one("SELECT at FROM polls WHERE token = ':swept'", []) ?: 0) < 60) {
                return false;
            }
            $expired = $db->prepare('SELECT token FROM bindings WHERE expires <= ?');
            $expired->execute([$now]);
            foreach ($expired->fetchAll(\PDO::FETCH_COLUMN) as $token) {
                foreach (['bindings', 'claims', 'polls', 'kept'] as $table) {
                    $db->prepare("DELETE FROM $table WHERE token = ?")->execute([$token]);
                }
            }
            $db->prepare('DELETE FROM counters WHERE resets <= ?')->execute([$now]);
            $db->prepare('DELETE FROM kept WHERE expires <= ?')->execute([$now]);
            // cookies an earlier version kept in clear
            $db->exec("DELETE FROM kept WHERE cookies LIKE '[%'");
            $db->prepare("INSERT OR REPLACE INTO polls (token, at) VALUES (':swept', ?)")->execute([$now]);
            return true;
        });
    }

    /** Counts one start under $key; the seconds until the window resets when over the limit, else 0. */
    public function overLimit(string $key, array $limit): int
    {
        [$max, $window] = $limit;
        return $this->atomically(function (\PDO $db) use ($key, $max, $window): int {
            $now = microtime(true);
            [$count, $resets] = $this->one('SELECT count, resets FROM counters WHERE key = ?', [$key], \PDO::FETCH_NUM) ?: [0, $now + $window];
            if ($resets <= $now) {
                [$count, $resets] = [0, $now + $window];
            }
            $db->prepare('INSERT OR REPLACE INTO counters (key, count, resets) VALUES (?, ?, ?)')->execute([$key, $count + 1, $resets]);
            return $count + 1 > $max ? max(1, (int) ceil($resets - $now)) : 0;
        });
    }

    public function giveBack(string $key): void
    {
        $this->db->prepare('UPDATE counters SET count = count - 1 WHERE key = ?')->execute([$key]);
    }

    /** @return array<string, mixed>|false */
    public function binding(string $token): array|false
    {
        $token = $this->named($token);
        return $this->one('SELECT visitor, channel, status, expires, person, signer, upload, rotated_from FROM bindings WHERE token = ?', [$token], \PDO::FETCH_ASSOC);
    }

    public function bind(string $token, string $visitorKey, string $channel, string $status, ?array $person, ?string $signer, ?array $upload): void
    {
        $token = $this->named($token);
        $this->db->prepare('INSERT OR REPLACE INTO bindings (token, visitor, channel, status, expires, person, signer, upload) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
            ->execute([$token, $visitorKey, $channel, $status, microtime(true) + $this->settings->rules->sessionTtl, $person === null ? null : json_encode($person, JSON_UNESCAPED_UNICODE), $signer, $upload === null ? null : json_encode($upload)]);
    }

    /** The binding follows the browser's new visitor id after a login (its old one still polls it, late). */
    public function rotate(string $token, string $visitorKey, string $fromKey): void
    {
        $token = $this->named($token);
        $this->db->prepare('UPDATE bindings SET visitor = ?, rotated_from = ? WHERE token = ?')->execute([$visitorKey, $fromKey, $token]);
    }

    /** Whether this poll came sooner than the floor after the session's last one (else it is the last one now). */
    public function pollTooSoon(string $token): bool
    {
        $token = $this->named($token);
        return $this->atomically(function (\PDO $db) use ($token): bool {
            $last = (float) ($this->one('SELECT at FROM polls WHERE token = ?', [$token]) ?: 0);
            if (microtime(true) - $last < $this->settings->rules->minPollInterval) {
                return true;
            }
            $db->prepare('INSERT OR REPLACE INTO polls (token, at) VALUES (?, ?)')->execute([$token, microtime(true)]);
            return false;
        });
    }

    /** Whether a line about $what is due: once ever ($every null), or once in $every seconds, by any worker. */
    public function due(string $what, ?float $every = null): bool
    {
        return $this->atomically(function (\PDO $db) use ($what, $every): bool {
            $at = $this->one('SELECT at FROM polls WHERE token = ?', [":said:$what"]);
            if ($at !== false && ($every === null || microtime(true) - (float) $at < $every)) {
                return false;
            }
            $db->prepare('INSERT OR REPLACE INTO polls (token, at) VALUES (?, ?)')->execute([":said:$what", microtime(true)]);
            return true;
        });
    }

    /** 'refused', 'done', 'mine' (taken under $lease for $seconds) or 'busy'. */
    public function claim(string $token, string $lease, float $seconds): string
    {
        $token = $this->named($token);
        return $this->atomically(function (\PDO $db) use ($token, $lease, $seconds): string {
            $claim = $this->one('SELECT lease, expires FROM claims WHERE token = ?', [$token], \PDO::FETCH_ASSOC);
            if ($claim && in_array($claim['lease'], ['done', 'told', 'refused'], true)) {
                return $claim['lease'] === 'refused' ? 'refused' : 'done';
            }
            if (!$claim || (float) $claim['expires'] <= microtime(true)) { // free, or its holder died
                $db->prepare('INSERT OR REPLACE INTO claims (token, lease, expires) VALUES (?, ?, ?)')->execute([$token, $lease, microtime(true) + $seconds]);
                return 'mine';
            }
            return 'busy';
        });
    }

    public function endClaim(string $token, string $lease, string $as): void
    {
        $token = $this->named($token);
        if ($as === 'free') {
            $this->db->prepare('DELETE FROM claims WHERE token = ? AND lease = ?')->execute([$token, $lease]);
            return;
        }
        $this->db->prepare('UPDATE claims SET lease = ?, expires = ? WHERE token = ?')->execute([$as, microtime(true) + $this->settings->rules->finishedTtl, $token]);
    }

    /** Whether this request is the one that tells a browser its session finished (once). */
    public function tell(string $token): bool
    {
        $token = $this->named($token);
        $told = $this->db->prepare("UPDATE claims SET lease = 'told' WHERE token = ? AND lease = 'done'");
        $told->execute([$token]);
        return $told->rowCount() === 1;
    }

    /** The cookies of a finished session's answer, sealed, for every later poll of it: a poll answer lost on the way loses no login. */
    public function keepCookies(string $token, array $lines): void
    {
        $token = $this->named($token);
        if ($lines) {
            $this->db->prepare('INSERT OR REPLACE INTO kept (token, cookies, expires) VALUES (?, ?, ?)')
                ->execute([$token, Sealed::seal($this->settings->visitorKey(), (string) json_encode($lines)), microtime(true) + $this->settings->rules->finishedTtl]);
        }
    }

    /** @return list<string> */
    public function keptCookies(string $token): array
    {
        $token = $this->named($token);
        $sealed = $this->one('SELECT cookies FROM kept WHERE token = ? AND expires > ?', [$token, microtime(true)]);
        $text = is_string($sealed) ? Sealed::open($this->settings->visitorKey(), $sealed) : null;
        return $text === null ? [] : array_values(array_filter((array) json_decode($text, true), 'is_string'));
    }

    /** A finished session's binding stays only as long as a late poll needs it. */
    public function finished(string $token): void
    {
        $token = $this->named($token);
        $this->db->prepare('UPDATE bindings SET expires = MIN(expires, ?) WHERE token = ?')->execute([microtime(true) + $this->settings->rules->finishedTtl, $token]);
    }
}
