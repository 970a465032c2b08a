#include "typo_hint.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

namespace wirebench::app {
namespace {

// Edits between two words, a swap of neighbours counting one (optimal string alignment).
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// The known word nearest to `word`, when near enough to be a typo of it (at most 2 edits, and
// fewer than a third of the word).
std::string nearest(std::string_view word, const std::vector<std::string>& known) {
  std::string best;
  std::size_t best_distance = 3;
  for (const std::string& k : known) {
    const std::size_t d = edit_distance(word, k);
    if (d < best_distance && d * 3 <= std::max(word.size(), std::size_t{3})) {
      best = k;
      best_distance = d;
    }
  }
  return best;
}

}  // namespace

std::string typo_hint(CLI::App& app, int argc, const char* const* argv) {
  if (argc < 2) return {};
  std::vector<std::string> commands;
  for (const CLI::App* sub : app.get_subcommands({})) commands.push_back(sub->get_name());
  const std::string_view first = argv[1];
  if (std::find(commands.begin(), commands.end(), first) == commands.end()) {
    if (first.starts_with('-')) return {};
    const std::string guess = nearest(first, commands);
    return guess.empty() ? "" : " (did you mean `wirebench " + guess + "`?)";
  }
  const CLI::App* command = app.get_subcommand(std::string(first));
  std::vector<std::string> flags;
  for (const CLI::Option* option : command->get_options())
    for (const std::string& name : option->get_lnames()) flags.push_back(name);
  for (int i = 2; i < argc; ++i) {
    std::string_view word = argv[i];
    if (!word.starts_with("--") || word.size() == 2) continue;
    word.remove_prefix(2);
    word = word.substr(0, word.find('='));
    if (std::find(flags.begin(), flags.end(), word) != flags.end()) continue;
    const std::string guess = nearest(word, flags);
    return guess.empty() ? "" : " (did you mean --" + guess + "?)";
  }
  return {};
}

}  // namespace wirebench::app
