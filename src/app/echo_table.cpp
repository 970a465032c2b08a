// print_echo_table (echo_scenario.hpp): article 003's table from a run's echo cells, and the
// ratios the article drew, each from this run's medians beside the article's own.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <set>

#include "echo_article.hpp"
#include "echo_scenario.hpp"
#include "table_text.hpp"

namespace wirebench::app {
namespace {

// The address's kind, as the article's rows are told apart: "abstract", "tcp".
std::string kind_of(const std::string& address) {
  if (address.starts_with("unix:@") || address == "abstract") return "abstract";
  if (address.starts_with("unix:")) return "unix";
  return "tcp";
}

std::optional<double> median_of(const echo_cell& c) {
  if (c.mean_us.empty()) return std::nullopt;
  return median(c.mean_us);
}

class echo_figures {
 public:
  explicit echo_figures(const run_record& run) : run_(run) {}

  const echo_cell* find(const std::string& server, const std::string& client, const std::string& kind,
                        std::string_view method, std::size_t workers) const {
    for (const echo_cell& c : run_.echo)
      if (c.server == server && c.client == client && kind_of(c.address) == kind && c.method == method &&
          c.workers == workers)
        return &c;
    return nullptr;
  }
  std::optional<double> mean(const std::string& server, const std::string& client, const std::string& kind,
                             std::string_view method) const {
    const echo_cell* c = find(server, client, kind, method, 1);
    return c ? median_of(*c) : std::nullopt;
  }

