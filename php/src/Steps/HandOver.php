<?php
declare(strict_types=1);

namespace Esign\Proxy\Steps;

use Esign\Proxy\Answer;
use Esign\Proxy\Exchange;
use Esign\Proxy\Lease;
use Esign\Proxy\ResultRefused;
use Esign\Proxy\Step;
use Esign\Proxy\Visitor;

/**
 * The browser sees a result only after the host's onResult succeeded for it (at least once, never
 * two runs at once across the workers); a login gives the browser a new visitor id; what the answer
 * that finished the session carried (its cookies) is kept, sealed, for a late poll.
 */
final class HandOver implements Step
{
    public const NAME = 'handOver';

    public function run(Exchange $x): void
    {
        if (($x->value->status ?? null) !== 'ok' || $x->role[0] !== 'status') {
            return;
        }
        $token = (string) $x->token;
        $state = $x->state();
        // a login gives the browser a new visitor id (one planted before the login is worth nothing after it)
        $rotated = $x->part === 'login' ? Visitor::mint($x->settings->visitorKey()) : null;
        try {
            $delivered = $this->handOver($x, $token, $rotated);
        } catch (\PDOException $error) {
            throw $error; // the state, not the host: 503 by Proxy
        } catch (ResultRefused $refusal) {
            if ($refusal->status !== null) {
                $x->log->say("on_result() refused the result for {$x->operation}: HTTP {$refusal->status}; the session ends with site-refused");
            }
            $state->finished($token);
            // the session's end (its finished event), in the words of the rules' site-refused answer
            ['status' => $status, 'message' => $message] = $x->rules()->answers['site-refused'];
            throw Answer::json($status, ['status' => 'error', 'message' => $message, 'proxy_error' => 'site-refused'], [], ['finished', ['outcome' => 'site-refused']]);
        } catch (Answer $answer) {
            throw $answer;
        } catch (\Throwable $error) {
            $x->log->say("on_result() failed for {$x->operation}: " . get_class($error) . ': ' . substr($error->getMessage(), 0, 300));
            throw $x->refuse('host-error');
        }
        if ($delivered === false) {
            throw Answer::waiting();
        }
        if ($delivered !== 'ran') {
            $x->keptCookies = $state->keptCookies($token);
        }
        $state->finished($token);
        // said once, by the one request that tells a browser its session finished
        if ($state->tell($token)) {
            $x->event->decide('finished', ['outcome' => 'ok']);
        }
    }

    /**
     * 'ran' when onResult succeeded in this request, 'done' when it had succeeded before (by this or
     * another worker); false when another worker is running it past the wait; throws what onResult
     * threw (ResultRefused, kept: every later poll of the session throws it too).
     */
    private function handOver(Exchange $x, string $token, ?string $rotated): string|false
    {
        $state = $x->state();
        $rules = $x->rules();
        $lease = bin2hex(random_bytes(8));
        $until = microtime(true) + $rules->resultWait;
        // a lease nothing can renew is taken for the run's whole time limit: never two runs at once
        $unrenewable = Lease::missing($x->settings);
        $leaseFor = $unrenewable === null ? $rules->lease : $rules->resultTimeout + $rules->leaseMargin;
        for (;;) {
            $taken = $state->claim($token, $lease, $leaseFor);
            if ($taken === 'refused') {
                throw new ResultRefused();
            }
            if ($taken === 'done') {
                return 'done';
            }
            if ($taken === 'mine') {
                break;
            }
            if (microtime(true) >= $until) {
                return false;
            }
            usleep(50_000);
        }
        if ($unrenewable !== null && $state->due('no-renewer')) {
            $x->log->say("a result's lease cannot be renewed here ($unrenewable): each is held for on_result's whole time limit (" . ($rules->resultTimeout + $rules->leaseMargin) . ' s), so a worker that dies while on_result runs delays that person this long');
        }
        $renewer = $unrenewable === null ? Lease::renew($x->settings, $state->file, $token, $lease) : null;
        try {
            $started = microtime(true);
            ($x->hooks->onResult)($x->operation, $token, $rotated ?? $x->visitor, $x->value);
            $took = microtime(true) - $started;
            if ($took > $rules->resultTimeout) {
                throw new \RuntimeException('on_result took longer than its time limit');
            }
            // PHP runs onResult in the poll that claimed it (the cookies it sets leave with an
            // answer): that poll waited as long, where esign-proxy answers "waiting" after the wait
            if ($took > $rules->resultWait && $state->due('slow-on-result', 3600)) {
                $x->log->say(sprintf('on_result took %.1f s: the poll that ran it waited as long (PHP runs it in that poll, so that the cookies it sets leave with an answer; a browser that gave up on it gets the result and those cookies with its next poll); keep on_result under %d s', $took, (int) $rules->resultWait));
            }
            // what the result's answer carries (its cookies) is kept before the result is marked
            // done: a poll that finds it done sends them again, never an answer without them
            if ($rotated !== null) {
                $state->rotate($token, Visitor::key($rotated), (string) $x->bound['visitor']);
                $x->setVisitorCookie($rotated);
            }
            $host = array_values(array_filter(headers_list(), static fn (string $h) => stripos($h, 'set-cookie:') === 0));
            $state->keepCookies($token, [...$x->cookies, ...$host]);
        } catch (ResultRefused $refusal) {
            $renewer?->stop();
            $state->endClaim($token, $lease, 'refused');
            throw $refusal;
        } catch (\Throwable $error) {
            $renewer?->stop();
            $state->endClaim($token, $lease, 'free');
            throw $error;
        }
        $renewer?->stop();
        $state->endClaim($token, $lease, 'done');
        return 'ran';
    }
}
