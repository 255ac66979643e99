<?php
declare(strict_types=1);

namespace Esign\Proxy\Tests;

use Esign\Proxy\Hooks;
use Esign\Proxy\Proxy;
use Esign\Proxy\Request;
use PHPUnit\Framework\TestCase;

/** A request, whatever ends it, is one answer and at most one event. */
final class ProxyTest extends TestCase
{
    private string $dir;
    /** @var list<string> */
    private array $written = [];

    protected function setUp(): void
    {
        $this->dir = sys_get_temp_dir() . '/esign-proxy-test-' . bin2hex(random_bytes(6));
        mkdir($this->dir, 0700);
    }

    protected function tearDown(): void
    {
        array_map('unlink', glob($this->dir . '/*') ?: []);
        rmdir($this->dir);
    }

    private function proxy(array $env = []): Proxy
    {
        return new Proxy(new Hooks(), $env + [
            'ESIGN_BASE_URL' => 'http://127.0.0.1:9',
            'ESIGN_ACCESS_TOKEN' => 'the-proxy-test-token',
            'ESIGN_STATE_FILE' => $this->dir . '/state.sqlite',
            'ESIGN_DEVELOPMENT' => '1',
        ], function (string $line): void {
            $this->written[] = $line;
        });
    }

    /** @return list<array<string, mixed>> */
    private function events(): array
    {
        return array_values(array_map(static fn (string $line) => json_decode($line, true), array_filter($this->written, static fn (string $line) => str_starts_with($line, '{'))));
    }

    private static function post(string $path, string $body, array $headers = []): Request
    {
        return new Request('POST', "/esign$path", $headers + ['host' => '127.0.0.1:8080', 'content-type' => 'application/json', 'origin' => 'http://127.0.0.1:8080'], [], '127.0.0.1', false, static fn (int $most): string => substr($body, 0, $most));
    }

    public function testEachEarlyAnswerIsOneRefusedEvent(): void
    {
        $cases = [
            [self::post('/smartid/nothing.json', '{}'), 404, 'not-allowed'],
            [self::post('/smartid/login.json', '{}', ['origin' => 'https://evil.example']), 403, 'cross-site'],
            [self::post('/smartid/login.json', '{}', ['content-type' => 'text/plain']), 415, 'content-type'],
            [self::post('/smartid/login.json', '[1]'), 400, 'invalid-field'],
            [self::post('/smartid/login.json', '{"code":7}'), 400, 'invalid-field'],
            [self::post('/smartid/status/0b7e6d1c-4a1f-4c0e-9a51-3f6a2d9c8e01.json', '{}'), 404, 'not-your-session'],
        ];
        foreach ($cases as [$request, $status, $reason]) {
            $this->written = [];
            $answer = $this->proxy()->handle($request);
            $this->assertSame($status, $answer->status, $answer->body);
            $events = $this->events();
            $this->assertCount(1, $events, implode('', $this->written));
            $this->assertSame(['refused', $reason, $status], [$events[0]['type'], $events[0]['reason'], $events[0]['status']]);
            $this->assertStringNotContainsString('the-proxy-test-token', implode('', $this->written) . $answer->body);
        }
    }

    public function testAServiceOutOfReachIsOneFailedEventAndNoSession(): void
    {
        $answer = $this->proxy()->handle(self::post('/smartid/login.json', '{"code":"40504040001","country":"EE"}'));
        $this->assertSame(502, $answer->status);
        $this->assertSame([['failed', 'service-unreachable']], array_map(static fn (array $e) => [$e['type'], $e['failure']], $this->events()));
        $visitor = preg_grep('/^Set-Cookie: esign-visitor=/', $answer->headers);
        $this->assertCount(1, $visitor, 'a new visitor gets its cookie, whatever the answer');
    }

    public function testSettingsThatCannotWorkAreSaidForEveryRequest(): void
    {
        $answer = $this->proxy(['ESIGN_ACCESS_TOKEN' => 'short'])->handle(self::post('/smartid/login.json', '{}'));
        $this->assertSame(500, $answer->status);
        $this->assertSame('misconfigured', json_decode($answer->body, true)['proxy_error']);
        $answer = $this->proxy(['ESIGN_DEVELOPMENT' => ''])->handle(self::post('/smartid/login.json', '{"code":"40504040001","country":"EE"}'));
        $this->assertSame([500, 'misconfigured'], [$answer->status, json_decode($answer->body, true)['proxy_error']]);
        $this->assertFileDoesNotExist($this->dir . '/state.sqlite', 'nothing kept where it was refused');
    }

    public function testAMalformedRateLimitIsRefusedLikeEsignProxyNotReadAsZero(): void
    {
        foreach (['a,b', '6,10', '6,10,0', '6,10,600,3,1', '6,-1,600', '6,10,6.5'] as $text) {
            $this->written = [];
            $answer = $this->proxy(['ESIGN_RATE_LIMIT' => $text])->handle(self::post('/smartid/login.json', '{"code":"40504040001","country":"EE"}'));
            $this->assertSame([500, 'misconfigured'], [$answer->status, json_decode($answer->body, true)['proxy_error']], $text);
            $this->assertStringContainsString('ESIGN_RATE_LIMIT takes "visitor,person,window[,address]"', implode('', $this->written), $text);
            $this->assertStringContainsString(json_encode($text), implode('', $this->written), 'the log names what was given');
            $this->assertFileDoesNotExist($this->dir . '/state.sqlite', 'nothing kept where it was refused');
        }
        // a well-formed one is taken: the start goes on to the service (out of reach here), not refused
        $this->written = [];
        $answer = $this->proxy(['ESIGN_RATE_LIMIT' => '6,10,600,40'])->handle(self::post('/smartid/login.json', '{"code":"40504040001","country":"EE"}'));
        $this->assertSame(502, $answer->status);
        $this->assertStringNotContainsString('ESIGN_RATE_LIMIT', implode('', $this->written));
    }

    public function testARulesFileThatIsNotJsonIsSaidNotThrown(): void
    {
        file_put_contents($this->dir . '/rules.json', 'not json');
        $answer = $this->proxy(['ESIGN_RULES_FILE' => $this->dir . '/rules.json'])->handle(self::post('/smartid/login.json', '{}'));
        $this->assertSame([500, 'misconfigured'], [$answer->status, json_decode($answer->body, true)['proxy_error']]);
        $this->assertStringContainsString('proxy-rules.json cannot be read as JSON', implode('', $this->written));
        $this->assertFileDoesNotExist($this->dir . '/state.sqlite');
    }

    public function testTheStepsAreTheNodeProxysByName(): void
    {
        $this->assertSame(['route', 'origin', 'contentType', 'fields', 'visitor', 'signer', 'binding', 'limits', 'pollFloor', 'forward', 'tokenRefused', 'filter', 'sessions', 'signedBy', 'handOver'], Proxy::stepNames());
    }
}
