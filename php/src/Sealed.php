<?php
declare(strict_types=1);

namespace Esign\Proxy;

/**
 * What the proxy keeps for a while but nobody reading its state file may use (a finished login's
 * cookies): AES-256-GCM under a key derived from the visitor secret, in the Node proxy's form
 * (base64url of the nonce, the tag and the ciphertext), so each opens what the other sealed.
 */
final class Sealed
{
    private static function key(string $secret): string
    {
        return hash_hmac('sha256', 'esign-proxy sealed values', $secret, true);
    }

    public static function seal(string $secret, string $text): string
    {
        $nonce = random_bytes(12);
        $tag = '';
        $body = (string) openssl_encrypt($text, 'aes-256-gcm', self::key($secret), OPENSSL_RAW_DATA, $nonce, $tag, '', 16);
        return rtrim(strtr(base64_encode($nonce . $tag . $body), '+/', '-_'), '=');
    }

    /** The text of a sealed value, or null when it is not one this secret sealed. */
    public static function open(string $secret, string $sealed): ?string
    {
        $bytes = base64_decode(strtr($sealed, '-_', '+/'), true);
        if ($bytes === false || strlen($bytes) < 28) {
            return null;
        }
        $text = openssl_decrypt(substr($bytes, 28), 'aes-256-gcm', self::key($secret), OPENSSL_RAW_DATA, substr($bytes, 0, 12), substr($bytes, 12, 16));
        return $text === false ? null : $text;
    }
}
