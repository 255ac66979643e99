<?php
declare(strict_types=1);

namespace Esign\Proxy;

/** What goes on from a browser's body, and what comes back from the service's answer. */
final class Fields
{
    /** The fields the operation takes, of their JSON types; anything else is dropped, a wrong type refused (InvalidField). */
    public static function pick(mixed $shape, mixed $value, string $path = ''): mixed
    {
        if (is_string($shape)) {
            $ok = match ($shape) { 'boolean' => is_bool($value), 'integer' => is_int($value), default => is_string($value) };
            if (!$ok) {
                throw new InvalidField($path);
            }
            return $value;
        }
        if (isset($shape['array'])) {
            if (!is_array($value) || !array_is_list($value)) {
                throw new InvalidField($path);
            }
            return array_map(static fn ($item, $i) => self::pick($shape['array'], $item, "$path.$i"), $value, array_keys($value));
        }
        if (!$value instanceof \stdClass) {
            throw new InvalidField($path);
        }
        $out = new \stdClass();
        foreach ($shape['object'] ?? $shape as $key => $inner) {
            if (property_exists($value, $key)) {
                $out->$key = self::pick($inner, $value->$key, $path === '' ? $key : "$path.$key");
            }
        }
        return $out;
    }

    /** The name of a start field of a shape the service would never take, or null. */
    public static function badStartField(\stdClass $sent, Rules $rules): ?string
    {
        foreach (get_object_vars($sent) as $name => $value) {
            if (!is_string($value)) {
                continue;
            }
            $shape = $rules->shapes[$name] ?? null;
            if ($shape !== null ? !preg_match('/' . $shape . '/D', $value) : (int) preg_match_all('/./us', $value) > $rules->startTextLimit) {
                return (string) $name;
            }
        }
        return null;
    }

    /** The answer with the access token removed from every string and key. */
    public static function redact(mixed $value, string $token): mixed
    {
        if (is_string($value)) {
            return str_replace($token, '[redacted]', $value);
        }
        if (is_array($value)) {
            return array_map(static fn ($item) => self::redact($item, $token), $value);
        }
        if ($value instanceof \stdClass) {
            $out = new \stdClass();
            foreach (get_object_vars($value) as $key => $item) {
                $out->{self::redact((string) $key, $token)} = self::redact($item, $token);
            }
            return $out;
        }
        return $value;
    }

    /** The answer without PEP and sanctions data at any depth. */
    public static function withoutScreening(mixed $value, array $screeningFields): mixed
    {
        if (is_array($value)) {
            return array_map(static fn ($item) => self::withoutScreening($item, $screeningFields), $value);
        }
        if ($value instanceof \stdClass) {
            $out = new \stdClass();
            foreach (get_object_vars($value) as $key => $item) {
                if (!in_array($key, $screeningFields, true)) {
                    $out->$key = self::withoutScreening($item, $screeningFields);
                }
            }
            return $out;
        }
        return $value;
    }
}
