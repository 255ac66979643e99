// A site in Go beside esign-proxy: the person logs in by OpenID Connect with golang.org/x/oauth2
// and github.com/coreos/go-oidc (esign-proxy is the provider), on the provider's page (/login) or
// with the widget on this site's own page (/login-here); the signing gate's question is answered
// from the site's session, and the signed files come as signed Standard Webhooks deliveries, each
// taken once. Run with nginx in front (docs/any-stack.md):
//
//	PORT=8080 PUBLIC_URL=https://site.example ESIGN_OIDC_ISSUER=https://site.example/esign/oidc \
//	OIDC_CLIENT_ID=site OIDC_CLIENT_SECRET=... ESIGN_WEBHOOK_SECRET=whsec_... SITE_DIR=/var/lib/site go run main.go
package main

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"log"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	oidc "github.com/coreos/go-oidc"
	"golang.org/x/oauth2"
)

// A person is a country and a code: the same digits in two countries are two people.
type person struct {
	Country string `json:"country"`
	Code    string `json:"code"`
	Name    string `json:"name"`
	Surname string `json:"surname"`
}

// What a login asked, kept until its answer comes back: to check the state, the nonce and PKCE.
type asked struct {
	State, Nonce, Verifier string
}

var (
	mu       sync.Mutex
	sessions = map[string]person{} // this site's sessions, by the id in its cookie
	logins   = map[string]asked{}  // logins under way, by the id in their cookie
)

func random() string {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		log.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// firstTime says whether this webhook-id is new: a file made only if absent, in a folder a restart
// and every process of the site see. A repeat (esign-proxy's retry, a copy) changes nothing.
func firstTime(dir, id string) bool {
	sum := sha256.Sum256([]byte(id))
	f, err := os.OpenFile(filepath.Join(dir, hex.EncodeToString(sum[:])), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return !errors.Is(err, os.ErrExist)
	}
	return f.Close() == nil
}

// verified reads a delivery signed as Standard Webhooks says, or nil: the signature of
// id.timestamp.body under the secret, and a timestamp within five minutes (no replay of an old one).
func verified(r *http.Request, key []byte) []byte {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return nil
	}
	id, stamp := r.Header.Get("webhook-id"), r.Header.Get("webhook-timestamp")
	seconds, err := strconv.ParseInt(stamp, 10, 64)
	if err != nil || id == "" || math.Abs(float64(time.Now().Unix()-seconds)) > 300 {
		return nil
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + stamp + "." + string(body)))
	expected := base64.StdEncoding.EncodeToString(mac.Sum(nil))
	for _, signature := range strings.Fields(r.Header.Get("webhook-signature")) {
		if strings.HasPrefix(signature, "v1,") && hmac.Equal([]byte(strings.TrimPrefix(signature, "v1,")), []byte(expected)) {
			return body
		}
	}
	return nil
}

func signedIn(r *http.Request) (person, bool) {
	cookie, err := r.Cookie("host_session")
	if err != nil {
		return person{}, false
	}
	mu.Lock()
	defer mu.Unlock()
	p, ok := sessions[cookie.Value]
	return p, ok
}

