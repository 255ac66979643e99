<?php
declare(strict_types=1);

namespace Esign\Proxy;

/** Fixed-size keys and keyed digests, as the Node proxy makes them (the test vectors hold the two to one answer). */
final class Keys
{
    /** A fixed-size key for the state, whatever the size of what it counts or binds: no code or visitor id in clear. */
    public static function store(string $value): string
    {
        return substr(rtrim(strtr(base64_encode(hash('sha256', $value, true)), '+/', '-_'), '='), 0, 32);
    }

    /** A visitor as events and logs show them: a keyed digest, never the value that authenticates them. */
    public static function visitorDigest(string $visitor, string $key): string
    {
        return hash_hmac('sha256', "visitor:$visitor", $key);
    }

    /** An IPv4 address as it is (IPv4-mapped too), an IPv6 one by its /64 (one household holds a whole /64). */
    public static function address(string $address): string
    {
        $plain = (string) preg_replace('/%.*$/', '', strtolower(trim($address)));
        $packed = @inet_pton($plain);
        if ($packed === false) {
            return trim($address);
        }
        if (strlen($packed) === 4) {
            return (string) inet_ntop($packed);
        }
        if (str_starts_with($packed, str_repeat("\0", 10) . "\xff\xff")) {
            return (string) inet_ntop(substr($packed, 12));
        }
        $groups = array_values((array) unpack('n4', substr($packed, 0, 8)));
        return implode(':', array_map('dechex', $groups)) . '::/64';
    }
}
