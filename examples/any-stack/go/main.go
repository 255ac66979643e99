// A site in Go (standard library only) beside esign-proxy: the verified person into the site's own
// session from a signed webhook delivery, the signing gate's question answered from that session,
// and the greeting from the server. Run with nginx in front (docs/any-stack.md):
//
//	PORT=8080 ESIGN_WEBHOOK_SECRET=whsec_... go run main.go
package main

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"log"
	"math"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A person is a country and a code: the same digits in two countries are two people.
type person struct {
	Country string `json:"country"`
	Code    string `json:"code"`
	Name    string `json:"name"`
	Surname string `json:"surname"`
}

var (
	mu       sync.Mutex
	sessions = map[string]person{}    // this site's sessions, by the id in its cookie
	seen     = map[string]time.Time{} // each webhook-id taken, until its delivery can no longer verify
)

// firstTime says whether this webhook-id is new, and remembers it for the tolerance window (both
// ways): a delivery captured on its way and sent again gets no new session. Several processes of
// a site keep these where they all look (the database, Redis).
func firstTime(id string) bool {
	mu.Lock()
	defer mu.Unlock()
	now := time.Now()
	for known, until := range seen {
		if now.After(until) {
			delete(seen, known)
		}
	}
	if _, ok := seen[id]; ok {
		return false
	}
	seen[id] = now.Add(10 * time.Minute)
	return true
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

func main() {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(os.Getenv("ESIGN_WEBHOOK_SECRET"), "whsec_"))
	if err != nil || len(key) == 0 {
		log.Fatal("ESIGN_WEBHOOK_SECRET must be a whsec_ secret")
	}
	// the verified result, before the browser sees it: a login becomes this site's session
	http.HandleFunc("/esign-webhook", func(w http.ResponseWriter, r *http.Request) {
		body := verified(r, key)
		if r.Method != http.MethodPost || body == nil {
			http.Error(w, "not a delivery of ours", http.StatusBadRequest)
			return
		}
		var delivery struct {
			Type string `json:"type"`
			Data struct {
				Result person `json:"result"`
			} `json:"data"`
		}
		if json.Unmarshal(body, &delivery) != nil {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		// a repeat (esign-proxy's own retry, or a replay) is taken again, and changes nothing
		if !firstTime(r.Header.Get("webhook-id")) {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		if delivery.Type == "login.verified" {
			id := make([]byte, 24)
			rand.Read(id)
			session := hex.EncodeToString(id) // a new session id at login, against fixation
			mu.Lock()
			sessions[session] = delivery.Data.Result
			mu.Unlock()
			http.SetCookie(w, &http.Cookie{Name: "host_session", Value: session, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode})
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
		greeting := `<p id="anonymous">Not logged in</p>`
		if p, ok := signedIn(r); ok {
			greeting = fmt.Sprintf(`<p id="welcome">Welcome, %s %s</p>`, html.EscapeString(p.Name), html.EscapeString(p.Surname))
		}
		w.Header().Set("content-type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Go</title>
<script type="module" src="/esign/cdn/esign-identify.js"></script></head>
<body><h1>A site in Go</h1>%s<esign-identify endpoint="/esign" channels="smartid" country="EE"></esign-identify></body></html>`, greeting)
	})
	log.Fatal(http.ListenAndServe("127.0.0.1:"+os.Getenv("PORT"), nil))
}
