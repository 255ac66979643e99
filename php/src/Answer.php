<?php
declare(strict_types=1);

namespace Esign\Proxy;

/**
 * An answer a step gives before the request's end (a refusal, "waiting", a session not found):
 * thrown, so that the steps after it never run, and written by Proxy with the request's one event.
 */
final class Answer extends \RuntimeException
{
    /**
     * @param list<string> $headers
     * @param array{0: string, 1: array<string, mixed>}|null $event what the request's event says, when the answer decides it
     */
    public function __construct(
        public readonly int $status,
        public readonly string $body,
        public readonly array $headers = [],
        public readonly ?array $event = null,
    ) {
        parent::__construct("answered $status");
    }

    /** @param list<string> $headers */
    public static function json(int $status, mixed $value, array $headers = [], ?array $event = null): self
    {
        return new self($status, (string) json_encode($value, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE), $headers, $event);
    }

    public static function waiting(): self
    {
        return new self(200, '{"status":"waiting"}');
    }

    /**
     * A refusal of the proxy's own, `{"status":"error","proxy_error":kind}`, its status and words from
     * the rules (the same as every proxy's), and its event: a refusal (the rules' reasons), a failure
     * (their failures) or the host's hook failing.
     *
     * @param array<string, mixed> $extra
     * @param list<string> $headers
     */
    public static function refusal(Rules $rules, string $kind, array $extra = [], array $headers = []): self
    {
        ['status' => $status, 'message' => $message] = $rules->answers[$kind] ?? throw new \LogicException("no answer of the kind $kind in the rules");
        $event = null;
        if (isset($rules->reasons[$kind])) {
            $event = ['refused', ['reason' => $rules->reasons[$kind], 'status' => $status]];
        } elseif (isset($rules->failures[$kind])) {
            $event = ['failed', ['failure' => $rules->failures[$kind], 'status' => $status]];
        } elseif ($kind === 'host-error') {
            $event = ['host-error', ['hook' => $extra['hook'] ?? 'onResult', 'status' => $status]];
            unset($extra['hook']);
        }
        return self::json($status, ['status' => 'error', 'message' => $message, 'proxy_error' => $kind] + $extra, $headers, $event);
    }

    /** The PHP proxy's setup is wrong (its rules file, a setting): 500 with what is wrong, for the operator. */
    public static function misconfigured(string $problem): self
    {
        return self::json(500, ['status' => 'error', 'message' => $problem, 'proxy_error' => 'misconfigured']);
    }
}
