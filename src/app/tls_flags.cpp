#include "tls_flags.hpp"

namespace wirebench::app {

void add_tls_client_flags(CLI::App& cmd, tls_options& tls) {
  cmd.add_flag("--tls", tls.enabled,
               "Connect over TLS (ALPN h2 for http2, http/1.1 for http1), verifying the server's "
               "certificate and name against the system's CAs or --tls-ca");
  cmd.add_option("--tls-ca,--cacert", tls.ca_file,
                 "Verify the server's certificate against this CA (PEM); implies --tls")
      ->check(CLI::ExistingFile);
  cmd.add_flag("-k,--insecure", tls.insecure,
               "TLS without verifying the server's certificate (a self-signed one); implies --tls");
  cmd.add_option("-E,--cert", tls.certificate_file,
                 "Mutual TLS: this client certificate (PEM), with --key; implies --tls")
      ->check(CLI::ExistingFile);
  cmd.add_option("--key", tls.private_key_file, "The client certificate's private key (PEM)")
      ->check(CLI::ExistingFile);
  cmd.add_option("--tls-server-name", tls.server_name,
                 "The name sent as SNI and checked against the server's certificate, instead of "
                 "the host dialed; implies --tls");
}

std::string settle_tls_client_flags(tls_options& tls) {
  if (tls.insecure && !tls.ca_file.empty())
    return "--insecure and --tls-ca do not go together: verify against the CA, or not at all";
  if (tls.certificate_file.empty() != tls.private_key_file.empty())
    return tls.certificate_file.empty() ? "--key needs --cert (the client certificate it belongs to)"
                                        : "--cert needs --key (its private key)";
  if (tls.insecure || !tls.ca_file.empty() || !tls.certificate_file.empty() ||
      !tls.server_name.empty())
    tls.enabled = true;
  return {};
}

}  // namespace wirebench::app
