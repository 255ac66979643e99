<?php
declare(strict_types=1);

namespace Esign\Proxy;

/**
 * What the host's site decides, as callables:
 *  - onResult(string $operation, string $token, string $visitor, \stdClass $answer): void, the
 *    verified result before the browser sees it (log the person in, store the file; idempotent by
 *    $token). $operation is the Node proxy's id (mobileLoginStatus, smartIdSignStatus, ...). Throw
 *    ResultRefused when the site will not take it; any other throw is tried again by the next poll.
 *  - signer(): ?array, with $gateSigning: the person signed in to the site (['country' => 'EE',
 *    'code' => ..., 'phone' => ?]) or null for nobody; every signing start is for that person alone.
 */
final class Hooks
{
    /** @var \Closure(string, string, string, \stdClass): void */
    public readonly \Closure $onResult;
    /** @var \Closure(): ?array */
    public readonly \Closure $signer;

    public function __construct(?callable $onResult = null, ?callable $signer = null, public readonly bool $gateSigning = false)
    {
        $this->onResult = $onResult === null ? static function (): void {
        } : \Closure::fromCallable($onResult);
        $this->signer = $signer === null ? static fn (): ?array => null : \Closure::fromCallable($signer);
    }

    /**
     * The hooks of the environment, for trying the proxy out and for its checks: ESIGN_SIGNER names
     * one fixed person ("code,country[,phone]", "-" for nobody) and turns the gate on;
     * ESIGN_RESULT_LOG writes a line per result (no personal data); ESIGN_CHECK_HOOK_URL reports
     * to check-proxy's result-first row.
     *
     * @param array<string, string> $env
     */
    public static function fromEnvironment(array $env): self
    {
        $given = $env['ESIGN_SIGNER'] ?? '';
        return new self(
            static function (string $operation, string $token, string $visitor, \stdClass $answer) use ($env): void {
                if (($env['ESIGN_RESULT_LOG'] ?? '') !== '') {
                    file_put_contents($env['ESIGN_RESULT_LOG'], json_encode(['operation' => $operation, 'status' => $answer->status ?? null]) . "\n", FILE_APPEND | LOCK_EX);
                }
                self::reportToCheck($env, $token);
            },
            static function () use ($given): ?array {
                if ($given === '' || $given === '-') {
                    return null;
                }
                [$code, $country, $phone] = array_pad(explode(',', $given), 3, '');
                return ['code' => $code, 'country' => $country ?: null, 'phone' => $phone ?: null];
            },
            $given !== '',
        );
    }

    /**
     * With ESIGN_CHECK_HOOK_URL (check-proxy's result-first row): says when this run begins and
     * ends, and takes ESIGN_CHECK_HOOK_MS between, as a slow host's work would.
     *
     * @param array<string, string> $env
     */
    public static function reportToCheck(array $env, string $token): void
    {
        $hook = $env['ESIGN_CHECK_HOOK_URL'] ?? '';
        if ($hook === '') {
            return;
        }
        $post = static function (string $at) use ($hook, $token): string {
            @file_get_contents($hook, false, stream_context_create(['http' => ['method' => 'POST', 'header' => 'content-type: application/json', 'content' => json_encode(['token' => $token, 'at' => $at]), 'timeout' => 5, 'ignore_errors' => true]]));
            return $http_response_header[0] ?? '';
        };
        // the check's site turns this person away with 409
        $refused = str_contains($post('start'), ' 409');
        usleep((int) ($env['ESIGN_CHECK_HOOK_MS'] ?? 0) * 1000);
        $post('end');
        if ($refused) {
            throw new ResultRefused(409);
        }
    }
}
