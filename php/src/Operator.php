<?php
declare(strict_types=1);

namespace Esign\Proxy;

/** Lines for the operator on stderr, each with the request's id; never a token, a cookie or a person. */
final class Operator
{
    /** @var \Closure(string): void */
    private \Closure $write;

    public function __construct(public readonly string $requestId, ?\Closure $write = null)
    {
        $this->write = $write ?? static function (string $line): void {
            file_put_contents('php://stderr', $line);
        };
    }

    public function say(string $line): void
    {
        ($this->write)("[esign-proxy] $line [request {$this->requestId}]\n");
    }

    /** An event's JSON line, as it is. */
    public function line(string $json): void
    {
        ($this->write)($json . "\n");
    }
}
