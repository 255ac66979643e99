# A site in Ruby on Rails (Debian's ruby-rails, 6.1) beside esign-proxy, in one file: the person logs in
# by OpenID Connect with OmniAuth's openid_connect strategy (Debian's ruby-omniauth-openid-connect,
# the gem gitlab-omniauth-openid-connect; esign-proxy is the provider) on the provider's page, the
# login started by a POST that carries Rails' own authenticity token (omniauth-rails_csrf_protection);
# the signing gate's question is answered from the Rails session, and the signed files come as
# signed Standard Webhooks deliveries, each taken once. The two URLs esign-proxy POSTs to skip
# Rails' CSRF check (they are signed instead): without that, Rails answers them 422. Run with nginx
# in front (docs/any-stack.md), which passes X-Forwarded-Proto so that Rails knows it is https:
#
#   PORT=8080 PUBLIC_URL=https://site.example ESIGN_OIDC_ISSUER=https://site.example/esign/oidc \
#   OIDC_CLIENT_ID=site OIDC_CLIENT_SECRET=... ESIGN_WEBHOOK_SECRET=whsec_... SESSION_SECRET=... \
#   SITE_DIR=/var/lib/site ruby app.rb
require 'rails'
require 'action_controller/railtie'
require 'omniauth_openid_connect'
require 'omniauth/rails_csrf_protection'
require 'base64'
require 'digest'
require 'fileutils'
require 'json'
require 'openssl'
require 'rack/handler/webrick'

PUBLIC_URL = ENV.fetch('PUBLIC_URL').delete_suffix('/')
ISSUER = URI(ENV.fetch('ESIGN_OIDC_ISSUER').delete_suffix('/'))
HTTPS = PUBLIC_URL.start_with?('https:')
# discovery over plain http only for an issuer on this machine (development and tests)
SWD.url_builder = URI::HTTP if ISSUER.scheme == 'http' && %w[127.0.0.1 localhost].include?(ISSUER.host)
# httpclient trusts a CA list of its own by default: the system's store instead (and SSL_CERT_FILE)
[SWD, OpenIDConnect].each { |library| library.http_config { |client| client.ssl_config.set_default_paths } }
KEY = Base64.strict_decode64(ENV.fetch('ESIGN_WEBHOOK_SECRET').delete_prefix('whsec_'))
# every webhook-id taken, as a file made only if absent: a restart and every process see it
DELIVERIES = File.join(ENV.fetch('SITE_DIR', 'site-data'), 'deliveries')
FileUtils.mkdir_p(DELIVERIES, mode: 0o700)

class Site < Rails::Application
  config.load_defaults 6.1 # as a new app has it: every controller checks Rails' authenticity token
  config.root = __dir__
  config.eager_load = false
  config.logger = Logger.new($stderr, level: :warn)
  config.secret_key_base = Digest::SHA256.hexdigest("rails session: #{ENV.fetch('SESSION_SECRET')}")
  config.hosts << URI(PUBLIC_URL).host
  # the session in Rails' encrypted cookie; over https, Secure
  config.session_store :cookie_store, key: 'host_session', secure: HTTPS, same_site: :lax, httponly: true
  config.middleware.use OmniAuth::Builder do
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
end

Site.initialize!

# as a Rails app's own: every POST carries Rails' authenticity token, or is refused (422)
class ApplicationController < ActionController::Base
  protect_from_forgery with: :exception
end

class PagesController < ApplicationController
  def home
    person = session['person']
    return page(%(<p id="welcome">Welcome, #{ERB::Util.h(person['name'])} #{ERB::Util.h(person['surname'])}</p>)) if person

    # OmniAuth 2 starts a login by a POST with Rails' authenticity token (no login by a link another site plants)
    page(%(<p id="anonymous">Not logged in</p><form method="post" action="/auth/esign"><input type="hidden" name="authenticity_token" value="#{ERB::Util.h(form_authenticity_token)}"><button id="login" type="submit">Log in</button></form>))
  end

  # OmniAuth's callback: the verified person from the ID token, into a new session
  def callback
    info = request.env['omniauth.auth'].extra.raw_info
    reset_session # a new session at login, against fixation: nothing of the one before carries over
    # a person is a country and a code
    session['person'] = { 'country' => info['nin_issuing_country'], 'code' => info['nin'], 'name' => info['given_name'], 'surname' => info['family_name'] }
    redirect_to '/', status: :see_other
  end

  def failure
    page(%(<p id="refused">Not logged in: #{ERB::Util.h(params['message'].to_s)}</p>))
  end

  def me
    person = session['person']
    return render(json: { loggedIn: false }, status: :unauthorized) unless person

    render json: person
  end

  private

  def page(body)
    render html: <<~HTML.html_safe # rubocop:disable Rails/OutputSafety -- every value in it escaped above
      <!doctype html><html lang="en"><head><meta charset="utf-8"><title>Rails</title>
      <script type="module" src="/esign/cdn/esign-identify.js"></script></head>
      <body><h1>A site in Ruby on Rails</h1>#{body}</body></html>
    HTML
  end
end

# What esign-proxy POSTs: signed as Standard Webhooks deliveries, so Rails' CSRF check is not theirs
class EsignController < ApplicationController
  skip_forgery_protection

  def webhook
    body = verified
    return head(:bad_request) unless body

    delivery = JSON.parse(body)
    # a fact (a signed file, a document's state), taken once; no delivery logs anyone in
    Rails.logger.info("took a delivery: #{delivery['type']}") if first_time(request.headers['webhook-id'])
    head :no_content
  end

  def signer
    return head(:bad_request) unless verified

    person = session['person']
    render json: person ? { 'country' => person['country'], 'code' => person['code'] } : nil
  end

  private

  def verified
    body = request.raw_post.to_s
    id = request.headers['webhook-id'].to_s
    stamp = request.headers['webhook-timestamp'].to_s
    return nil if id.empty? || stamp !~ /\A\d+\z/ || (Time.now.to_i - stamp.to_i).abs > 300

    expected = Base64.strict_encode64(OpenSSL::HMAC.digest('SHA256', KEY, "#{id}.#{stamp}.#{body}"))
    signatures = request.headers['webhook-signature'].to_s.split(' ')
    ok = signatures.any? { |s| s.start_with?('v1,') && ActiveSupport::SecurityUtils.secure_compare(s.delete_prefix('v1,'), expected) }
    ok ? body : nil
  end

  # whether this webhook-id is new: a repeat (esign-proxy's retry, a copy) changes nothing
  def first_time(id)
    File.open(File.join(DELIVERIES, Digest::SHA256.hexdigest(id)), File::WRONLY | File::CREAT | File::EXCL, 0o600).close
    true
  rescue Errno::EEXIST
    false
  end
end

Site.routes.draw do
  get '/' => 'pages#home'
  get '/auth/esign/callback' => 'pages#callback'
  get '/auth/failure' => 'pages#failure'
  get '/me' => 'pages#me'
  post '/esign-webhook' => 'esign#webhook'
  post '/esign-signer' => 'esign#signer'
end

Rack::Handler::WEBrick.run(Site, Host: '127.0.0.1', Port: Integer(ENV.fetch('PORT')), AccessLog: [], Logger: WEBrick::Log.new($stderr, WEBrick::Log::WARN)) if $PROGRAM_NAME == __FILE__
