"""A site in Python (FastAPI, Starlette's session) beside esign-proxy: the verified person into the
browser's own session from a signed webhook delivery (it carries the browser's cookies, so
request.session is that browser's), the signing gate's question answered from it, and the greeting
from the server. Run with nginx in front (docs/any-stack.md):

    PORT=8080 ESIGN_WEBHOOK_SECRET=whsec_... SESSION_SECRET=... python3 app.py
"""
import base64
import hashlib
import hmac
import html
import json
import os
import threading
import time

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.middleware.sessions import SessionMiddleware

KEY = base64.b64decode(os.environ["ESIGN_WEBHOOK_SECRET"].removeprefix("whsec_"))
# each webhook-id taken, until its delivery can no longer verify (both ways of five minutes);
# several processes of a site keep these where they all look (Redis, the database)
SEEN = {}
SEEN_LOCK = threading.Lock()

app = FastAPI()
# the session in a signed cookie ("session"); over https set https_only=True
app.add_middleware(SessionMiddleware, secret_key=os.environ.get("SESSION_SECRET") or os.environ["ESIGN_WEBHOOK_SECRET"], same_site="lax", https_only=False)


def verified(headers, body):
    """A delivery signed as Standard Webhooks says: the signature of id.timestamp.body under the
    secret, and a timestamp within five minutes (no replay of an old one)."""
    message_id = headers.get("webhook-id", "")
    stamp = headers.get("webhook-timestamp", "")
    if not message_id or not stamp.isdigit() or abs(time.time() - int(stamp)) > 300:
        return False
    expected = base64.b64encode(hmac.new(KEY, f"{message_id}.{stamp}.".encode() + body, hashlib.sha256).digest()).decode()
    return any(s.startswith("v1,") and hmac.compare_digest(s[3:], expected) for s in headers.get("webhook-signature", "").split())


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


@app.post("/esign-webhook")
async def delivery(request: Request):
    """The verified result, before the browser sees it: a login becomes this browser's session."""
    body = await request.body()
    if not verified(request.headers, body):
        return Response("not a delivery of ours", status_code=400)
    if not first_time(request.headers["webhook-id"]):
        return Response(status_code=204)
    sent = json.loads(body)
    if sent["type"] == "login.verified":
        request.session.clear()  # nothing of the session before the login carries over
        request.session["person"] = {key: sent["data"]["result"][key] for key in ("country", "code", "name", "surname")}
    return Response(status_code=204)


@app.post("/esign-signer")
async def signer(request: Request):
    """The signing gate asks who is signed in: the person of this browser's session, or null."""
    if not verified(request.headers, await request.body()):
        return Response("not a question of ours", status_code=400)
    person = request.session.get("person")
    return JSONResponse({"country": person["country"], "code": person["code"]} if person else None)


@app.get("/me")
async def me(request: Request):
    """What the server knows, whatever the browser's events said."""
    person = request.session.get("person")
    return JSONResponse(person) if person else JSONResponse({"loggedIn": False}, status_code=401)


@app.get("/", response_class=HTMLResponse)
async def home(request: Request):
    person = request.session.get("person")
    greeting = f'<p id="welcome">Welcome, {html.escape(person["name"])} {html.escape(person["surname"])}</p>' if person else '<p id="anonymous">Not logged in</p>'
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>FastAPI</title>'
        '<script type="module" src="/esign/cdn/esign-identify.js"></script></head>'
        f'<body><h1>A site in FastAPI</h1>{greeting}<esign-identify endpoint="/esign" channels="smartid" country="EE"></esign-identify></body></html>'
    )


if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(os.environ["PORT"]), log_level="warning")
