# A site in Ruby (Sinatra) beside esign-proxy: the person logs in by OpenID Connect with OmniAuth's
# openid_connect strategy (Debian's ruby-omniauth-openid-connect; esign-proxy is the provider) on the
# provider's page; the signing gate's question is answered from the site's session, and the signed
# files come as signed Standard Webhooks deliveries, each taken once. Run with nginx in front
# (docs/any-stack.md):
#
#   PORT=8080 PUBLIC_URL=https://site.example ESIGN_OIDC_ISSUER=https://site.example/esign/oidc \
#   OIDC_CLIENT_ID=site OIDC_CLIENT_SECRET=... ESIGN_WEBHOOK_SECRET=whsec_... SESSION_SECRET=... \
#   SITE_DIR=/var/lib/site ruby app.rb
require 'sinatra/base'
require 'omniauth_openid_connect'
require 'base64'
require 'cgi'
require 'digest'
require 'fileutils'
require 'json'
require 'openssl'
require 'securerandom'

PUBLIC_URL = ENV.fetch('PUBLIC_URL').delete_suffix('/')
ISSUER = URI(ENV.fetch('ESIGN_OIDC_ISSUER').delete_suffix('/'))
# discovery over plain http only for an issuer on this machine (development and tests)
SWD.url_builder = URI::HTTP if ISSUER.scheme == 'http' && %w[127.0.0.1 localhost].include?(ISSUER.host)
# httpclient trusts a CA list of its own by default: the system's store instead (and SSL_CERT_FILE, for
# a CA of your own), for discovery and for the token, userinfo and key requests
[SWD, OpenIDConnect].each { |library| library.http_config { |client| client.ssl_config.set_default_paths } }

class Site < Sinatra::Base
  set :bind, '127.0.0.1'
  set :port, Integer(ENV.fetch('PORT'))
  set :logging, false

  KEY = Base64.strict_decode64(ENV.fetch('ESIGN_WEBHOOK_SECRET').delete_prefix('whsec_'))
  # every webhook-id taken, as a file made only if absent: a restart and every process see it
  DELIVERIES = File.join(ENV.fetch('SITE_DIR', 'site-data'), 'deliveries')
  FileUtils.mkdir_p(DELIVERIES, mode: 0o700)

  # the session in a signed, encrypted cookie; over https, secure: true
  use Rack::Session::Cookie, key: 'host_session', secret: ENV.fetch('SESSION_SECRET'), same_site: :lax, httponly: true, secure: PUBLIC_URL.start_with?('https:')
  use OmniAuth::Builder do
    provider :openid_connect,
             name: :esign, issuer: ISSUER.to_s, discovery: true, response_type: :code,
             scope: %i[openid profile nin], ui_locales: 'en',
             client_options: {
               identifier: ENV.fetch('OIDC_CLIENT_ID'), secret: ENV.fetch('OIDC_CLIENT_SECRET'),
               redirect_uri: "#{PUBLIC_URL}/auth/esign/callback",
               scheme: ISSUER.scheme, host: ISSUER.host, port: ISSUER.port
             }
  end
  # a refused login (access_denied) comes back to /auth/failure, not as an exception
  OmniAuth.config.on_failure = proc { |env| [302, { 'location' => "/auth/failure?message=#{CGI.escape(env['omniauth.error.type'].to_s)}" }, []] }

  helpers do
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

    # whether this webhook-id is new: a repeat (esign-proxy's retry, a copy) changes nothing
    def first_time(id)
      File.open(File.join(DELIVERIES, Digest::SHA256.hexdigest(id)), File::WRONLY | File::CREAT | File::EXCL, 0o600).close
      true
    rescue Errno::EEXIST
      false
    end

    def page(body)
      <<~HTML
        <!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ruby</title>
        <script type="module" src="/esign/cdn/esign-identify.js"></script></head>
        <body><h1>A site in Ruby</h1>#{body}</body></html>
      HTML
    end
  end

  # OmniAuth's callback: the verified person from the ID token, into a new session
  get '/auth/esign/callback' do
    info = request.env['omniauth.auth'].extra.raw_info
    session.clear # a new session at login, against fixation: nothing of the one before carries over
    # a person is a country and a code
    session['person'] = { 'country' => info['nin_issuing_country'], 'code' => info['nin'], 'name' => info['given_name'], 'surname' => info['family_name'] }
    redirect '/', 303
  end

  get '/auth/failure' do
    page(%(<p id="refused">Not logged in: #{CGI.escapeHTML(params['message'].to_s)}</p>))
  end

  post '/esign-webhook' do
    body = verified
    halt 400, 'not a delivery of ours' unless body
    delivery = JSON.parse(body)
    # a fact (a signed file, a document's state), taken once; no delivery logs anyone in
    logger.info("took a delivery: #{delivery['type']}") if first_time(request.env['HTTP_WEBHOOK_ID'])
    status 204
  end

  post '/esign-signer' do
    halt 400, 'not a question of ours' unless verified
    content_type :json
    person = session['person']
    person ? JSON.generate('country' => person['country'], 'code' => person['code']) : 'null'
  end

  get '/me' do
    content_type :json
    person = session['person']
    halt 401, '{"loggedIn":false}' unless person
    JSON.generate(person)
  end

  get '/' do
    person = session['person']
    next page(%(<p id="welcome">Welcome, #{CGI.escapeHTML(person['name'])} #{CGI.escapeHTML(person['surname'])}</p>)) if person

    # OmniAuth 2 starts a login by a POST that carries the session's authenticity token (no login by a link another site plants)
    token = Rack::Protection::AuthenticityToken.token(session)
    page(%(<p id="anonymous">Not logged in</p><form method="post" action="/auth/esign"><input type="hidden" name="authenticity_token" value="#{CGI.escapeHTML(token)}"><button id="login" type="submit">Log in</button></form>))
  end

  run! if app_file == $PROGRAM_NAME
end
