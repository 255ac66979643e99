# A site in Ruby (Sinatra) beside esign-proxy: the verified person into the site's own session from
# a signed webhook delivery, the signing gate's question answered from that session, and the
# greeting from the server. Run with nginx in front (docs/any-stack.md):
#
#   PORT=8080 ESIGN_WEBHOOK_SECRET=whsec_... ruby app.rb
require 'sinatra/base'
require 'base64'
require 'cgi'
require 'json'
require 'openssl'
require 'securerandom'

class Site < Sinatra::Base
  set :bind, '127.0.0.1'
  set :port, Integer(ENV.fetch('PORT'))
  set :logging, false

  KEY = Base64.strict_decode64(ENV.fetch('ESIGN_WEBHOOK_SECRET').delete_prefix('whsec_'))
  # this site's sessions, by the id in its cookie; a person is a country and a code
  SESSIONS = {}
  # each webhook-id taken, until its delivery can no longer verify (both ways of five minutes):
  # several processes of a site keep these where they all look (the database, Redis)
  SEEN = {}
  LOCK = Mutex.new

  helpers do
    # A delivery signed as Standard Webhooks says, or nil: the signature of id.timestamp.body
    # under the secret, and a timestamp within five minutes (no replay of an old one).
    def verified
      body = request.body.read(1 << 20).to_s
      id = request.env['HTTP_WEBHOOK_ID'].to_s
      stamp = request.env['HTTP_WEBHOOK_TIMESTAMP'].to_s
      return nil if id.empty? || stamp !~ /\A\d+\z/ || (Time.now.to_i - stamp.to_i).abs > 300
      expected = Base64.strict_encode64(OpenSSL::HMAC.digest('SHA256', KEY, "#{id}.#{stamp}.#{body}"))
      signatures = request.env['HTTP_WEBHOOK_SIGNATURE'].to_s.split(' ')
      ok = signatures.any? { |s| s.start_with?('v1,') && Rack::Utils.secure_compare(s.delete_prefix('v1,'), expected) }
      ok ? body : nil
    end

    # Whether this webhook-id is new: a repeat (esign-proxy's retry, or a delivery captured and
    # sent again) is answered 2xx and changes nothing.
    def first_time(id)
      LOCK.synchronize do
        now = Time.now.to_i
        SEEN.delete_if { |_, until_at| until_at < now }
        next false if SEEN.key?(id)
        SEEN[id] = now + 600
        true
      end
    end

    def signed_in
      LOCK.synchronize { SESSIONS[request.cookies['host_session']] }
    end
  end

  # the verified result, before the browser sees it: a login becomes this site's session
  post '/esign-webhook' do
    body = verified
    halt 400, 'not a delivery of ours' unless body
    delivery = JSON.parse(body)
    halt 204 unless first_time(request.env['HTTP_WEBHOOK_ID'])
    if delivery['type'] == 'login.verified'
      session = SecureRandom.hex(24) # a new session id at login, against fixation
      LOCK.synchronize { SESSIONS[session] = delivery['data']['result'].slice('country', 'code', 'name', 'surname') }
      response.set_cookie('host_session', value: session, path: '/', httponly: true, same_site: :lax)
    end
    status 204
  end

  # the signing gate asks who is signed in: the person of this browser's session, or null
  post '/esign-signer' do
    halt 400, 'not a question of ours' unless verified
    content_type :json
    person = signed_in
    person ? JSON.generate('country' => person['country'], 'code' => person['code']) : 'null'
  end

  # what the server knows, whatever the browser's events said
  get '/me' do
    content_type :json
    person = signed_in
    halt 401, '{"loggedIn":false}' unless person
    JSON.generate(person)
  end

  get '/' do
    person = signed_in
    greeting = person ? %(<p id="welcome">Welcome, #{CGI.escapeHTML(person['name'])} #{CGI.escapeHTML(person['surname'])}</p>) : '<p id="anonymous">Not logged in</p>'
    <<~HTML
      <!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ruby</title>
      <script type="module" src="/esign/cdn/esign-identify.js"></script></head>
      <body><h1>A site in Ruby</h1>#{greeting}<esign-identify endpoint="/esign" channels="smartid" country="EE"></esign-identify></body></html>
    HTML
  end

  run! if app_file == $PROGRAM_NAME
end
