<?php
declare(strict_types=1);

namespace Esign\Proxy;

/**
 * The rules every esign-elements proxy keeps (operations, fields, shapes, limits, lifetimes, event
 * names), from proxy-rules.json: made from the Node proxy's own rulebook, shipped beside this package.
 */
final class Rules
{
    /** The version of proxy-rules.json this package keeps. */
    public const VERSION = 1;

    public readonly int $bodyLimit;
    /** Every session operation's body limit but those that carry files. */
    public readonly int $sessionBodyLimit;
    public readonly int $answerLimit;
    /** Seconds the service has to answer. */
    public readonly float $upstreamTimeout;
    public readonly float $sessionTtl;
    /** A finished session's marks stay this long, for late polls. */
    public readonly float $finishedTtl;
    /** Seconds onResult may take; past it the run counts as failed. */
    public readonly float $resultTimeout;
    /** Seconds a poll waits for another request's onResult before it answers "waiting". */
    public readonly float $resultWait;
    /** The claim on a result, renewed while onResult runs: a dead worker's lapses this soon. */
    public readonly float $lease;
    public readonly float $renewEvery;
    /** Where nothing can renew the lease: held for the whole time limit and this much more. */
    public readonly float $leaseMargin;
    /** A poll sooner than this after the last one is answered "waiting", unforwarded. */
    public readonly float $minPollInterval;
    public readonly int $storeRetryAfter;
    public readonly int $startTextLimit;
    /** @var array<string, string> the events' reasons by the proxy's error kinds */
    public readonly array $reasons;
    /** @var array<string, string> the events' failures by the proxy's error kinds */
    public readonly array $failures;
    /** @var array<string, array{status: int, message: string}> the proxy's own answers by kind: the same status and words in every proxy */
    public readonly array $answers;
    /** @var array{status: int, message: string, statusErrorCode: int} another visitor's session token, answered as the service answers a token it does not know */
    public readonly array $notYourSession;
    /** @var list<string> */
    public readonly array $countries;
    /** @var array<string, string> start fields' patterns */
    public readonly array $shapes;
    /** @var list<string> */
    public readonly array $screeningFields;
    /** @var list<string> the operations whose bodies carry files */
    public readonly array $fileStarts;
    public readonly string $signatureEntry;
    public readonly int $mostSignatureEntries;
    /** The most a signature entry may inflate to. */
    public readonly int $inflateLimit;
    /** @var array<string, array{method: string, pattern: string, fields: mixed, role: list<string>, channel: ?string, kind: ?string}> */
    public readonly array $operations;
    /** @var array{visitor: array{0: int, 1: float}, person: array{0: int, 1: float}, address: array{0: int, 1: float}} */
    public readonly array $rateLimits;

    /** @param array<string, mixed> $document */
    private function __construct(public readonly array $document)
    {
        $this->bodyLimit = (int) $document['bodyLimit'];
        $this->sessionBodyLimit = (int) $document['sessionBodyLimit'];
        $this->answerLimit = (int) $document['answerLimit'];
        $this->upstreamTimeout = $document['upstreamTimeoutMs'] / 1000;
        $this->sessionTtl = $document['sessionTtlMs'] / 1000;
        $this->finishedTtl = $document['finishedSessionTtlMs'] / 1000;
        $this->resultTimeout = $document['result']['timeoutMs'] / 1000;
        $this->resultWait = $document['result']['waitMs'] / 1000;
        $this->lease = $document['result']['leaseMs'] / 1000;
        $this->renewEvery = $document['result']['renewEveryMs'] / 1000;
        $this->leaseMargin = $document['result']['leaseMarginMs'] / 1000;
        $this->minPollInterval = $document['minPollIntervalMs'] / 1000;
        $this->storeRetryAfter = (int) $document['storeRetryAfterSeconds'];
        $this->startTextLimit = (int) $document['startTextLimit'];
        $this->reasons = $document['events']['refusals'];
        $this->failures = $document['events']['failures'];
        $this->answers = $document['answers'];
        $this->notYourSession = $document['notYourSession'];
        $this->countries = $document['countries'];
        $this->shapes = $document['startShapes'];
        $this->screeningFields = $document['screeningFields'];
        $this->fileStarts = array_keys(array_filter($document['operations'], static fn (array $op) => $op['carriesFiles']));
        $this->signatureEntry = '#' . $document['signatureEntries']['pattern'] . '#D';
        $this->mostSignatureEntries = (int) $document['signatureEntries']['most'];
        $this->inflateLimit = (int) $document['signatureEntries']['inflateLimit'];
        $limit = static fn (array $rule) => [(int) $rule['limit'], $rule['windowMs'] / 1000];
        $this->rateLimits = ['visitor' => $limit($document['rateLimits']['perVisitor']), 'person' => $limit($document['rateLimits']['perPerson']), 'address' => $limit($document['rateLimits']['perAddress'])];
        // the allow-list: method, path pattern, the operation's own fields, its role. Document
        // operations are off here; a host that enables them adds an authorization of each document.
        $operations = [];
        foreach ($document['sessionOperations'] as $id) {
            $op = $document['operations'][$id];
            $pattern = implode('', array_map(
                static fn (string $part) => preg_match('/^\{(\w+)\}$/', $part, $param) ? '(?<' . $param[1] . '>' . $document['paramPattern'] . ')' : preg_quote($part, '#'),
                preg_split('/(\{\w+\})/', $op['path'], -1, PREG_SPLIT_DELIM_CAPTURE | PREG_SPLIT_NO_EMPTY) ?: [],
            ));
            $role = match ($op['role']) { 'start' => ['start', $op['channel'], $op['status']], 'remove' => ['remove', $op['channel']], default => ['status'] };
            $operations[$id] = [
                'method' => $op['method'],
                'pattern' => ($op['localized'] ? '(?:' . preg_quote($document['englishPrefix'], '#') . ')?' : '') . $pattern,
                'fields' => $op['fields'],
                'role' => $role,
                'channel' => $op['channel'] ?? null,
                'kind' => $op['kind'] ?? null,
            ];
        }
        $this->operations = $operations;
    }

    /** The rules of a file; throws RulesRefused for a file of another version. */
    public static function fromFile(string $file): self
    {
        $document = json_decode((string) @file_get_contents($file), true, 512, JSON_THROW_ON_ERROR);
        if (!is_array($document) || ($document['version'] ?? null) !== self::VERSION) {
            // a rules file of another version may mean other fields or limits than this package keeps
            throw new RulesRefused('proxy-rules.json is of version ' . json_encode(is_array($document) ? $document['version'] ?? null : null) . '; this proxy keeps version ' . self::VERSION . ': use the proxy-rules.json of the same release');
        }
        return new self($document);
    }
}
