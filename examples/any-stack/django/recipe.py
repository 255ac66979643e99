"""A site in Python (Django) beside esign-proxy: the person logs in by OpenID Connect with authlib
(esign-proxy is the provider), on the provider's page (/login) or with the widget on this site's own
page (/login-here), into Django's own session; the signing gate's question is answered from it, and
the signed files come as signed Standard Webhooks deliveries, each taken once. Run with nginx in
front (docs/any-stack.md):

    PORT=8080 PUBLIC_URL=https://site.example ESIGN_OIDC_ISSUER=https://site.example/esign/oidc \
    OIDC_CLIENT_ID=site OIDC_CLIENT_SECRET=... ESIGN_WEBHOOK_SECRET=whsec_... DJANGO_SECRET_KEY=... \
    SITE_DB=/var/lib/site/site.sqlite python3 recipe.py

With several workers, the same environment and `gunicorn -w 4 -b 127.0.0.1:8080 recipe:application`.
"""
import base64
import hashlib
import hmac
import json
import os
import sqlite3
import sys
import time

from django.conf import settings
from django.core.wsgi import get_wsgi_application

settings.configure(
    DEBUG=False,
    SECRET_KEY=os.environ["DJANGO_SECRET_KEY"],
    ALLOWED_HOSTS=["127.0.0.1", "localhost"],
    ROOT_URLCONF=__name__,
    INSTALLED_APPS=["django.contrib.sessions"],
    MIDDLEWARE=["django.contrib.sessions.middleware.SessionMiddleware"],
    # the session in a signed cookie: no database to set up for the example
    SESSION_ENGINE="django.contrib.sessions.backends.signed_cookies",
    SESSION_COOKIE_HTTPONLY=True,
    SESSION_COOKIE_SAMESITE="Lax",
    SESSION_COOKIE_SECURE=os.environ.get("PUBLIC_URL", "").startswith("https:"),
)

from django.http import HttpResponse, HttpResponseBadRequest, HttpResponseRedirect, JsonResponse  # noqa: E402
from django.urls import path  # noqa: E402
from django.utils.html import escape  # noqa: E402
from django.views.decorators.csrf import csrf_exempt  # noqa: E402
from django.views.decorators.http import require_GET, require_POST  # noqa: E402

from authlib.integrations.django_client import OAuth, OAuthError  # noqa: E402

KEY = base64.b64decode(os.environ["ESIGN_WEBHOOK_SECRET"].removeprefix("whsec_"))
PUBLIC_URL = os.environ.get("PUBLIC_URL", f"http://127.0.0.1:{os.environ['PORT']}").rstrip("/")
REDIRECT_URI = f"{PUBLIC_URL}/callback"
# every webhook-id taken, where a restart and every worker of the site see it
DB = os.environ.get("SITE_DB", "site.sqlite")

oauth = OAuth()
oauth.register(
    "esign",
    server_metadata_url=f"{os.environ['ESIGN_OIDC_ISSUER'].rstrip('/')}/.well-known/openid-configuration",
    client_id=os.environ["OIDC_CLIENT_ID"],
    client_secret=os.environ["OIDC_CLIENT_SECRET"],
    client_kwargs={"scope": "openid profile nin", "code_challenge_method": "S256"},
)


def database():
    db = sqlite3.connect(DB, timeout=5, isolation_level=None)
    db.execute("CREATE TABLE IF NOT EXISTS deliveries (id TEXT PRIMARY KEY, type TEXT, token TEXT, at REAL)")
    return db


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


@csrf_exempt  # signed by esign-proxy instead (without it Django answers 403, which esign-proxy takes as "refused")
@require_POST
def delivery(request):
    """A fact (a signed file, a document's state), taken once by its webhook-id: a repeat or a copy
    changes nothing. No delivery logs anyone in: that is the OpenID Connect login's."""
    body = verified(request)
    if body is None:
        return HttpResponseBadRequest("not a delivery of ours")
    sent = json.loads(body)
    with database() as db:
        db.execute("INSERT OR IGNORE INTO deliveries VALUES (?, ?, ?, ?)", (request.headers["webhook-id"], sent["type"], sent["data"].get("token", ""), time.time()))
    return HttpResponse(status=204)


@require_GET
def login(request):
    """The provider's page: the person logs in there and comes back to /callback."""
    return oauth.esign.authorize_redirect(request, REDIRECT_URI, ui_locales="en")


@require_GET
def login_here(request):
    """The widget on this page, given the authorization request: it logs in here and goes on to /callback."""
    asked = oauth.esign.create_authorization_url(REDIRECT_URI)
    oauth.esign.save_authorize_data(request, redirect_uri=REDIRECT_URI, **asked)
    return page(f'<esign-identify endpoint="/esign" authorize="{escape(asked["url"])}"></esign-identify>')


@require_GET
def callback(request):
    try:
        token = oauth.esign.authorize_access_token(request)
    except OAuthError as refused:
        return page(f'<p id="refused">Not logged in: {escape(refused.error or "")}</p>')
    claims = token["userinfo"]
    request.session.cycle_key()  # a new session id at login, against fixation
    # a person is a country and a code
    request.session["person"] = {"country": claims["nin_issuing_country"], "code": claims["nin"], "name": claims["given_name"], "surname": claims["family_name"]}
    return HttpResponseRedirect("/")


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


def page(body):
    return HttpResponse(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Django</title>'
        f'<script type="module" src="/esign/cdn/esign-identify.js"></script></head><body><h1>A site in Django</h1>{body}</body></html>'
    )


@require_GET
def home(request):
    person = request.session.get("person")
    if person:
        return page(f'<p id="welcome">Welcome, {escape(person["name"])} {escape(person["surname"])}</p>')
    return page('<p id="anonymous">Not logged in: <a href="/login">log in</a>, or <a href="/login-here">log in on this page</a></p>')


urlpatterns = [path("", home), path("me", me), path("login", login), path("login-here", login_here), path("callback", callback), path("esign-webhook", delivery), path("esign-signer", signer)]

# for a WSGI server with several workers (gunicorn -w 4 recipe:application): the session is a
# signed cookie and the deliveries are in SITE_DB, so every worker sees both
application = get_wsgi_application()

if __name__ == "__main__":
    from django.core.management import execute_from_command_line

    execute_from_command_line([sys.argv[0], "runserver", "--noreload", f"127.0.0.1:{os.environ['PORT']}"])
