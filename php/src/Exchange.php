<?php
declare(strict_types=1);

namespace Esign\Proxy;

/** What the steps learn of one request, in the order they learn it. */
final class Exchange
{
    public string $path = '';
    public ?State $state = null;
    public string $operation = '';
    public mixed $fields = [];
    /** @var list<string> ['start', channel, status id] | ['status'] | ['remove', channel] */
    public array $role = [];
    public ?string $token = null;
    public ?string $channel = null;
    /** The kind of session: login, sign, hash. */
    public ?string $part = null;
    public int $bodyLimit = 0;
    public ?\stdClass $sent = null;
    public string $cookieName = '';
    public string $visitor = '';
    public ?array $person = null;
    public ?string $signerPerson = null;
    public ?array $upload = null;
    /** @var array<string, mixed>|false */
    public array|false $bound = false;
    /** @var list<string> the per-person counter keys a start counted (given back when the service refuses it) */
    public array $counted = [];
    public int $status = 0;
    public ?\stdClass $value = null;
    public bool $tokenRefused = false;
    /** @var list<string> the proxy's own Set-Cookie header lines for this answer */
    public array $cookies = [];
    /** @var list<string> Set-Cookie lines to send with this answer, kept from the answer that finished the session */
    public array $keptCookies = [];

    public function __construct(
        public readonly Request $request,
        public readonly Settings $settings,
        public readonly Hooks $hooks,
        public readonly RequestEvent $event,
        public readonly Operator $log,
    ) {
    }

    public function rules(): Rules
    {
        return $this->settings->rules;
    }

    public function state(): State
    {
        return $this->state ?? throw new \LogicException('the state is opened by the route step');
    }

    /**
     * The proxy's own answer of this kind, its status and words from the rules.
     *
     * @param array<string, mixed> $extra
     * @param list<string> $headers
     */
    public function refuse(string $kind, array $extra = [], array $headers = []): Answer
    {
        return Answer::refusal($this->settings->rules, $kind, $extra, $headers);
    }

    public function setVisitorCookie(string $visitor): void
    {
        $this->cookies[] = 'Set-Cookie: ' . $this->cookieName . '=' . $visitor . '; path=/; HttpOnly; SameSite=Strict' . ($this->request->https ? '; secure' : '');
    }
}
