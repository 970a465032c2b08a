#include "wirebench/tls/tls_context.hpp"

#include <fstream>
#include <stdexcept>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

namespace wirebench::tls {
namespace {

[[noreturn]] void throw_openssl(const std::string& what) {
  std::string why;
  while (const unsigned long e = ERR_get_error()) {
    char text[256];
    ERR_error_string_n(e, text, sizeof text);
    why += why.empty() ? ": " : "; ";
    why += text;
  }
  throw std::runtime_error(what + why);
}

template <typename T, void (*Free)(T*)>
struct freer {
  void operator()(T* p) const { Free(p); }
};
using pkey_ptr = std::unique_ptr<EVP_PKEY, freer<EVP_PKEY, EVP_PKEY_free>>;
using x509_ptr = std::unique_ptr<X509, freer<X509, X509_free>>;
using bio_ptr = std::unique_ptr<BIO, freer<BIO, BIO_free_all>>;

std::string bio_text(BIO* b) {
  char* data = nullptr;
  const long n = BIO_get_mem_data(b, &data);
  return {data, static_cast<std::size_t>(n)};
}

void add_extension(X509* cert, int nid, const char* value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
  if (ext == nullptr) throw_openssl("cannot make a certificate extension");
  X509_add_ext(cert, ext, -1);
  X509_EXTENSION_free(ext);
}

// ALPN protocols on the wire: each name prefixed by its length (RFC 7301, 3.1).
std::string alpn_wire(std::string_view name) {
  std::string wire(1, static_cast<char>(name.size()));
  wire.append(name);
  return wire;
}

int select_alpn(SSL*, const unsigned char** out, unsigned char* outlen, const unsigned char* in,
                unsigned int inlen, void* arg) {
  const auto* ours = static_cast<const std::string*>(arg);
  unsigned char* selected = nullptr;
  if (SSL_select_next_proto(&selected, outlen, reinterpret_cast<const unsigned char*>(ours->data()),
                             static_cast<unsigned int>(ours->size()), in,
                             inlen) != OPENSSL_NPN_NEGOTIATED)
    return SSL_TLSEXT_ERR_ALERT_FATAL;  // no_application_protocol
  *out = selected;
  return SSL_TLSEXT_ERR_OK;
}

// A client that offers no ALPN at all never reaches select_alpn (OpenSSL calls it only when the
// extension is there) and would complete the handshake without h2. RFC 7301, 3.2: a server that
// supports none of the client's protocols answers no_application_protocol; offering none is the
// same case for a server that speaks only ALPN-negotiated protocols.
int require_alpn(SSL* ssl, int* alert, void*) {
  const unsigned char* ext = nullptr;
  std::size_t len = 0;
  if (SSL_client_hello_get0_ext(ssl, TLSEXT_TYPE_application_layer_protocol_negotiation, &ext,
                                &len) == 1)
    return SSL_CLIENT_HELLO_SUCCESS;
  *alert = SSL_AD_NO_APPLICATION_PROTOCOL;
  return SSL_CLIENT_HELLO_ERROR;
}

context_ptr new_context(const SSL_METHOD* method) {
  SSL_CTX* ctx = SSL_CTX_new(method);
  if (ctx == nullptr) throw_openssl("SSL_CTX_new failed");
  // RFC 9113, 9.2: HTTP/2 over TLS needs TLS 1.2 or later.
  SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
  return context_ptr(ctx, SSL_CTX_free);
}

}  // namespace

certificate_pem make_self_signed_certificate(std::string_view common_name) {
  pkey_ptr key(EVP_EC_gen("P-256"));
  if (!key) throw_openssl("cannot generate a P-256 key");
  x509_ptr cert(X509_new());
  X509_set_version(cert.get(), 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -60);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 24 * 3600);
  X509_set_pubkey(cert.get(), key.get());
  X509_NAME* name = X509_get_subject_name(cert.get());
  const std::string cn(common_name);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>(cn.c_str()), -1, -1, 0);
  X509_set_issuer_name(cert.get(), name);
  // The loopback names always, so a test server answers on any of them; a verifier ignores the
  // CN once names are listed, so another common name is listed too.
  const std::string names = (cn == "localhost" ? "" : "DNS:" + cn + ",") + "DNS:localhost,IP:127.0.0.1,IP:::1";
  add_extension(cert.get(), NID_subject_alt_name, names.c_str());
  add_extension(cert.get(), NID_basic_constraints, "critical,CA:TRUE");
  if (X509_sign(cert.get(), key.get(), EVP_sha256()) == 0) throw_openssl("cannot sign the certificate");

  bio_ptr cert_out(BIO_new(BIO_s_mem())), key_out(BIO_new(BIO_s_mem()));
  PEM_write_bio_X509(cert_out.get(), cert.get());
  PEM_write_bio_PrivateKey(key_out.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr);
  return {bio_text(cert_out.get()), bio_text(key_out.get())};
}

