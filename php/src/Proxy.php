<?php
declare(strict_types=1);

namespace Esign\Proxy;

use Esign\Proxy\Steps;

/**
 * The esign-elements proxy: a request under the prefix runs as named steps in the Node proxy's
 * order, each of one job, until one answers or the service's answer goes back; the request's one
 * event is written when it ends, whatever ended it.
 */
final class Proxy
{
    /** @var list<class-string<Step>> the steps, in the Node proxy's order (its `authorize` is for the document operations, off here) */
    public const STEPS = [
        Steps\Route::class, Steps\Origin::class, Steps\ContentType::class, Steps\Fields::class, Steps\Visitor::class,
        Steps\Signer::class, Steps\Binding::class, Steps\Limits::class, Steps\PollFloor::class, Steps\Forward::class,
        Steps\TokenRefused::class, Steps\Filter::class, Steps\Sessions::class, Steps\SignedBy::class, Steps\HandOver::class,
    ];

    /** @var \Closure(string): void|null */
    private ?\Closure $write;

    /**
     * @param array<string, string> $env the settings (Settings says which)
     * @param (\Closure(string): void)|null $write where operator lines and events go (stderr)
     */
    public function __construct(private readonly Hooks $hooks, private readonly array $env, ?\Closure $write = null)
    {
        $this->write = $write;
    }

    /**
     * Serves the request of PHP's globals when it is under the prefix (ESIGN_PREFIX, /esign); false
     * for any other under `php -S` (which then serves the site's own files), 404 elsewhere.
     */
    public static function serve(?Hooks $hooks = null, ?array $env = null): bool
    {
        $env ??= getenv();
        $request = Request::fromGlobals();
        $prefix = rtrim(($env['ESIGN_PREFIX'] ?? '') ?: '/esign', '/');
        if (!str_starts_with($request->uri, $prefix . '/')) {
            if (PHP_SAPI === 'cli-server') {
                return false;
            }
            http_response_code(404);
            return true;
        }
        $response = (new self($hooks ?? Hooks::fromEnvironment($env), $env))->handle($request);
        http_response_code($response->status);
        foreach ($response->headers as $header) {
            header($header, false);
        }
        echo $response->body;
        return true;
    }

    public function handle(Request $request): Answer
    {
        $t0 = microtime(true);
        // the request id: the edge's, from ESIGN_TRUST_REQUEST_ID_HEADER, only where the host's edge
        // sets it (a browser can send any header); answered, and in the event and log lines
        $trusted = $this->env['ESIGN_TRUST_REQUEST_ID_HEADER'] ?? '';
        $given = $trusted !== '' ? (string) $request->header($trusted) : '';
        $requestId = preg_match('/^[A-Za-z0-9._:-]{1,128}$/D', $given) ? $given : self::uuid();
        $log = new Operator($requestId, $this->write);
        $event = new RequestEvent($t0, $requestId, $request->header('user-agent'));
        $x = null;
        $answer = $this->answer($request, $log, $event, $x);
        if ($answer->event !== null) {
            $event->decide(...$answer->event);
        }
        $line = $event->line(microtime(true));
        if ($line !== null) {
            $log->line($line);
        }
        $headers = ['content-type: application/json', 'cache-control: no-store', "x-request-id: $requestId", ...$answer->headers, ...($x->cookies ?? []), ...($x->keptCookies ?? [])];
        return new Answer($answer->status, $answer->body, $headers, $answer->event);
    }

    private function answer(Request $request, Operator $log, RequestEvent $event, ?Exchange &$x): Answer
    {
        try {
            $settings = Settings::fromEnvironment($this->env);
        } catch (RulesRefused $refused) {
            $log->say($refused->getMessage());
            return Answer::misconfigured('The proxy\'s rules file is of an unknown version');
        } catch (\JsonException) {
            // a rules file missing or not JSON: said to the operator, never a trace to the browser
            $log->say('proxy-rules.json cannot be read as JSON: ship the one of the same release beside the package, or set ESIGN_RULES_FILE to it');
            return Answer::misconfigured('The proxy\'s rules file cannot be read');
        }
        if (($problem = $settings->problem()) !== null) {
            $log->say($problem);
            return Answer::misconfigured($problem);
        }
        $x = new Exchange($request, $settings, $this->hooks, $event, $log);
        $x->path = substr($request->uri, strlen($settings->prefix));
        try {
            foreach (self::STEPS as $step) {
                (new $step())->run($x);
            }
            return Answer::json($x->status, $settings->screening ? $x->value : Fields::withoutScreening($x->value, $settings->rules->screeningFields));
        } catch (Answer $early) {
            return $early;
        } catch (StateRefused $refused) {
            return Answer::misconfigured($refused->getMessage());
        } catch (\PDOException $error) {
            // the shared state that cannot be read or written: nothing it could not check goes on (fails closed)
            $log->say('the state file cannot be read or written: ' . $error->getMessage());
            $wait = $settings->rules->storeRetryAfter;
            return Answer::refusal($settings->rules, 'store-unavailable', ['retry_after' => $wait], ["Retry-After: $wait"]);
        } catch (\Throwable $error) {
            $log->say(get_class($error) . ': ' . $error->getMessage());
            return new Answer(500, '{"status":"error","message":"The proxy failed"}');
        }
    }

    /** The steps' names, as the Node proxy names its own. @return list<string> */
    public static function stepNames(): array
    {
        return array_map(static fn (string $step): string => $step::NAME, self::STEPS);
    }

    /** A version 4 UUID, for a request's id. */
    private static function uuid(): string
    {
        $bytes = random_bytes(16);
        $bytes[6] = chr((ord($bytes[6]) & 0x0f) | 0x40);
        $bytes[8] = chr((ord($bytes[8]) & 0x3f) | 0x80);
        return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($bytes), 4));
    }
}