func page(w http.ResponseWriter, body string) {
	w.Header().Set("content-type", "text/html; charset=utf-8")
	fmt.Fprintf(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Go</title>
<script type="module" src="/esign/cdn/esign-identify.js"></script></head>
<body><h1>A site in Go</h1>%s</body></html>`, body)
}

func main() {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(os.Getenv("ESIGN_WEBHOOK_SECRET"), "whsec_"))
	if err != nil || len(key) == 0 {
		log.Fatal("ESIGN_WEBHOOK_SECRET must be a whsec_ secret")
	}
	publicURL := strings.TrimSuffix(os.Getenv("PUBLIC_URL"), "/")
	siteDir := os.Getenv("SITE_DIR")
	if siteDir == "" {
		siteDir = "site-data"
	}
	deliveries := filepath.Join(siteDir, "deliveries")
	if err := os.MkdirAll(deliveries, 0o700); err != nil {
		log.Fatal(err)
	}
	provider, err := oidc.NewProvider(context.Background(), os.Getenv("ESIGN_OIDC_ISSUER"))
	if err != nil {
		log.Fatalf("the OpenID Provider: %v", err)
	}
	config := oauth2.Config{
		ClientID:     os.Getenv("OIDC_CLIENT_ID"),
		ClientSecret: os.Getenv("OIDC_CLIENT_SECRET"),
		Endpoint:     provider.Endpoint(),
		RedirectURL:  publicURL + "/callback",
		Scopes:       []string{oidc.ScopeOpenID, "profile", "nin"},
	}
	verifier := provider.Verifier(&oidc.Config{ClientID: config.ClientID})

	// the authorization request of a new login: its state, nonce and PKCE verifier kept by a cookie of its own
	authorization := func(w http.ResponseWriter) string {
		a := asked{State: random(), Nonce: random(), Verifier: random() + random()}
		id := random()
		mu.Lock()
		logins[id] = a
		mu.Unlock()
		http.SetCookie(w, &http.Cookie{Name: "login", Value: id, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode, MaxAge: 600, Secure: strings.HasPrefix(publicURL, "https:")})
		challenge := sha256.Sum256([]byte(a.Verifier))
		return config.AuthCodeURL(a.State, oidc.Nonce(a.Nonce),
			oauth2.SetAuthURLParam("code_challenge", base64.RawURLEncoding.EncodeToString(challenge[:])),
			oauth2.SetAuthURLParam("code_challenge_method", "S256"))
	}
	// the provider's page: the person logs in there and comes back to /callback
	http.HandleFunc("/login", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, authorization(w), http.StatusFound)
	})
	// the widget on this page, given the authorization request: it logs in here and goes on to /callback
	http.HandleFunc("/login-here", func(w http.ResponseWriter, r *http.Request) {
		page(w, fmt.Sprintf(`<esign-identify endpoint="/esign" authorize="%s"></esign-identify>`, html.EscapeString(authorization(w))))
	})
	http.HandleFunc("/callback", func(w http.ResponseWriter, r *http.Request) {
		cookie, err := r.Cookie("login")
		mu.Lock()
		a, ok := asked{}, false
		if err == nil {
			a, ok = logins[cookie.Value]
			delete(logins, cookie.Value)
		}
		mu.Unlock()
		if !ok || r.URL.Query().Get("state") != a.State {
			http.Error(w, "no login was started here", http.StatusBadRequest)
			return
		}
		if refused := r.URL.Query().Get("error"); refused != "" {
			page(w, `<p id="refused">Not logged in: `+html.EscapeString(refused)+`</p>`)
			return
		}
		token, err := config.Exchange(r.Context(), r.URL.Query().Get("code"), oauth2.SetAuthURLParam("code_verifier", a.Verifier))
		if err != nil {
			http.Error(w, "the login could not be completed", http.StatusBadGateway)
			return
		}
		raw, _ := token.Extra("id_token").(string)
		idToken, err := verifier.Verify(r.Context(), raw)
		if err != nil || idToken.Nonce != a.Nonce {
			http.Error(w, "the login could not be verified", http.StatusBadGateway)
			return
		}
		var claims struct {
			Nin        string `json:"nin"`
			Country    string `json:"nin_issuing_country"`
			GivenName  string `json:"given_name"`
			FamilyName string `json:"family_name"`
		}
		if err := idToken.Claims(&claims); err != nil || claims.Nin == "" {
			http.Error(w, "the login said no person", http.StatusBadGateway)
			return
		}
		session := random() // a new session id at login, against fixation
		mu.Lock()
		sessions[session] = person{Country: claims.Country, Code: claims.Nin, Name: claims.GivenName, Surname: claims.FamilyName}
		mu.Unlock()
		http.SetCookie(w, &http.Cookie{Name: "host_session", Value: session, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: strings.HasPrefix(publicURL, "https:")})
		http.Redirect(w, r, "/", http.StatusSeeOther)
	})
	// a fact (a signed file, a document's state), taken once by its webhook-id; no delivery logs anyone in
	http.HandleFunc("/esign-webhook", func(w http.ResponseWriter, r *http.Request) {
		body := verified(r, key)
		if r.Method != http.MethodPost || body == nil {
			http.Error(w, "not a delivery of ours", http.StatusBadRequest)
			return
		}
		var delivery struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(body, &delivery) != nil {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		if firstTime(deliveries, r.Header.Get("webhook-id")) {
			log.Printf("took a delivery: %s", delivery.Type)
		}
		w.WriteHeader(http.StatusNoContent)
	})
	// the signing gate asks who is signed in: the person of this browser's session, or null
	http.HandleFunc("/esign-signer", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || verified(r, key) == nil {
			http.Error(w, "not a question of ours", http.StatusBadRequest)
			return
		}
		w.Header().Set("content-type", "application/json")
		if p, ok := signedIn(r); ok {
			json.NewEncoder(w).Encode(map[string]string{"country": p.Country, "code": p.Code})
			return
		}
		w.Write([]byte("null"))
	})
	// what the server knows, whatever the browser's events said
	http.HandleFunc("/me", func(w http.ResponseWriter, r *http.Request) {
		p, ok := signedIn(r)
		if !ok {
			http.Error(w, `{"loggedIn":false}`, http.StatusUnauthorized)
			return
		}
		w.Header().Set("content-type", "application/json")
		json.NewEncoder(w).Encode(p)
	})
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		if p, ok := signedIn(r); ok {
			page(w, fmt.Sprintf(`<p id="welcome">Welcome, %s %s</p>`, html.EscapeString(p.Name), html.EscapeString(p.Surname)))
			return
		}
		page(w, `<p id="anonymous">Not logged in: <a href="/login">log in</a>, or <a href="/login-here">log in on this page</a></p>`)
	})
	log.Fatal(http.ListenAndServe("127.0.0.1:"+os.Getenv("PORT"), nil))
}
