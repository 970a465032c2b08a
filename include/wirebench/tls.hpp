#pragma once
// Every header of wirebench's tls layer: TLS under any client codec or server session (OpenSSL over
// memory BIOs).
// (tests/consumer/check_install.sh checks that none is missing.)
#include "wirebench/tls/tls_channel.hpp"
#include "wirebench/tls/tls_client_codec.hpp"
#include "wirebench/tls/tls_context.hpp"
#include "wirebench/tls/tls_options.hpp"
#include "wirebench/tls/tls_server_handler.hpp"
