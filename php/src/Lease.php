<?php
declare(strict_types=1);

namespace Esign\Proxy;

/**
 * The claim on a result is renewed while onResult runs, by a small PHP process of its own: it stops
 * when this request closes its pipe, when this worker dies, or at onResult's time limit, and then
 * the claim lapses within the lease. PHP runs onResult in this very thread, with nothing beside it.
 */
final class Lease
{
    /** @param resource $process @param resource $pipe */
    private function __construct(private mixed $process, private mixed $pipe)
    {
    }

    /** The PHP command-line binary a renewer runs with, or null where there is none. */
    public static function phpCli(Settings $settings): ?string
    {
        if ($settings->phpCli !== '') {
            return is_file($settings->phpCli) && is_executable($settings->phpCli) ? $settings->phpCli : null;
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

    /** Why no process can renew a lease here, or null when one can. */
    public static function missing(Settings $settings): ?string
    {
        if (!function_exists('proc_open')) {
            return 'proc_open is disabled';
        }
        return self::phpCli($settings) === null ? 'no PHP command-line binary: install php-cli or set ESIGN_PHP_CLI' : null;
    }

    public static function renew(Settings $settings, string $stateFile, string $token, string $lease): ?self
    {
        $code = '$db = new PDO("sqlite:" . $argv[1], null, null, [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);'
            . '$db->exec("PRAGMA busy_timeout = 1000");'
            . 'stream_set_blocking(STDIN, false); $end = microtime(true) + (float) $argv[6];'
            . 'while (microtime(true) < $end) { $r = [STDIN]; $w = $e = null;'
            . ' if (stream_select($r, $w, $e, (int) $argv[4], (int) (fmod((float) $argv[4], 1) * 1e6)) > 0 && fgets(STDIN) === false && feof(STDIN)) { exit; }'
            . ' try { $db->prepare("UPDATE claims SET expires = ? WHERE token = ? AND lease = ?")->execute([min(microtime(true) + $argv[5], $end), $argv[2], $argv[3]]); } catch (Throwable) {} }';
        $rules = $settings->rules;
        $process = @proc_open([(string) self::phpCli($settings), '-r', $code, $stateFile, State::tokenName($settings, $token), $lease, (string) $rules->renewEvery, (string) $rules->lease, (string) $rules->resultTimeout], [0 => ['pipe', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        return $process === false ? null : new self($process, $pipes[0]);
    }

    public function stop(): void
    {
        fclose($this->pipe);
        proc_close($this->process);
    }
}
