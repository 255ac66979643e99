<?php
declare(strict_types=1);

namespace Esign\Proxy;

/** The browser's request as the steps read it: from PHP's globals, or made by a test. */
final class Request
{
    /** @var \Closure(int): string */
    private \Closure $read;

    /**
     * @param array<string, string> $headers by lower-case name
     * @param array<string, string> $cookies
     * @param \Closure(int): string $read reads the body, at most the given number of bytes
     */
    public function __construct(
        public readonly string $method,
        public readonly string $uri,
        public readonly array $headers = [],
        public readonly array $cookies = [],
        public readonly ?string $remoteAddress = null,
        public readonly bool $https = false,
        ?\Closure $read = null,
    ) {
        $this->read = $read ?? static fn (int $most): string => '';
    }

    public static function fromGlobals(): self
    {
        $headers = [];
        foreach ($_SERVER as $name => $value) {
            if (str_starts_with((string) $name, 'HTTP_')) {
                $headers[strtolower(str_replace('_', '-', substr((string) $name, 5)))] = (string) $value;
            }
        }
        foreach (['CONTENT_TYPE' => 'content-type', 'CONTENT_LENGTH' => 'content-length'] as $name => $header) {
            if (isset($_SERVER[$name]) && $_SERVER[$name] !== '') {
                $headers[$header] = (string) $_SERVER[$name];
            }
        }
        $https = ($_SERVER['HTTPS'] ?? '') !== '' && ($_SERVER['HTTPS'] ?? '') !== 'off';
        return new self(
            (string) ($_SERVER['REQUEST_METHOD'] ?? 'GET'),
            (string) ($_SERVER['REQUEST_URI'] ?? ''),
            $headers,
            // a cookie sent as `name[]=` arrives as an array: never one of the proxy's
            array_filter($_COOKIE, 'is_string'),
            isset($_SERVER['REMOTE_ADDR']) ? (string) $_SERVER['REMOTE_ADDR'] : null,
            $https,
            static fn (int $most): string => (string) file_get_contents('php://input', false, null, 0, $most),
        );
    }

    public function header(string $name): ?string
    {
        return $this->headers[strtolower($name)] ?? null;
    }

    public function body(int $most): string
    {
        return ($this->read)($most);
    }
}