 private:
  const run_record& run_;
};

std::optional<double> article_mean(std::string_view server, std::string_view client, std::string_view kind,
                                   std::size_t method) {
  for (const auto& row : echo_article_rows)
    if (row.server == server && row.client == client && row.kind == kind) return row.mean_us[method];
  return std::nullopt;
}

std::string ratio_text(std::optional<double> a, std::optional<double> b) {
  if (!a || !b || *b <= 0) return "-";
  char text[16];
  std::snprintf(text, sizeof text, "%.2f", *a / *b);
  return text;
}

// One table: a row per server x client x address among the cells under `workers`.
void print_cells(std::ostream& out, const run_record& run, std::size_t workers, bool with_rate) {
  std::vector<std::vector<std::string>> rows = {{"server", "client", "address"}};
  for (const auto m : echo_methods) rows.front().emplace_back(m);
  std::vector<std::tuple<std::string, std::string, std::string>> keys;
  for (const echo_cell& c : run.echo) {
    if (c.workers != workers) continue;
    const auto key = std::make_tuple(c.server, c.client, c.address);
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  }
  for (const auto& [server, client, address] : keys) {
    std::vector<std::string> row = {server, client, address};
    for (const auto m : echo_methods) {
      std::string text = "-";
      for (const echo_cell& c : run.echo)
        if (c.workers == workers && c.server == server && c.client == client && c.address == address &&
            c.method == m) {
          if (auto mean = median_of(c)) {
            text = microseconds(*mean);
            if (with_rate) text += " (" + count(median(c.calls_per_second)) + "/s)";
            if (c.failed > 0) text += " !" + std::to_string(c.failed);
          } else if (!c.skipped.empty()) {
            text = "n/a";
          }
        }
      row.push_back(text);
    }
    rows.push_back(std::move(row));
  }
  write_rows(out, rows);
}

// A ratio the article drew, for a server and client(s) of this run: a / b.
struct ratio_line {
  std::string what;  // "abstract / tcp", "connect / grpc", "grpc-web / grpc", "server / ours"
  std::string server_a, client_a, kind_a;
  std::string server_b, client_b, kind_b;
};

// The same ratio in the article's table: its clients were grpc-go's and connect-go's.
std::vector<std::optional<double>> article_ratios(const ratio_line& l) {
  std::string_view sa, ca, ka, sb, cb, kb;
  if (l.what == "abstract / tcp") {
    sa = sb = l.server_a == "connect-go" ? "connect-go" : "grpc-go";
    ca = cb = "grpc-go";
    ka = "abstract", kb = "tcp";
  } else if (l.what == "server / ours") {
    if (l.server_a != "connect-go") return {};
    sa = "connect-go", sb = "grpc-go", ca = cb = "grpc-go", ka = kb = "tcp";
  } else {
    sa = sb = "connect-go", ka = kb = "tcp", cb = "connect-go/grpc";
    ca = l.what == "connect / grpc" ? "connect-go/connect" : "connect-go/grpc-web";
  }
  std::vector<std::optional<double>> ratios;
  for (std::size_t i = 0; i < echo_methods.size(); ++i) {
    const auto a = article_mean(sa, ca, ka, i), b = article_mean(sb, cb, kb, i);
    ratios.push_back(a && b ? std::optional(*a / *b) : std::nullopt);
  }
  return ratios;
}

void print_ratios(std::ostream& out, const run_record& run) {
  const echo_figures figures(run);
  std::set<std::string> servers;
  for (const echo_cell& c : run.echo) servers.insert(c.server);
  std::vector<ratio_line> lines;
  for (const std::string& server : servers)
    for (const std::string client : {"grpc", "connect", "connect-go/grpc"})
      lines.push_back({"abstract / tcp", server, client, "abstract", server, client, "tcp"});
  for (const std::string& server : servers)
    for (const auto& [a, b] : {std::pair<std::string, std::string>{"connect", "grpc"}, {"grpc-web", "grpc"},
                               {"connect-go/connect", "connect-go/grpc"}, {"connect-go/grpc-web", "connect-go/grpc"}}) {
      const std::string what = a.ends_with("connect") ? "connect / grpc" : "grpc-web / grpc";
      lines.push_back({what, server, a, "tcp", server, b, "tcp"});
    }
  for (const std::string server : {"connect-go", "grpc-go"})
    lines.push_back({"server / ours", server, "grpc", "tcp", "ours", "grpc", "tcp"});

  std::vector<std::vector<std::string>> rows = {{"ratio", "server(s)", "client(s)"}};
  for (const auto m : echo_methods) rows.front().emplace_back(m);
  rows.front().emplace_back("article's");
  for (const ratio_line& l : lines) {
    std::vector<std::string> row = {l.what, l.server_a == l.server_b ? l.server_a : l.server_a + " / " + l.server_b,
                                    l.client_a == l.client_b ? l.client_a : l.client_a + " / " + l.client_b};
    bool any = false;
    for (const auto method : echo_methods) {
      const auto a = figures.mean(l.server_a, l.client_a, l.kind_a, method);
      const auto b = figures.mean(l.server_b, l.client_b, l.kind_b, method);
      any = any || (a && b);
      row.push_back(ratio_text(a, b));
    }
    if (!any) continue;
    std::string article;
    for (const auto& r : article_ratios(l)) article += (article.empty() ? "" : " ") + ratio_text(r, 1.0);
    row.push_back(article.empty() ? "-" : article);
    rows.push_back(std::move(row));
  }
  if (rows.size() == 1) return;
  out << "\nRatios of the one-caller means (a / b), this run's, and the article's for the same comparison "
         "(Get Expand Collect Update; its clients were grpc-go's and connect-go's: abstract / tcp with "
         "grpc-go's client against the same server; connect / grpc and grpc-web / grpc with connect-go's "
         "clients against its server; server / ours: connect-go's server against grpc-go's):\n";
  write_rows(out, rows);
}

}  // namespace

void print_echo_table(std::ostream& out, const run_record& run) {
  if (run.echo.empty()) {
    out << "no results" << (run.incomplete.empty() ? "" : " (" + run.incomplete + ")") << "\n";
    return;
  }
  std::size_t repeats = 0, closed = 0;
  for (const echo_cell& c : run.echo) {
    repeats = std::max(repeats, c.mean_us.size());
    if (c.workers > 1) closed = c.workers;
  }
  out << "Article 003's Echo table: one caller, one call after another, mean time per call "
         "(median of " << repeats << " repeat(s); n/a: the server does not speak the client's "
         "protocol; !N: N calls failed)\n";
  print_cells(out, run, 1, false);
  if (closed > 0) {
    out << "\nThe same under a closed loop of " << closed << " callers: mean time per call (calls/s)\n";
    print_cells(out, run, closed, true);
  }
  print_ratios(out, run);
  out << "\nThe article's own table (" << echo_article_machine << "):\n";
  std::vector<std::vector<std::string>> rows = {{"server", "client", "address"}};
  for (const auto m : echo_methods) rows.front().emplace_back(m);
  for (const auto& row : echo_article_rows) {
    std::vector<std::string> r = {std::string(row.server), std::string(row.client), std::string(row.address)};
    for (const double v : row.mean_us) r.push_back(microseconds(v));
    rows.push_back(std::move(r));
  }
  write_rows(out, rows);
  std::set<std::string> reasons;
  for (const echo_cell& c : run.echo)
    if (!c.skipped.empty() && c.mean_us.empty()) reasons.insert(c.server + " " + c.client + ": " + c.skipped);
  for (const auto& why : reasons) out << "n/a: " << why << "\n";
  if (!run.incomplete.empty()) out << "incomplete: " << run.incomplete << "\n";
}

}  // namespace wirebench::app
