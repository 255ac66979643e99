<?php
declare(strict_types=1);

namespace Esign\Proxy\Tests;

use Esign\Proxy\Fields;
use Esign\Proxy\InvalidField;
use Esign\Proxy\Keys;
use Esign\Proxy\Person;
use Esign\Proxy\Rules;
use Esign\Proxy\Sealed;
use Esign\Proxy\Steps\Limits;
use PHPUnit\Framework\TestCase;

/**
 * What the Node proxy decides for the same inputs (tests/vectors.json, made by its own functions):
 * this package decides the same, or a test names the difference.
 */
final class VectorsTest extends TestCase
{
    private static array $vectors;
    private static Rules $rules;

    public static function setUpBeforeClass(): void
    {
        self::$vectors = json_decode((string) file_get_contents(__DIR__ . '/vectors.json'), true, 512, JSON_THROW_ON_ERROR);
        self::$rules = Rules::fromFile(dirname(__DIR__) . '/proxy-rules.json');
    }

    /** A JSON object as PHP's proxy reads a body: objects as stdClass. */
    private static function body(array $value): \stdClass
    {
        return json_decode((string) json_encode($value), false, 512, JSON_THROW_ON_ERROR);
    }

    public function testStoreKeys(): void
    {
        foreach (self::$vectors['storeKeys'] as $v) {
            $this->assertSame($v['key'], Keys::store($v['value']), $v['value']);
        }
    }

    public function testCanonicalCodesAndPersonDigests(): void
    {
        foreach (self::$vectors['canonicalCodes'] as $v) {
            $this->assertSame($v['canonical'], Person::canonicalCode($v['country'], $v['code']), json_encode($v));
        }
        foreach (self::$vectors['personDigests'] as $v) {
            $this->assertSame($v['digest'], Person::digest($v['country'], $v['code']), json_encode($v));
        }
    }

    public function testStartCountriesAndPersonKeys(): void
    {
        foreach (self::$vectors['startCountries'] as $v) {
            $this->assertSame($v['country'], Person::startCountry(self::body($v['fields']), self::$rules->countries), json_encode($v));
        }
        foreach (self::$vectors['personKeys'] as $v) {
            $this->assertSame($v['key'], Person::key($v['channel'], self::body($v['fields']), self::$rules->countries), json_encode($v));
        }
    }

    public function testAddressesAndVisitorDigests(): void
    {
        foreach (self::$vectors['addresses'] as $v) {
            $this->assertSame($v['key'], Keys::address($v['address']), $v['address']);
        }
        foreach (self::$vectors['visitorDigests'] as $v) {
            $this->assertSame($v['digest'], Keys::visitorDigest($v['visitor'], $v['secret']));
        }
    }

    public function testSignerDecisions(): void
    {
        foreach (self::$vectors['signers'] as $v) {
            $this->assertSame($v['same'], Person::sameSigner(self::body($v['fields']), $v['signer'], self::$rules->countries), json_encode($v));
        }
    }

    public function testTheCountersOfAStartInTheirOrder(): void
    {
        foreach (self::$vectors['counters'] as $v) {
            $counted = Limits::counters($v['channel'], self::body($v['fields']), $v['visitor'], $v['address'], self::$rules->countries);
            $this->assertSame($v['counters'], array_map(null, array_keys($counted), array_values($counted)), json_encode($v));
        }
    }

    public function testFieldChecks(): void
    {
        foreach (self::$vectors['fields'] as $v) {
            $shape = self::$rules->operations[$v['operation']]['fields'];
            try {
                $picked = Fields::pick($shape, self::body($v['body']));
                $this->assertArrayHasKey('picked', $v, 'refused what Node takes: ' . json_encode($v));
                $this->assertSame(json_encode($v['picked']), json_encode($picked), json_encode($v));
            } catch (InvalidField $bad) {
                $this->assertSame($v['invalid'] ?? 'taken by Node', $bad->getMessage(), json_encode($v));
            }
        }
        foreach (self::$vectors['startFields'] as $v) {
            $this->assertSame($v['bad'], Fields::badStartField(self::body($v['fields']), self::$rules), json_encode($v));
        }
    }

    public function testOpensWhatNodeSealed(): void
    {
        $secret = self::$vectors['sealed']['secret'];
        foreach (self::$vectors['sealed']['values'] as $v) {
            $this->assertSame($v['text'], Sealed::open($secret, $v['sealed']));
            $this->assertNull(Sealed::open('another-secret', $v['sealed']), 'another secret opens nothing');
        }
    }

    public function testKnowsEveryOperationTheRulesName(): void
    {
        foreach (self::$rules->operations as $id => $operation) {
            $this->assertContains($id, self::$vectors['operations']);
        }
    }
}
