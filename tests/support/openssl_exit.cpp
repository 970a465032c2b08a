// OpenSSL's clean-up at exit is skipped in the test binaries. It deletes the per-thread key under
// which each thread's OpenSSL error state lives; a gRPC thread that is still running then (grpc++
// ends its threads after main returns) exits later without freeing its state, and LeakSanitizer
// reports those ~900 bytes, now and then (grpc/grpc#38539). Skipped, every thread frees its own.
// It must be the first OpenSSL call in the process, so it runs as a static initialiser.
#include <openssl/crypto.h>

namespace {
[[maybe_unused]] const int openssl_without_atexit = OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, nullptr);
}  // namespace
