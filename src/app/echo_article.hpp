#pragma once
// Article 003's published table (../shared/seeds/003: "What can we learn with a simple gRPC
// service?"): grpc-go's and connect-go's Echo servers and clients, one sequential caller, the mean
// time per call over 10 000 calls, on a DigitalOcean droplet. Carried over as a fact of the
// article's machine, for `run --scenario echo` and its report page to print beside our figures;
// never mixed into ours.
#include <array>
#include <string_view>

namespace wirebench::app {

struct echo_article_row {
  std::string_view server;   // in our table's words: "grpc-go", "connect-go"
  std::string_view client;   // "grpc-go", "connect-go/connect", "connect-go/grpc", "connect-go/grpc-web"
  std::string_view address;  // as the article wrote it: "unix:@echo", "localhost:8080", "alfa:8080"
  std::string_view kind;     // "abstract", "tcp", "remote" (another droplet)
  std::array<double, 4> mean_us;  // Get, Expand, Collect, Update
};

inline constexpr std::array<std::string_view, 4> echo_methods = {"Get", "Expand", "Collect", "Update"};

inline constexpr echo_article_row echo_article_rows[] = {
    {"grpc-go", "grpc-go", "unix:@echo", "abstract", {158.131, 160.999, 178.357, 217.552}},
    {"connect-go", "grpc-go", "unix:@echo", "abstract", {292.234, 340.111, 360.671, 437.888}},
    {"grpc-go", "grpc-go", "localhost:8080", "tcp", {196.621, 203.529, 218.733, 280.604}},
    {"grpc-go", "connect-go/grpc", "localhost:8080", "tcp", {294.809, 307.727, 460.014, 673.919}},
    {"connect-go", "grpc-go", "localhost:8080", "tcp", {429.185, 518.752, 447.123, 687.264}},
    {"connect-go", "connect-go/connect", "localhost:8080", "tcp", {395.142, 859.339, 729.282, 1490.832}},
    {"connect-go", "connect-go/grpc", "localhost:8080", "tcp", {530.93, 716.509, 626.44, 1385.076}},
    {"connect-go", "connect-go/grpc-web", "localhost:8080", "tcp", {570.873, 830.997, 716.208, 1537.577}},
    {"grpc-go", "grpc-go", "alfa:8080", "remote", {827.934, 783.206, 761.023, 840.768}},
    {"grpc-go", "connect-go/grpc", "alfa:8080", "remote", {1206.802, 1139.709, 1731.729, 2168.663}},
};

inline constexpr std::string_view echo_article_machine =
    "article 003's figures (agentio/echo-go, a DigitalOcean droplet; its 'alfa' rows from a second "
    "droplet), not this machine's";

}  // namespace wirebench::app
