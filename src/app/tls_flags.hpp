#pragma once
// The client's TLS flags, shared by `call` and `run`, as curl names them: --tls, --tls-ca FILE
// (--cacert), -k/--insecure, -E/--cert and --key (a client certificate, for servers that require
// one), and --tls-server-name (the name sent as SNI and verified, when it is not the host
// dialed). Verification is on unless --insecure: against --tls-ca, or the system's CAs.
#include <string>

#include <CLI/CLI.hpp>

#include "wirebench/tls/tls_options.hpp"

namespace wirebench::app {

void add_tls_client_flags(CLI::App& cmd, tls_options& tls);

// After parsing: --tls-ca, --insecure, --cert and --tls-server-name each imply --tls; --tls-ca
// and --insecure do not go together; --cert and --key come together. "" when the flags are
// consistent; else the one-line problem (exit status 2).
std::string settle_tls_client_flags(tls_options& tls);

}  // namespace wirebench::app
