"""The verified person into Flask's session: the proxy's on_result runs inside the request of the
poll that finished the login (the browser that started it), so it writes flask.session there, and
signer() lets that person, and nobody else, sign.

Run:  ESIGN_BASE_URL=... ESIGN_ACCESS_TOKEN=... FLASK_SECRET_KEY=... flask --app session_recipe run
"""
import os

from flask import jsonify, session

import proxy

app = proxy.app
app.secret_key = os.environ["FLASK_SECRET_KEY"]
app.config.update(SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Strict")


def on_result(operation, token, visitor, answer):
    if operation in ("mobileLoginStatus", "smartIdLoginStatus"):
        session.clear()  # a new session for the person who logged in
        session["person"] = {key: answer[key] for key in ("code", "name", "surname", "country")}


def signer():
    person = session.get("person")
    return {"country": person["country"], "code": person["code"]} if person else None


proxy.on_result = on_result
proxy.signer = signer
proxy.GATE_SIGNING = True


@app.get("/me")
def me():
    """What the server knows: the truth, whatever the browser's events said."""
    person = session.get("person")
    return jsonify(person) if person else (jsonify(loggedIn=False), 401)
