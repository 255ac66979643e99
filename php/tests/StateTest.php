<?php
declare(strict_types=1);

namespace Esign\Proxy\Tests;

use Esign\Proxy\Operator;
use Esign\Proxy\Rules;
use Esign\Proxy\Settings;
use Esign\Proxy\State;
use Esign\Proxy\StateRefused;
use PHPUnit\Framework\TestCase;

/** Where the state is kept, and that nothing in it is usable by whoever reads it. */
final class StateTest extends TestCase
{
    private string $dir;
    /** @var list<string> */
    private array $said = [];

    protected function setUp(): void
    {
        $this->dir = sys_get_temp_dir() . '/esign-state-test-' . bin2hex(random_bytes(6));
        mkdir($this->dir, 0700);
    }

    protected function tearDown(): void
    {
        foreach (glob($this->dir . '/{,.}*', GLOB_BRACE) ?: [] as $file) {
            if (is_file($file) || is_link($file)) {
                unlink($file);
            }
        }
        rmdir($this->dir);
    }

    private function settings(string $stateFile, bool $development): Settings
    {
        return new Settings(Rules::fromFile(dirname(__DIR__) . '/proxy-rules.json'), 'http://127.0.0.1:9', 'the-state-test-token', stateFile: $stateFile, development: $development);
    }

    private function log(): Operator
    {
        return new Operator('test-request', function (string $line): void {
            $this->said[] = $line;
        });
    }

    public function testRefusesAStateFileInTheTemporaryFolderUnlessInDevelopment(): void
    {
        try {
            State::open($this->settings($this->dir . '/state.sqlite', false), $this->log());
            $this->fail('a state file in the temporary folder was taken');
        } catch (StateRefused $refused) {
            $this->assertStringContainsString('ESIGN_STATE_FILE', $refused->getMessage());
        }
        $this->assertFileDoesNotExist($this->dir . '/state.sqlite');
        $this->assertCount(1, $this->said);
        $this->assertStringContainsString('temporary folder', $this->said[0]);
        $this->assertStringNotContainsString('the-state-test-token', $this->said[0]);
        State::open($this->settings($this->dir . '/state.sqlite', true), $this->log());
        $this->assertFileExists($this->dir . '/state.sqlite');
    }

    public function testRefusesNoStateFileUnlessInDevelopment(): void
    {
        $this->expectException(StateRefused::class);
        State::open($this->settings('', false), $this->log());
    }

    public function testMakesItsFilesForThisAccountAlone(): void
    {
        $state = State::open($this->settings($this->dir . '/state.sqlite', true), $this->log());
        $state->bind('a-token', 'a-visitor-key', 'smartid', 'smartIdLoginStatus', null, null, null);
        foreach (glob($this->dir . '/state.sqlite*') ?: [] as $file) {
            $this->assertSame(0, fileperms($file) & 0077, basename($file));
        }
    }

    public function testMakesAStateFileMadeBeforeOpenToOthersItsAlone(): void
    {
        $file = $this->dir . '/state.sqlite';
        State::open($this->settings($file, true), $this->log())->bind('a-token', 'a-visitor-key', 'smartid', 'smartIdLoginStatus', null, null, null);
        touch("$file-wal");
        chmod($file, 0644);
        chmod("$file-wal", 0666);
        $state = State::open($this->settings($file, true), $this->log());
        $state->bind('another-token', 'a-visitor-key', 'smartid', 'smartIdLoginStatus', null, null, null);
        foreach ([$file, "$file-wal"] as $path) {
            clearstatcache(true, $path);
            $this->assertSame(0, fileperms($path) & 0077, basename($path));
        }
        $this->assertCount(2, $this->said);
        $this->assertStringContainsString('made 0600', $this->said[0]);
    }

    public function testRefusesAStateFileThatIsALink(): void
    {
        $elsewhere = $this->dir . '/elsewhere.sqlite';
        touch($elsewhere);
        symlink($elsewhere, $this->dir . '/state.sqlite');
        try {
            State::open($this->settings($this->dir . '/state.sqlite', true), $this->log());
            $this->fail('a state file that is a link was taken');
        } catch (StateRefused $refused) {
            $this->assertStringContainsString('ESIGN_STATE_FILE', $refused->getMessage());
        }
        $this->assertSame(0, filesize($elsewhere));
        $this->assertCount(1, $this->said);
        $this->assertStringContainsString('a link', $this->said[0]);
    }

    public function testKeepsCookiesSealedAndOpensThem(): void
    {
        $state = State::open($this->settings($this->dir . '/state.sqlite', true), $this->log());
        $cookie = 'Set-Cookie: PHPSESSID=the-session-id-of-a-person; path=/';
        $state->keepCookies('a-token', [$cookie]);
        $this->assertSame([$cookie], $state->keptCookies('a-token'));
        $raw = (string) $state->db->query('SELECT cookies FROM kept')->fetchColumn();
        $this->assertStringNotContainsString('the-session-id-of-a-person', $raw);
        $this->assertStringNotContainsString('PHPSESSID', $raw);
        $this->assertSame([], State::open(new Settings(Rules::fromFile(dirname(__DIR__) . '/proxy-rules.json'), 'http://127.0.0.1:9', 'another-token-entirely', stateFile: $this->dir . '/state.sqlite', development: true), $this->log())->keptCookies('a-token'), 'another secret opens nothing');
    }

    public function testSweepsAtMostOnceAMinuteWhateverTheWorker(): void
    {
        $settings = $this->settings($this->dir . '/state.sqlite', true);
        $one = State::open($settings, $this->log());
        $two = State::open($settings, $this->log());
        $now = microtime(true);
        $this->assertTrue($one->sweepIfDue($now));
        $this->assertFalse($two->sweepIfDue($now + 1), 'another worker a second later');
        $this->assertFalse($one->sweepIfDue($now + 59));
        $this->assertTrue($two->sweepIfDue($now + 61));
    }

    public function testCountsAStartOverItsLimitAndGivesItBack(): void
    {
        $state = State::open($this->settings($this->dir . '/state.sqlite', true), $this->log());
        $this->assertSame([0, 0], [$state->overLimit('limit:person:k', [2, 600.0]), $state->overLimit('limit:person:k', [2, 600.0])]);
        $wait = $state->overLimit('limit:person:k', [2, 600.0]);
        $this->assertGreaterThan(590, $wait);
        $state->giveBack('limit:person:k');
        $state->giveBack('limit:person:k');
        $this->assertSame(0, $state->overLimit('limit:person:k', [2, 600.0]));
    }
}
