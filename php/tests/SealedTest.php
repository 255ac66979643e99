<?php
declare(strict_types=1);

namespace Esign\Proxy\Tests;

use Esign\Proxy\Sealed;
use PHPUnit\Framework\TestCase;

final class SealedTest extends TestCase
{
    public function testOpensWhatItSealedAndNothingChanged(): void
    {
        $sealed = Sealed::seal('a-visitor-secret', 'Set-Cookie: PHPSESSID=abc');
        $this->assertSame('Set-Cookie: PHPSESSID=abc', Sealed::open('a-visitor-secret', $sealed));
        $this->assertNotSame($sealed, Sealed::seal('a-visitor-secret', 'Set-Cookie: PHPSESSID=abc'), 'a new nonce each time');
        $this->assertStringNotContainsString('PHPSESSID', $sealed);
        $bytes = base64_decode(strtr($sealed, '-_', '+/'));
        $bytes[strlen($bytes) - 1] = chr(ord($bytes[strlen($bytes) - 1]) ^ 1);
        $this->assertNull(Sealed::open('a-visitor-secret', rtrim(strtr(base64_encode($bytes), '+/', '-_'), '=')), 'a changed byte opens nothing');
        $this->assertNull(Sealed::open('a-visitor-secret', 'short'));
        $this->assertNull(Sealed::open('a-visitor-secret', '!!not base64!!'));
    }
}
