"""A site in Python (Django) beside esign-proxy: the verified person into Django's own session from a
signed webhook delivery (it carries the browser's cookies, so request.session is that browser's),
the signing gate's question answered from it, and the greeting from the server. Run with nginx in
front (docs/any-stack.md):

    PORT=8080 ESIGN_WEBHOOK_SECRET=whsec_... DJANGO_SECRET_KEY=... python3 recipe.py
"""
import base64
import hashlib
import hmac
import json
import os
import sys
import threading
import time

from django.conf import settings

settings.configure(
    DEBUG=False,
    SECRET_KEY=os.environ.get("DJANGO_SECRET_KEY") or os.environ["ESIGN_WEBHOOK_SECRET"],
    ALLOWED_HOSTS=["127.0.0.1", "localhost"],
    ROOT_URLCONF=__name__,
    INSTALLED_APPS=["django.contrib.sessions"],
    MIDDLEWARE=["django.contrib.sessions.middleware.SessionMiddleware"],
    # the session in a signed cookie: no database to set up for the example
    SESSION_ENGINE="django.contrib.sessions.backends.signed_cookies",
    SESSION_COOKIE_HTTPONLY=True,
    SESSION_COOKIE_SAMESITE="Lax",
)

from django.http import HttpResponse, HttpResponseBadRequest, JsonResponse  # noqa: E402
from django.urls import path  # noqa: E402
from django.utils.html import escape  # noqa: E402
from django.views.decorators.csrf import csrf_exempt  # noqa: E402
from django.views.decorators.http import require_GET, require_POST  # noqa: E402

KEY = base64.b64decode(os.environ["ESIGN_WEBHOOK_SECRET"].removeprefix("whsec_"))
# each webhook-id taken, until its delivery can no longer verify (both ways of five minutes);
# several processes of a site keep these where they all look (Django's cache on Redis, the database)
SEEN = {}
SEEN_LOCK = threading.Lock()


def first_time(message_id):
    """Whether this webhook-id is new: a repeat (esign-proxy's retry, or a delivery captured and
    sent again) is answered 2xx and changes nothing."""
    with SEEN_LOCK:
        now = time.time()
        for known in [k for k, until in SEEN.items() if until < now]:
            del SEEN[known]
        if message_id in SEEN:
            return False
        SEEN[message_id] = now + 600
        return True


def verified(request):
    """A delivery signed as Standard Webhooks says, or None: the signature of id.timestamp.body
    under the secret, and a timestamp within five minutes (no replay of an old one)."""
    body = request.body
    message_id = request.headers.get("webhook-id", "")
    stamp = request.headers.get("webhook-timestamp", "")
    if not message_id or not stamp.isdigit() or abs(time.time() - int(stamp)) > 300:
        return None
    expected = base64.b64encode(hmac.new(KEY, f"{message_id}.{stamp}.".encode() + body, hashlib.sha256).digest()).decode()
    for signature in request.headers.get("webhook-signature", "").split():
        if signature.startswith("v1,") and hmac.compare_digest(signature[3:], expected):
            return body
    return None


@csrf_exempt  # signed by esign-proxy instead
@require_POST
def delivery(request):
    """The verified result, before the browser sees it: a login becomes this browser's session."""
    body = verified(request)
    if body is None:
        return HttpResponseBadRequest("not a delivery of ours")
    sent = json.loads(body)
    if not first_time(request.headers["webhook-id"]):
        return HttpResponse(status=204)
    if sent["type"] == "login.verified":
        request.session.cycle_key()  # a new session id at login, against fixation
        request.session["person"] = {key: sent["data"]["result"][key] for key in ("country", "code", "name", "surname")}
    return HttpResponse(status=204)


@csrf_exempt
@require_POST
def signer(request):
    """The signing gate asks who is signed in: the person of this browser's session, or null."""
    if verified(request) is None:
        return HttpResponseBadRequest("not a question of ours")
    person = request.session.get("person")
    return JsonResponse({"country": person["country"], "code": person["code"]} if person else None, safe=False)


@require_GET
def me(request):
    """What the server knows, whatever the browser's events said."""
    person = request.session.get("person")
    return JsonResponse(person) if person else JsonResponse({"loggedIn": False}, status=401)


@require_GET
def home(request):
    person = request.session.get("person")
    greeting = f'<p id="welcome">Welcome, {escape(person["name"])} {escape(person["surname"])}</p>' if person else '<p id="anonymous">Not logged in</p>'
    return HttpResponse(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Django</title>'
        '<script type="module" src="/esign/cdn/esign-identify.js"></script></head>'
        f'<body><h1>A site in Django</h1>{greeting}<esign-identify endpoint="/esign" channels="smartid" country="EE"></esign-identify></body></html>'
    )


urlpatterns = [path("", home), path("me", me), path("esign-webhook", delivery), path("esign-signer", signer)]

if __name__ == "__main__":
    from django.core.management import execute_from_command_line

    execute_from_command_line([sys.argv[0], "runserver", "--noreload", f"127.0.0.1:{os.environ['PORT']}"])
