// Input a careless user or a hostile file gives the tools, each small enough for the suite but
// shaped as the cases that once crashed or took gigabytes: a YAML alias bomb, a 40 000-digit
// scalar, JSON nested 80 000 deep in -d, a workload and a results file, /dev/zero or
// /dev/urandom where a file is read, and flags without an upper bound. Each ends with exit 2 (1
// for a results file) and one line naming the file or flag, in bounded time and memory: the program runs under an
// address-space cap and its peak RSS is checked.
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_paths.h"

namespace wirebench {
namespace {

// A sanitizer build's program cannot run under an address-space cap, and takes more memory for
// the same work: the peak RSS is still checked, against a higher bound.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool sanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool sanitized = true;
#else
constexpr bool sanitized = false;
#endif
#else
constexpr bool sanitized = false;
#endif
constexpr long most_rss_kb = sanitized ? 1024 * 1024 : 256 * 1024;

struct capped_result {
  int status = -1;       // the exit status; -1 when a signal ended it
  std::string out;       // stdout and stderr
  long max_rss_kb = 0;   // the program's peak resident set
};

// `wirebench ARGS` with at most 2 GiB of address space (a runaway allocation fails instead of
// taking the machine; not under a sanitizer), its output in a file; its peak RSS from wait4().
capped_result run_capped(const std::vector<std::string>& args) {
  const std::string out_path = ::testing::TempDir() + "/hostile-" + std::to_string(::getpid()) + ".out";
  const std::string program = WIREBENCH_CLI;
  std::vector<char*> argv{const_cast<char*>(program.c_str())};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (!sanitized) {  // ASan and TSan reserve terabytes of shadow address space at start
      const rlimit cap{2ul << 30, 2ul << 30};
      ::setrlimit(RLIMIT_AS, &cap);
    }
    const int fd = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    ::execv(program.c_str(), argv.data());
    ::_exit(127);
  }
  capped_result r;
  int status = 0;
  rusage usage{};
  ::wait4(pid, &status, 0, &usage);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.max_rss_kb = usage.ru_maxrss;
  std::ifstream in(out_path);
  r.out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return r;
}

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + std::to_string(::getpid()) + "-" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// Refused with `status` (2: a flag or an input of `run`; 1: a results file `report` or `merge`
// cannot use, as for any other), the one line containing `says`, well under the cap.
void expect_refused(const std::vector<std::string>& args, const std::string& says, int status = 2) {
  const auto start = std::chrono::steady_clock::now();
  const capped_result r = run_capped(args);
  EXPECT_EQ(r.status, status) << r.out;
  EXPECT_NE(r.out.find(says), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << "one line: " << r.out;
  EXPECT_LT(r.max_rss_kb, most_rss_kb) << r.out;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
}

TEST(hostile_input, a_yaml_alias_bomb_is_refused_before_it_expands) {
  // Nine aliases of nine of the last, nine levels deep: 9^9 (387 million) values from 600 bytes.
  std::string yaml = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int level = 1; level <= 8; ++level) {
    const std::string prev = "*a" + std::to_string(level - 1);
    yaml += "a" + std::to_string(level) + ": &a" + std::to_string(level) + " [";
    for (int i = 0; i < 9; ++i) yaml += (i ? ", " : "") + prev;
    yaml += "]\n";
  }
  yaml += "http: [*a8]\n";
  const std::string file = write_file("laughs.yaml", yaml);
  expect_refused({"run", "-p", "http1", "--workload", file, "-D", "0.2", "-q"},
                 file + ": expands to more than 1000000 values");
}

TEST(hostile_input, yaml_nested_in_block_style_is_refused_past_64_levels) {
  // "- - - - x": no bracket for the text's check to count; the reader counts the levels itself.
  std::string yaml;
  for (int i = 0; i < 300; ++i) yaml += "- ";  // yaml-cpp refuses some hundreds more itself
  const std::string file = write_file("nested.yaml", yaml + "x\n");
  expect_refused({"run", "-p", "http1", "--workload", file, "-D", "0.2", "-q"}, "nests deeper than 64 levels");
}

TEST(hostile_input, a_scalar_of_forty_thousand_digits_is_a_value_not_a_crash) {
  const std::string file = write_file("digits.yaml", "http:\n  requests:\n    - url: /x\n      weight: " + std::string(40000, '9') + "\n");
  const capped_result r = run_capped({"run", "-p", "http1", "--workload", file, "-D", "0.2", "-q"});
  EXPECT_EQ(r.status, 2) << r.out;  // refused by the schema, naming the field
  EXPECT_NE(r.out.find("weight"), std::string::npos) << r.out;
}

TEST(hostile_input, json_nested_eighty_thousand_deep_is_refused_where_it_is_read) {
  const std::string deep = std::string(80000, '[') + std::string(80000, ']');
  const std::string data = write_file("deep.json", deep);
  expect_refused({"run", "-p", "grpc", "--proto", WIREBENCH_ECHO_PROTO, "--call", "wirebench.echo.Echo/Collect",
                  "-d", "@" + data, "-D", "0.2", "-q"},
                 "-d: the JSON nests deeper than 64 levels");
  expect_refused({"run", "-p", "msgpack-rpc", "--method", "m", "-d", "@" + data, "-D", "0.2", "-q"},
                 "-d: the JSON nests deeper than 64 levels");
  const std::string workload = write_file("deep-workload.json", R"({"msgpack-rpc": [{"method": "m", "params": )" + deep + "}]}");
  expect_refused({"run", "-p", "msgpack-rpc", "--workload", workload, "-D", "0.2", "-q"},
                 "--workload " + workload + ": nests deeper than 64 levels");
  const std::string results = write_file("deep-results.json", deep);
  expect_refused({"report", results, "-o", ::testing::TempDir() + "/deep.html"}, results + ": nests deeper than 64 levels", 1);
}

TEST(hostile_input, files_that_never_end_are_refused_before_they_are_read) {
  expect_refused({"run", "-p", "http1", "--workload", "/dev/zero", "-D", "0.2", "-q"},
                 "--workload /dev/zero: not a file or a pipe");
  expect_refused({"run", "-p", "grpc", "--proto", WIREBENCH_ECHO_PROTO, "--call", "wirebench.echo.Echo/Get", "-d",
                  "@/dev/urandom", "-D", "0.2", "-q"},
                 "@/dev/urandom: not a file or a pipe");
  expect_refused({"run", "-p", "http1", "--request", "@/dev/zero", "-D", "0.2", "-q"},
                 "--request /dev/zero: not a file or a pipe");
  expect_refused({"run", "-p", "http1", "--url", "http://127.0.0.1:1/__pick(@/dev/zero)__", "-D", "0.2", "-q"},
                 "/dev/zero: not a file or a pipe");
  expect_refused({"run", "-p", "http1", "--url", "http://127.0.0.1:1/__csv(/dev/zero:a)__", "-D", "0.2", "-q"},
                 "/dev/zero: not a file or a pipe");
  const std::string workload = write_file("body.json", R"({"http": {"requests": [{"url": "/x", "body_file": "/dev/zero"}]}})");
  expect_refused({"run", "-p", "http1", "--workload", workload, "-D", "0.2", "-q"}, "/dev/zero: not a file or a pipe");
  expect_refused({"report", "/dev/zero", "-o", ::testing::TempDir() + "/zero.html"}, "/dev/zero: not a file or a pipe", 1);
  expect_refused({"merge", "/dev/zero", "/dev/zero", "-o", ::testing::TempDir() + "/zero.json"},
                 "/dev/zero: not a file or a pipe", 1);
}

TEST(hostile_input, a_request_file_of_a_million_lines_is_refused_at_its_101st) {
  std::string lines;
  for (int i = 0; i < 1'000'000; ++i) lines += "GET /x" + std::to_string(i) + "\n";
  const std::string file = write_file("requests.txt", lines);
  expect_refused({"run", "-p", "http1", "--request", "@" + file, "-D", "0.2", "-q"},
                 "--request @" + file + ":101: more than 100 requests");
}

TEST(hostile_input, a_file_over_its_limit_is_refused_by_its_size) {
  // A sparse file: 17 MiB long, no disk taken, over a workload's 16 MiB.
  const std::string path = ::testing::TempDir() + "/" + std::to_string(::getpid()) + "-big.json";
  { std::ofstream(path) << ""; }
  ASSERT_EQ(::truncate(path.c_str(), 17l << 20), 0);
  expect_refused({"run", "-p", "http1", "--workload", path, "-D", "0.2", "-q"},
                 "--workload " + path + ": more than 16 MiB");
  ::unlink(path.c_str());
}

TEST(hostile_input, picks_and_payloads_are_sized_before_they_are_built) {
  // Ten two-value picks (1024 variants) beside a 1 MiB body: 1 GiB a connection, refused before
  // one variant is built; with four workers on their own connections, four times that.
  std::string url = "http://127.0.0.1:1/";
  for (int i = 0; i < 10; ++i) url += "__pick(a|b)__";
  for (const char* workers : {"1", "4"})
    expect_refused({"run", "-p", "http1", "--url", url, "-d", "__payload_1048576__", "--workers", workers, "-D", "0.2", "-q"},
                   "requests: their variants come to 1024 MiB, 1024 of them, on each of");
}

// A results file of a real run, read back as JSON, for the cases below to bend.
nlohmann::json a_results_file() {
  static const nlohmann::json doc = [] {
    const std::string path = ::testing::TempDir() + "/" + std::to_string(::getpid()) + "-real.json";
    const capped_result r = run_capped({"run", "-p", "line", "-D", "0.2", "-r", "1", "-q", "--out", path});
    EXPECT_EQ(r.status, 0) << r.out;
    std::ifstream in(path);
    return nlohmann::json::parse(in);
  }();
  return doc;
}

std::string write_json(const std::string& name, const nlohmann::json& doc) { return write_file(name, doc.dump()); }

TEST(hostile_input, results_files_are_sized_and_ranged_before_they_are_built) {
  // A repeat listing 1000 requests for a point of none: each would be a 216 KB histogram.
  nlohmann::json doc = a_results_file();
  nlohmann::json& repeat = doc["points"][0]["repeats"][0];
  nlohmann::json request = {{"latency_histogram", repeat["latency_histogram"]},
                            {"outcomes", repeat["outcomes"]}, {"errors", repeat["errors"]},
                            {"error_samples", nlohmann::json::array()}, {"late", 0}};
  repeat["requests"] = nlohmann::json::array();
  for (int i = 0; i < 1000; ++i) repeat["requests"].push_back(request);
  const std::string many = write_json("many-requests.json", doc);
  expect_refused({"report", many, "-o", many + ".html"},
                 many + ": file.points[0].repeats[0].requests has 1000 requests, the point 0", 1);
  // 2100 repeats, 4200 histograms, in a file of a few megabytes.
  doc = a_results_file();
  nlohmann::json one = doc["points"][0]["repeats"][0];
  one.erase("timeline");
  doc["points"][0]["repeats"] = nlohmann::json::array();
  for (int i = 0; i < 2100; ++i) doc["points"][0]["repeats"].push_back(one);
  const std::string repeats = write_json("many-repeats.json", doc);
  expect_refused({"report", repeats, "-o", repeats + ".html"},
                 repeats + ": file.points hold 4200 latency histograms, more than the 4096", 1);
  // A count past 2^48: merged with itself it would wrap.
  doc = a_results_file();
  doc["points"][0]["repeats"][0]["late"] = std::uint64_t{1} << 63;
  const std::string huge = write_json("huge-count.json", doc);
  expect_refused({"merge", huge, huge, "-o", huge + ".merged.json"},
                 huge + ": file.points[0].repeats[0].late is 9223372036854775808, past 2^48", 1);
}

TEST(hostile_input, generators_a_day_apart_are_refused_before_their_timelines_are_joined) {
  nlohmann::json doc = a_results_file();
  for (auto& point : doc["points"]) point["parameters"]["server_local"] = false;  // as --connect's
  const std::string now = write_json("today.json", doc);
  for (auto& repeat : doc["points"][0]["repeats"]) {
    repeat["window_start_unix"] = repeat["window_start_unix"].get<double>() + 86400;
    repeat["timeline"]["start_unix"] = repeat["timeline"]["start_unix"].get<double>() + 86400;
  }
  doc["started_at"] = "2099-01-02T00:00:00Z";  // another generator's run
  const std::string later = write_json("tomorrow.json", doc);
  expect_refused({"merge", now, later, "-o", later + ".merged.json"}, "do not overlap", 1);
}

TEST(hostile_input, json_that_does_not_parse_is_named_in_the_users_terms) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"run", "-p", "grpc", "--proto", WIREBENCH_ECHO_PROTO, "--call", "wirebench.echo.Echo/Collect", "-d",
            R"([{"text": x}])", "-D", "0.2", "-q"},
           {"run", "-p", "msgpack-rpc", "--method", "m", "-d", "[1,", "-D", "0.2", "-q"}}) {
    const capped_result r = run_capped(args);
    EXPECT_EQ(r.status, 2) << r.out;
    EXPECT_NE(r.out.find("not JSON: it goes wrong at byte"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("json.exception"), std::string::npos) << r.out;
  }
}

