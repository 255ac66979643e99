<?php
declare(strict_types=1);

namespace Esign\Proxy;

/**
 * The proxy's own visitor id: a random part and a MAC of it under the visitor secret, so a value
 * planted in a browser is never adopted. Only its keyed digest reaches events, and only its store
 * key the state file.
 */
final class Visitor
{
    public static function cookieName(bool $https): string
    {
        return $https ? '__Host-esign-visitor' : 'esign-visitor';
    }

    private static function mac(string $random, string $secret): string
    {
        return substr(rtrim(strtr(base64_encode(hash_hmac('sha256', "esign-visitor:$random", $secret, true)), '+/', '-_'), '='), 0, 22);
    }

    public static function mint(string $secret): string
    {
        $random = rtrim(strtr(base64_encode(random_bytes(18)), '+/', '-_'), '=');
        return $random . self::mac($random, $secret);
    }

    public static function minted(string $value, string $secret): bool
    {
        return preg_match('/^[A-Za-z0-9_-]{46}$/D', $value) === 1 && hash_equals(self::mac(substr($value, 0, 24), $secret), substr($value, 24));
    }

    /** What a binding and a counter keep of a visitor: the Node proxy's store key of its cookie. */
    public static function key(string $visitor): string
    {
        return Keys::store("cookie:$visitor");
    }
}
