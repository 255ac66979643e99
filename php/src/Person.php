<?php
declare(strict_types=1);

namespace Esign\Proxy;

/**
 * A person is a country and a personal code: Estonian and Lithuanian codes share their format, and a
 * Latvian code without its hyphen can equal one of them, so every comparison and key holds the
 * country beside the code.
 */
final class Person
{
    /** A code as one person has it: only in Latvia is the code with or without its hyphen the same. */
    public static function canonicalCode(?string $country, string $code): string
    {
        // (whitespace as JavaScript's \s knows it, as the Node proxy strips it)
        $compact = (string) preg_replace('/[\s\x{feff}]/u', '', $code);
        return $country === 'LV' ? str_replace('-', '', $compact) : $compact;
    }

    /** Mobile-ID exists in Lithuania (+370) and Estonia (+372). */
    public static function phoneCountry(string $phone): ?string
    {
        $compact = (string) preg_replace('/[\s\x{feff}-]/u', '', $phone);
        return str_starts_with($compact, '+370') ? 'LT' : (str_starts_with($compact, '+372') ? 'EE' : null);
    }

    /** The one country a start names (its country field, a Mobile-ID phone's), or null for none or two. */
    public static function startCountry(\stdClass $sent, array $countries): ?string
    {
        $named = [];
        if (is_string($sent->country ?? null)) {
            $named[strtoupper($sent->country)] = true;
        }
        if (is_string($sent->phone ?? null) && self::phoneCountry($sent->phone) !== null) {
            $named[self::phoneCountry($sent->phone)] = true;
        }
        $one = count($named) === 1 ? (string) array_key_first($named) : null;
        return in_array($one, $countries, true) ? $one : null;
    }

    /** A person as a binding keeps them: a digest of country and code, never the code in clear. */
    public static function digest(string $country, string $code): string
    {
        return Keys::store("signer:$country:" . self::canonicalCode($country, $code));
    }

    /**
     * Whom a start's push reaches, counted by the per-person limit. Smart-ID pushes to the code's
     * account in its country. Mobile-ID pushes only when phone and code belong together (a wrong
     * pair is turned away at the poll, after an accepted start), so it counts the pair: a person's
     * code with phones not theirs never uses up their starts, and one phone still gets at most the limit.
     */
    public static function key(string $channel, \stdClass $sent, array $countries): ?string
    {
        if (!is_string($sent->code ?? null)) {
            return null;
        }
        $country = self::startCountry($sent, $countries);
        $code = self::canonicalCode($country, $sent->code);
        if ($channel !== 'mobile') {
            return 'smartid:' . ($country ?? '-') . ':' . $code;
        }
        return is_string($sent->phone ?? null) ? 'mobile:' . $code . ':' . preg_replace('/\D/', '', $sent->phone) : 'mobile:' . $code;
    }

    /** What is wrong with a signer answer that is not null, or null when it names a person. */
    public static function signerProblem(mixed $who, array $countries): ?string
    {
        if (!is_array($who)) {
            return 'neither null nor [country, code]';
        }
        if (!is_string($who['code'] ?? null) || trim($who['code']) === '') {
            return 'a person without a code';
        }
        if (!in_array($who['country'] ?? null, $countries, true)) {
            return 'a person without a country (LT, LV or EE): a person is a country and a code';
        }
        return null;
    }

    /** The start is for the signer: their country (the field, a Mobile-ID phone's), their code as that country writes it, their phone where given. */
    public static function sameSigner(\stdClass $sent, array $who, array $countries): bool
    {
        $country = $who['country'];
        if (self::startCountry($sent, $countries) !== $country) {
            return false;
        }
        if (!is_string($sent->code ?? null) || self::canonicalCode($country, $sent->code) !== self::canonicalCode($country, (string) $who['code'])) {
            return false;
        }
        if (!empty($who['phone']) && is_string($sent->phone ?? null) && preg_replace('/\D/', '', $sent->phone) !== preg_replace('/\D/', '', (string) $who['phone'])) {
            return false;
        }
        // a signer's phone of another country than theirs names nobody
        if (!empty($who['phone']) && self::phoneCountry((string) $who['phone']) !== null && self::phoneCountry((string) $who['phone']) !== $country) {
            return false;
        }
        return true;
    }

    public static function maskCode(string $code): string
    {
        $compact = (string) preg_replace('/\s/', '', $code);
        return strlen($compact) >= 8 ? substr($compact, 0, 4) . '••••' . substr($compact, -3) : '•••';
    }

    public static function maskPhone(string $phone): string
    {
        return preg_match('/^(\+\d{3})(\d)\d*(\d{3})$/D', (string) preg_replace('/[\s-]/', '', $phone), $m) ? "{$m[1]}\u{00a0}{$m[2]}••\u{00a0}••\u{00a0}{$m[3]}" : '•••';
    }

    /** A person as events show them: keyed digests with the event secret (the host computes the same), else masked. */
    public static function inEvents(\stdClass $sent, string $eventSecret): ?array
    {
        $person = [];
        if (is_string($sent->code ?? null) && $sent->code !== '') {
            $person['code'] = $eventSecret !== '' ? hash_hmac('sha256', 'code:' . str_replace('-', '', $sent->code), $eventSecret) : self::maskCode($sent->code);
        }
        if (is_string($sent->phone ?? null) && $sent->phone !== '') {
            $person['phone'] = $eventSecret !== '' ? hash_hmac('sha256', 'phone:' . preg_replace('/\D/', '', $sent->phone), $eventSecret) : self::maskPhone($sent->phone);
        }
        return $person ?: null;
    }
}
