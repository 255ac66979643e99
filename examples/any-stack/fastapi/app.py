"""A site in Python (FastAPI, Starlette's session) beside esign-proxy: the person logs in by OpenID
Connect with authlib (esign-proxy is the provider), on the provider's page (/login) or with the
widget on this site's own page (/login-here); the signing gate's question is answered from the
session, and the signed files come as signed Standard Webhooks deliveries, each taken once. Run
with nginx in front (docs/any-stack.md):

    PORT=8080 PUBLIC_URL=https://site.example ESIGN_OIDC_ISSUER=https://site.example/esign/oidc \
    OIDC_CLIENT_ID=site OIDC_CLIENT_SECRET=... ESIGN_WEBHOOK_SECRET=whsec_... SESSION_SECRET=... \
    SITE_DB=/var/lib/site/site.sqlite python3 app.py

With several workers: `python3 -m uvicorn app:app --workers 4 --port 8080` (the session is a signed
cookie and the deliveries are in SITE_DB, so every worker sees both).
"""
import base64
import hashlib
import hmac
import html
import json
import os
import sqlite3
import time

import uvicorn
from authlib.integrations.starlette_client import OAuth, OAuthError
from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.middleware.sessions import SessionMiddleware

KEY = base64.b64decode(os.environ["ESIGN_WEBHOOK_SECRET"].removeprefix("whsec_"))
PUBLIC_URL = os.environ.get("PUBLIC_URL", f"http://127.0.0.1:{os.environ['PORT']}").rstrip("/")
REDIRECT_URI = f"{PUBLIC_URL}/callback"
# every webhook-id taken, where a restart and every worker of the site see it
DB = os.environ.get("SITE_DB", "site.sqlite")

app = FastAPI()
# the session in a signed cookie ("session"); over https set https_only=True
app.add_middleware(SessionMiddleware, secret_key=os.environ["SESSION_SECRET"], same_site="lax", https_only=PUBLIC_URL.startswith("https:"))

oauth = OAuth()
oauth.register(
    "esign",
    server_metadata_url=f"{os.environ['ESIGN_OIDC_ISSUER'].rstrip('/')}/.well-known/openid-configuration",
    client_id=os.environ["OIDC_CLIENT_ID"],
    client_secret=os.environ["OIDC_CLIENT_SECRET"],
    # the provider's answers may be slow while many log in at once: wait for them longer than httpx's 5 s
    client_kwargs={"scope": "openid profile nin", "code_challenge_method": "S256", "timeout": 20},
)


@app.on_event("startup")
async def provider_known():
    """Each worker learns the provider's endpoints and keys as it starts, so that many first logins at
    once do not each fetch them; a provider not up yet is asked again at the first login."""
    try:
        await oauth.esign.load_server_metadata()
        await oauth.esign.fetch_jwk_set()
    except Exception:  # noqa: BLE001 - the login asks again
        pass


def database():
    db = sqlite3.connect(DB, timeout=5, isolation_level=None)
    db.execute("CREATE TABLE IF NOT EXISTS deliveries (id TEXT PRIMARY KEY, type TEXT, token TEXT, at REAL)")
    return db


def verified(headers, body):
    """A delivery signed as Standard Webhooks says: the signature of id.timestamp.body under the
    secret, and a timestamp within five minutes (no replay of an old one)."""
    message_id = headers.get("webhook-id", "")
    stamp = headers.get("webhook-timestamp", "")
    if not message_id or not stamp.isdigit() or abs(time.time() - int(stamp)) > 300:
        return False
    expected = base64.b64encode(hmac.new(KEY, f"{message_id}.{stamp}.".encode() + body, hashlib.sha256).digest()).decode()
    return any(s.startswith("v1,") and hmac.compare_digest(s[3:], expected) for s in headers.get("webhook-signature", "").split())


@app.post("/esign-webhook")
async def delivery(request: Request):
    """A fact (a signed file, a document's state), taken once by its webhook-id: a repeat or a copy
    changes nothing. No delivery logs anyone in: that is the OpenID Connect login's."""
    body = await request.body()
    if not verified(request.headers, body):
        return Response("not a delivery of ours", status_code=400)
    sent = json.loads(body)
    with database() as db:
        db.execute("INSERT OR IGNORE INTO deliveries VALUES (?, ?, ?, ?)", (request.headers["webhook-id"], sent["type"], sent["data"].get("token", ""), time.time()))
    return Response(status_code=204)


@app.post("/esign-signer")
async def signer(request: Request):
    """The signing gate asks who is signed in: the person of this browser's session, or null."""
    if not verified(request.headers, await request.body()):
        return Response("not a question of ours", status_code=400)
    person = request.session.get("person")
    return JSONResponse({"country": person["country"], "code": person["code"]} if person else None)


@app.get("/login")
async def login(request: Request):
    """The provider's page: the person logs in there and comes back to /callback."""
    return await oauth.esign.authorize_redirect(request, REDIRECT_URI, ui_locales="en")


@app.get("/login-here", response_class=HTMLResponse)
async def login_here(request: Request):
    """The widget on this page, given the authorization request: it logs in here and goes on to /callback."""
    asked = await oauth.esign.create_authorization_url(REDIRECT_URI)
    await oauth.esign.save_authorize_data(request, redirect_uri=REDIRECT_URI, **asked)
    return page(f'<esign-identify endpoint="/esign" authorize="{html.escape(asked["url"])}"></esign-identify>')


@app.get("/callback")
async def callback(request: Request):
    try:
        token = await oauth.esign.authorize_access_token(request)
    except OAuthError as refused:
        return page(f'<p id="refused">Not logged in: {html.escape(refused.error or "")}</p>')
    claims = token["userinfo"]
    request.session.clear()  # nothing of the session before the login carries over
    # a person is a country and a code
    request.session["person"] = {"country": claims["nin_issuing_country"], "code": claims["nin"], "name": claims["given_name"], "surname": claims["family_name"]}
    return RedirectResponse("/", status_code=303)


@app.get("/me")
async def me(request: Request):
    """What the server knows, whatever the browser's events said."""
    person = request.session.get("person")
    return JSONResponse(person) if person else JSONResponse({"loggedIn": False}, status_code=401)


def page(body):
    return HTMLResponse(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>FastAPI</title>'
        f'<script type="module" src="/esign/cdn/esign-identify.js"></script></head><body><h1>A site in FastAPI</h1>{body}</body></html>'
    )


@app.get("/", response_class=HTMLResponse)
async def home(request: Request):
    person = request.session.get("person")
    if person:
        return page(f'<p id="welcome">Welcome, {html.escape(person["name"])} {html.escape(person["surname"])}</p>')
    return page('<p id="anonymous">Not logged in: <a href="/login">log in</a>, or <a href="/login-here">log in on this page</a></p>')


if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(os.environ["PORT"]), log_level="warning")
