<?php
declare(strict_types=1);

namespace Esign\Proxy;

/**
 * The proxy's settings, from the environment (the same variables as esign-proxy's where they mean
 * the same): ESIGN_BASE_URL, ESIGN_ACCESS_TOKEN, ESIGN_STATE_FILE, ESIGN_PREFIX, ESIGN_RULES_FILE,
 * ESIGN_ALLOWED_ORIGINS, ESIGN_EXPOSE_SCREENING, ESIGN_PUBLIC_SCHEME, ESIGN_RATE_LIMIT,
 * ESIGN_LIMIT_BY_ADDRESS, ESIGN_VISITOR_SECRET, ESIGN_EVENT_SECRET, ESIGN_SIGNER, ESIGN_PHP_CLI,
 * ESIGN_TRUST_REQUEST_ID_HEADER and ESIGN_DEVELOPMENT.
 */
final class Settings
{
    /**
     * @param list<string> $origins
     * @param array{visitor: array{0: int, 1: float}, person: array{0: int, 1: float}, address: array{0: int, 1: float}} $limits
     */
    public function __construct(
        public readonly Rules $rules,
        public readonly string $base,
        public readonly string $token,
        public readonly string $prefix = '/esign',
        public readonly array $origins = [],
        public readonly bool $screening = false,
        public readonly string $scheme = '',
        public readonly bool $byAddress = false,
        /** The state file; '' for the development default. */
        public readonly string $stateFile = '',
        public readonly ?array $limits = null,
        public readonly string $visitorSecret = '',
        public readonly string $eventSecret = '',
        /** A state file in the system's temporary folder is allowed (never on a site people use). */
        public readonly bool $development = false,
        public readonly string $phpCli = '',
        /** What a malformed setting says (ESIGN_RATE_LIMIT), for every request, or null. */
        public readonly ?string $settingProblem = null,
    ) {
    }

    /** The limits in force: the rules', or ESIGN_RATE_LIMIT's. */
    public function limits(): array
    {
        return $this->limits ?? $this->rules->rateLimits;
    }

    /** What mints and opens the visitor's cookie and seals what is kept: ESIGN_VISITOR_SECRET, else the access token. */
    public function visitorKey(): string
    {
        return $this->visitorSecret !== '' ? $this->visitorSecret : $this->token;
    }

    /** What digests the visitor in events: ESIGN_EVENT_SECRET, else the access token. */
    public function eventKey(): string
    {
        return $this->eventSecret !== '' ? $this->eventSecret : $this->token;
    }

    /** @param array<string, string> $env */
    public static function fromEnvironment(array $env): self
    {
        $rules = Rules::fromFile((string) (($env['ESIGN_RULES_FILE'] ?? '') ?: dirname(__DIR__) . '/proxy-rules.json'));
        $limits = null;
        $problem = null;
        $rateText = $env['ESIGN_RATE_LIMIT'] ?? '';
        if ($rateText !== '') {
            // starts per window (seconds): "visitor,person,window[,address]", whole numbers of 1 or more, as esign-proxy takes it
            $parts = array_map('trim', explode(',', $rateText));
            $whole = array_filter($parts, static fn (string $part) => preg_match('/^[1-9][0-9]{0,8}$/', $part) === 1);
            if (count($parts) < 3 || count($parts) > 4 || count($whole) !== count($parts)) {
                $defaults = $rules->rateLimits;
                $problem = sprintf(
                    'ESIGN_RATE_LIMIT takes "visitor,person,window[,address]" (whole numbers, the window in seconds), e.g. %d,%d,%d; not %s',
                    $defaults['visitor'][0],
                    $defaults['person'][0],
                    (int) $defaults['person'][1],
                    json_encode($rateText, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE),
                );
            } else {
                $n = array_map('intval', $parts);
                $limits = ['visitor' => [$n[0], (float) $n[2]], 'person' => [$n[1], (float) $n[2]], 'address' => [$n[3] ?? $rules->rateLimits['address'][0], (float) $n[2]]];
            }
        }
        return new self(
            rules: $rules,
            base: rtrim($env['ESIGN_BASE_URL'] ?? '', '/'),
            token: $env['ESIGN_ACCESS_TOKEN'] ?? '',
            prefix: rtrim(($env['ESIGN_PREFIX'] ?? '') ?: '/esign', '/'),
            origins: array_values(array_filter(explode(',', $env['ESIGN_ALLOWED_ORIGINS'] ?? ''))),
            screening: ($env['ESIGN_EXPOSE_SCREENING'] ?? '') === '1',
            scheme: $env['ESIGN_PUBLIC_SCHEME'] ?? '',
            byAddress: ($env['ESIGN_LIMIT_BY_ADDRESS'] ?? '') === '1',
            stateFile: $env['ESIGN_STATE_FILE'] ?? '',
            limits: $limits,
            visitorSecret: $env['ESIGN_VISITOR_SECRET'] ?? '',
            eventSecret: $env['ESIGN_EVENT_SECRET'] ?? '',
            development: ($env['ESIGN_DEVELOPMENT'] ?? '') === '1',
            phpCli: $env['ESIGN_PHP_CLI'] ?? '',
            settingProblem: $problem,
        );
    }

    /** What is wrong with these settings for any request, or null. */
    public function problem(): ?string
    {
        if (strlen($this->token) < 8 || $this->base === '') {
            return 'ESIGN_BASE_URL and ESIGN_ACCESS_TOKEN (8 characters or more) must be set';
        }
        return $this->settingProblem;
    }
}