TEST(hostile_input, an_encrypted_key_is_refused_not_asked_for) {
  // OpenSSL would ask for its passphrase on the terminal and hold the run there.
  const std::string dir = ::testing::TempDir() + "/" + std::to_string(::getpid());
  const std::string made = "openssl req -x509 -newkey rsa:2048 -keyout " + dir + "-enc.key -out " + dir +
                           "-enc.crt -days 1 -subj /CN=localhost -passout pass:secret >/dev/null 2>&1";
  ASSERT_EQ(std::system(made.c_str()), 0);
  const capped_result r = run_capped({"run", "-p", "http2", "--tls", "-E", dir + "-enc.crt", "--key", dir + "-enc.key",
                                      "-D", "0.2", "-q"});
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("private key " + dir + "-enc.key: it is encrypted, and no passphrase is asked for"),
            std::string::npos) << r.out;
}

TEST(hostile_input, flags_without_an_upper_bound_have_one) {
  expect_refused({"run", "-p", "http1", "--workers", "1e12", "-D", "0.2", "-q"}, "--workers");
  expect_refused({"run", "-p", "http1", "--load", "closed", "--stages", "1e12@1s", "-q"},
                 "--stages 1e12@1s: at most 100000 workers");
  expect_refused({"run", "-p", "http1", "--stages", "1e15@1s", "-q"}, "--stages 1e15@1s: at most 10000000 calls/s");
  expect_refused({"run", "-p", "http1", "--rate", "1e15", "-D", "0.2", "-q"}, "--rate");
  // An open loop's stages must hold a call; a closed loop's need only a worker: one, ramped up
  // over a second, runs.
  expect_refused({"run", "-p", "http1", "--stages", "1@1s", "-q"}, "--stages 1@1s: the stages hold no call");
  const capped_result r = run_capped({"run", "-p", "line", "--load", "closed", "--stages", "1@1s", "-q"});
  EXPECT_EQ(r.status, 0) << r.out;
}

}  // namespace
}  // namespace wirebench
