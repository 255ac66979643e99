<?php
declare(strict_types=1);

namespace Esign\Proxy;

/**
 * The request's one event, the Node proxy's (`started`, `finished`, `refused`, `failed`,
 * `host-error`): what is known of the request is added as the steps learn it, the type is decided
 * at most once, and Proxy writes it once when the request ends. Never a token, a body or a person in clear.
 */
final class RequestEvent
{
    /** @var array<string, mixed> */
    private array $known;
    /** @var array{0: string, 1: array<string, mixed>}|null */
    private ?array $decided = null;

    public function __construct(private readonly float $t0, string $requestId, ?string $userAgent)
    {
        $this->known = ['requestId' => $requestId] + ($userAgent !== null ? ['userAgent' => substr($userAgent, 0, 256)] : []);
    }

    /** @param array<string, mixed> $fields */
    public function add(array $fields): void
    {
        $this->known = $fields + $this->known;
    }

    public function set(string $name, mixed $value): void
    {
        $this->known[$name] = $value;
    }

    /**
     * What this request was; the first decision stands (a request is one thing).
     *
     * @param array<string, mixed> $fields
     */
    public function decide(string $type, array $fields = []): void
    {
        $this->decided ??= [$type, $fields];
    }

    public function decided(): ?string
    {
        return $this->decided[0] ?? null;
    }

    /** The JSON line, or null when nothing happened worth an event (a poll still waiting, say). */
    public function line(float $now): ?string
    {
        if ($this->decided === null) {
            return null;
        }
        [$type, $fields] = $this->decided;
        $at = \DateTimeImmutable::createFromFormat('U.u', sprintf('%.6F', $this->t0));
        $line = ['at' => $at === false ? '' : $at->format('Y-m-d\TH:i:s.v\Z'), 'durationMs' => (int) round(($now - $this->t0) * 1000)] + $this->known + ['type' => $type] + $fields;
        return (string) json_encode($line, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
    }
}
