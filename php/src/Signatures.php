<?php
declare(strict_types=1);

namespace Esign\Proxy;

/**
 * The one signature the service added to a file, read without trusting the file: a PDF's new
 * signature after the uploaded bytes, or a container's one new signature entry; and the persons
 * (country, code) its certificates name.
 */
final class Signatures
{
    public function __construct(private readonly Rules $rules)
    {
    }

    /** [country, code] of subject serial numbers (OID 2.5.4.5, "PNOLT-<code>") in DER bytes. */
    public function personsInDer(string $der): array
    {
        $persons = [];
        preg_match_all('/\x06\x03\x55\x04\x05[\x13\x0c]([\x00-\x40])/s', $der, $found, PREG_OFFSET_CAPTURE);
        foreach ($found[1] as [$length, $at]) {
            $value = substr($der, $at + 1, ord($length));
            if (preg_match('/^PNO([A-Z]{2})-([0-9A-Z-]{6,20})$/D', $value, $number) && in_array($number[1], $this->rules->countries, true)) {
                $persons[] = [$number[1], Person::canonicalCode($number[1], $number[2])];
            }
        }
        return $persons;
    }

    /** The entries of a ZIP's central directory, by name. */
    private function zipEntries(string $zip): array
    {
        $end = strrpos($zip, "PK\x05\x06");
        if ($end === false || $end + 22 > strlen($zip)) {
            return [];
        }
        ['count' => $count, 'offset' => $at] = (array) unpack('vcount/x4/Voffset', substr($zip, $end + 10, 10));
        $entries = [];
        for ($i = 0; $i < $count && $at + 46 <= strlen($zip) && substr($zip, $at, 4) === "PK\x01\x02"; $i++) {
            $entry = (array) unpack('vmethod/x8/Vsize/x4/vname/vextra/vcomment/x8/Vlocal', substr($zip, $at + 10, 36));
            $entries[substr($zip, $at + 46, $entry['name'])] = $entry;
            $at += 46 + $entry['name'] + $entry['extra'] + $entry['comment'];
        }
        return $entries;
    }

    /** An entry's bytes (stored or deflated, within the inflate limit), null when unreadable. */
    private function zipEntry(string $zip, array $entry): ?string
    {
        $at = $entry['local'];
        if (substr($zip, $at, 4) !== "PK\x03\x04") {
            return null;
        }
        ['name' => $name, 'extra' => $extra] = (array) unpack('vname/vextra', substr($zip, $at + 26, 4));
        $stored = substr($zip, $at + 30 + $name + $extra, $entry['size']);
        $bytes = $entry['method'] === 0 ? $stored : ($entry['method'] === 8 ? @gzinflate($stored, $this->rules->inflateLimit) : false);
        return $bytes === false ? null : $bytes;
    }

    /** A container's signature entries by name, each its bytes (null when unreadable). */
    public function entries(string $file): array
    {
        $found = [];
        if (!str_starts_with($file, 'PK')) {
            return $found;
        }
        foreach ($this->zipEntries($file) as $name => $entry) {
            if (preg_match($this->rules->signatureEntry, (string) $name)) {
                $found[(string) $name] = $this->zipEntry($file, $entry);
            }
        }
        return $found;
    }

    /**
     * What the uploaded file held before the service signed it: a PDF's length and digest, a
     * container's signature entries with a digest each (and loose files named like one); null for
     * more signature entries than any real container has.
     */
    public function uploadPrint(\stdClass $sent): ?array
    {
        $type = is_string($sent->type ?? null) ? $sent->type : '';
        $files = [];
        foreach (($type !== '' ? ($sent->{$type}->files ?? []) : []) as $file) {
            $files[] = [(string) ($file->name ?? ''), (string) base64_decode((string) ($file->content ?? ''))];
        }
        if ($type === 'pdf') {
            $pdf = $files[0][1] ?? '';
            return ['type' => 'pdf', 'length' => strlen($pdf), 'sha256' => hash('sha256', $pdf)];
        }
        $entries = [];
        foreach ($files as [$name, $content]) {
            if (preg_match($this->rules->signatureEntry, $name)) {
                $entries[$name] = hash('sha256', $content);
            }
        }
        if (count($files) === 1) {
            foreach ($this->entries($files[0][1]) as $name => $bytes) {
                $entries[$name] = $bytes === null ? '' : hash('sha256', $bytes);
            }
        }
        return count($entries) > $this->rules->mostSignatureEntries ? null : ['type' => 'container', 'entries' => $entries];
    }

    /** [persons, null] of the one signature the service added to the uploaded file, or [null, why]. */
    public function added(array $upload, string $signed): array
    {
        $ders = [];
        if ($upload['type'] === 'pdf') {
            if (strlen($signed) <= $upload['length'] || hash('sha256', substr($signed, 0, $upload['length'])) !== $upload['sha256']) {
                return [null, 'does not begin with the uploaded file'];
            }
            $count = preg_match_all('/\/Contents\s*<([0-9A-Fa-f\s]{128,})>/', substr($signed, $upload['length']), $found);
            if ($count !== 1) {
                return [null, $count ? 'has more than one new signature' : 'has no new signature'];
            }
            $ders[] = (string) hex2bin((string) preg_replace('/\s/', '', $found[1][0]));
        } else {
            $now = $this->entries($signed);
            foreach ($upload['entries'] as $name => $before) {
                if (($now[$name] ?? null) === null || hash('sha256', $now[$name]) !== $before) {
                    return [null, 'changed or dropped a signature it already had'];
                }
            }
            $added = array_values(array_diff(array_keys($now), array_keys($upload['entries'])));
            if (count($added) !== 1) {
                return [null, $added ? 'has more than one new signature' : 'has no new signature'];
            }
            if ($now[$added[0]] === null) {
                return [null, 'has a new signature that cannot be read'];
            }
            preg_match_all('#<(?:[\w-]+:)?X509Certificate>([A-Za-z0-9+/=\s]+)</#', $now[$added[0]], $certificates);
            foreach ($certificates[1] as $certificate) {
                $ders[] = (string) base64_decode((string) preg_replace('/\s/', '', $certificate));
            }
        }
        $persons = array_merge([], ...array_map([$this, 'personsInDer'], $ders));
        return $persons ? [$persons, null] : [null, 'has a new signature that names nobody'];
    }
}