// The certificate chain and private key files `options` names, on `ctx`; `whose` words the errors
// ("client " for a client's).
static void use_certificate_files(SSL_CTX* ctx, const tls_options& options, const std::string& whose) {
  // An encrypted key would have OpenSSL ask for its passphrase on the terminal, holding a run or
  // a server's start-up for ever (or until someone types): no passphrase is given, so it fails
  // here and says so.
  SSL_CTX_set_default_passwd_cb(ctx, [](char*, int, int, void*) { return 0; });
  if (SSL_CTX_use_certificate_chain_file(ctx, options.certificate_file.c_str()) != 1)
    throw_openssl("cannot use " + whose + "certificate " + options.certificate_file);
  if (SSL_CTX_use_PrivateKey_file(ctx, options.private_key_file.c_str(), SSL_FILETYPE_PEM) != 1) {
    std::string head(4096, '\0');
    std::ifstream key(options.private_key_file, std::ios::binary);
    key.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(key.gcount()));
    if (head.find("ENCRYPTED") != std::string::npos)
      throw std::runtime_error("cannot use " + whose + "private key " + options.private_key_file +
                               ": it is encrypted, and no passphrase is asked for (decrypt it: openssl pkey "
                               "-in KEY -out PLAIN_KEY)");
    throw_openssl("cannot use " + whose + "private key " + options.private_key_file);
  }
}

context_ptr make_server_context(const tls_options& options, alpn_choice alpn) {
  context_ptr ctx = new_context(TLS_server_method());
  if (options.certificate_file.empty() != options.private_key_file.empty())
    throw std::runtime_error("TLS needs both a certificate file and a private key file, or neither");
  if (!options.certificate_file.empty()) {
    use_certificate_files(ctx.get(), options, "");
  } else {
    const certificate_pem pem = make_self_signed_certificate();
    bio_ptr cert_in(BIO_new_mem_buf(pem.certificate.data(), static_cast<int>(pem.certificate.size())));
    bio_ptr key_in(BIO_new_mem_buf(pem.private_key.data(), static_cast<int>(pem.private_key.size())));
    x509_ptr cert(PEM_read_bio_X509(cert_in.get(), nullptr, nullptr, nullptr));
    pkey_ptr key(PEM_read_bio_PrivateKey(key_in.get(), nullptr, nullptr, nullptr));
    if (!cert || !key || SSL_CTX_use_certificate(ctx.get(), cert.get()) != 1 ||
        SSL_CTX_use_PrivateKey(ctx.get(), key.get()) != 1)
      throw_openssl("cannot use the self-signed certificate");
  }
  if (SSL_CTX_check_private_key(ctx.get()) != 1)
    throw_openssl("the private key does not match the certificate");
  if (!options.client_ca_file.empty()) {
    // Mutual TLS: every client must present a certificate from this CA, which is also named to
    // them in the CertificateRequest (so a client holding several knows which to send).
    if (SSL_CTX_load_verify_locations(ctx.get(), options.client_ca_file.c_str(), nullptr) != 1)
      throw_openssl("cannot load client CA file " + options.client_ca_file);
    STACK_OF(X509_NAME)* names = SSL_load_client_CA_file(options.client_ca_file.c_str());
    if (names == nullptr) throw_openssl("no certificate in client CA file " + options.client_ca_file);
    SSL_CTX_set_client_CA_list(ctx.get(), names);
    SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
  }
  if (!alpn.protocol.empty()) {
    // The callback's argument must live as long as the context: the returned pointer's deleter
    // owns both (holders of a channel keep the context_ptr, so neither dies under a handshake).
    // In our order of preference: SSL_select_next_proto picks the first of ours the client offers.
    auto wire = std::make_shared<std::string>(alpn_wire(alpn.protocol));
    if (!alpn.server_also.empty()) wire->append(alpn_wire(alpn.server_also));
    SSL_CTX_set_alpn_select_cb(ctx.get(), select_alpn, wire.get());
    if (alpn.required && alpn.server_also.empty()) SSL_CTX_set_client_hello_cb(ctx.get(), require_alpn, nullptr);
    return context_ptr(ctx.get(), [ctx, wire](SSL_CTX*) mutable { ctx.reset(); });
  }
  return ctx;
}

context_ptr make_client_context(const tls_options& options, std::string_view alpn) {
  context_ptr ctx = new_context(TLS_client_method());
  if (options.certificate_file.empty() != options.private_key_file.empty())
    throw std::runtime_error("a client certificate needs its private key, and a key its certificate (certificate_file and private_key_file go together)");
  if (!options.certificate_file.empty()) {
    // A client certificate (mutual TLS): sent when the server asks for one.
    use_certificate_files(ctx.get(), options, "client ");
    if (SSL_CTX_check_private_key(ctx.get()) != 1)
      throw_openssl("the client private key does not match the client certificate");
  }
  if (!options.insecure) {
    if (!options.ca_file.empty()) {
      if (SSL_CTX_load_verify_locations(ctx.get(), options.ca_file.c_str(), nullptr) != 1)
        throw_openssl("cannot load CA file " + options.ca_file);
    } else if (SSL_CTX_set_default_verify_paths(ctx.get()) != 1) {
      throw_openssl("cannot load the system's CA certificates");
    }
    SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
  }
  if (!alpn.empty()) {
    const std::string wire = alpn_wire(alpn);
    // Note the inverted convention: SSL_CTX_set_alpn_protos returns 0 on success.
    if (SSL_CTX_set_alpn_protos(ctx.get(), reinterpret_cast<const unsigned char*>(wire.data()),
                                static_cast<unsigned int>(wire.size())) != 0)
      throw_openssl("cannot set ALPN");
  }
  return ctx;
}

}  // namespace wirebench::tls
