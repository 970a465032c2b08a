// A main() for the fuzz targets when libFuzzer is not available (g++) or for a quick run in ctest:
// feeds LLVMFuzzerTestOneInput a fixed-seed series of pseudo-random inputs of 0..max_len bytes,
// then every file named on the command line (a directory means each regular file in it, so a
// libFuzzer corpus or crash file can be replayed).
//
//   driver [-runs=N] [-max_total_time=SECONDS] [-seed=S] [-max_len=L] [FILE_OR_DIR...]
//
// Half of the random inputs are uniform bytes; the others draw from a small palette of byte values
// (always including 0x00, 0x01, '\n', '\r' and 0xff) so that delimiters and small big-endian
// lengths turn up often enough to reach the interesting paths. When files are given (a seed
// corpus), half of the runs are instead a file with a few random edits (bytes changed, inserted,
// erased or repeated), which reaches far deeper into a parser than noise does. A target reports a
// bug by aborting (or a sanitizer by ending the process): the input is saved to
// ./crash-<program> for replay.
#include <algorithm>
#include <array>
#include <chrono>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
// Present in builds with a sanitizer (which then exit without SIGABRT), absent otherwise.
extern "C" void __sanitizer_set_death_callback(void (*callback)()) __attribute__((weak));

namespace {

bool flag(std::string_view arg, std::string_view name, unsigned long long& value) {
  if (arg.substr(0, name.size()) != name) return false;
  value = std::strtoull(std::string(arg.substr(name.size())).c_str(), nullptr, 10);
  return true;
}

// The input being run, for the abort handler.
const std::uint8_t* current_input = nullptr;  // null between runs
std::size_t current_size = 0;
char crash_path[512] = "crash-input";  // crash-<this program>, made in main() before any run

// Writes the input being run to crash_path, with open(2) and write(2) only: this runs from a
// SIGABRT handler (a target's own check) or from the sanitizers' death callback (ASan, UBSan).
void save_crash_input() {
  if (current_input == nullptr) return;
  const int fd = ::open(crash_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  for (std::size_t done = 0; done < current_size;) {
    const ssize_t n = ::write(fd, current_input + done, current_size - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  static const char note[] = "the input is saved in ./";
  (void)!::write(2, note, sizeof note - 1);
  (void)!::write(2, crash_path, std::strlen(crash_path));
  (void)!::write(2, "\n", 1);
  current_input = nullptr;  // once, even if both paths run
}

extern "C" void on_abort(int) {
  save_crash_input();
  std::signal(SIGABRT, SIG_DFL);
  std::raise(SIGABRT);
}

void run_one(const std::vector<std::uint8_t>& input) {
  // A copy of exactly the right size, so that ASan sees reads past the end.
  std::unique_ptr<std::uint8_t[]> copy(new std::uint8_t[input.size() ? input.size() : 1]);
  std::copy(input.begin(), input.end(), copy.get());
  current_input = copy.get();
  current_size = input.size();
  LLVMFuzzerTestOneInput(copy.get(), input.size());
  current_input = nullptr;
}

bool read_file(const std::filesystem::path& path, std::vector<std::uint8_t>& bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    return false;
  }
  bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

// A few random edits of `input`, within max_len bytes.
void mutate(std::vector<std::uint8_t>& input, std::mt19937_64& rng, std::size_t max_len) {
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    const std::size_t at = input.empty() ? 0 : rng() % input.size();
    const std::size_t span = 1 + rng() % 8;
    switch (rng() % 5) {
      case 0:  // one byte, any value
        if (!input.empty()) input[at] = static_cast<std::uint8_t>(rng());
        break;
      case 1:  // one byte, a delimiter or boundary value
        if (!input.empty()) input[at] = std::array<std::uint8_t, 6>{0, 1, '\n', '\r', 0x7f, 0xff}[rng() % 6];
        break;
      case 2:  // bytes inserted
        for (std::size_t i = 0; i < span && input.size() < max_len; ++i)
          input.insert(input.begin() + static_cast<std::ptrdiff_t>(at), static_cast<std::uint8_t>(rng()));
        break;
      case 3:  // bytes erased
        input.erase(input.begin() + static_cast<std::ptrdiff_t>(at),
                    input.begin() + static_cast<std::ptrdiff_t>(std::min(input.size(), at + span)));
        break;
      default: {  // a stretch repeated
        const std::size_t end = std::min(input.size(), at + span * 4);
        const std::vector<std::uint8_t> copy(input.begin() + static_cast<std::ptrdiff_t>(at),
                                             input.begin() + static_cast<std::ptrdiff_t>(end));
        if (input.size() + copy.size() <= max_len) input.insert(input.begin() + static_cast<std::ptrdiff_t>(end), copy.begin(), copy.end());
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  unsigned long long runs = 0, seed = 1, max_len = 4096, max_total_time = 0;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (flag(arg, "-runs=", runs) || flag(arg, "-seed=", seed) || flag(arg, "-max_len=", max_len) ||
        flag(arg, "-max_total_time=", max_total_time))
      continue;
    if (arg == "-h" || arg == "--help") {
      std::printf("usage: %s [-runs=N] [-max_total_time=SECONDS] [-seed=S] [-max_len=L] "
                  "[FILE_OR_DIR...]\n", argv[0]);
      return 0;
    }
    if (!arg.empty() && arg[0] == '-') {
      std::fprintf(stderr, "unknown option %s\n", argv[i]);
      return 2;
    }
    paths.emplace_back(arg);
  }

  // Each program saves to its own file: ctest runs the targets side by side in one directory.
  const std::string program = std::filesystem::path(argv[0]).filename().string();
  std::snprintf(crash_path, sizeof crash_path, "crash-%s", program.c_str());
  std::signal(SIGABRT, on_abort);
  if (__sanitizer_set_death_callback != nullptr) __sanitizer_set_death_callback(save_crash_input);
  std::vector<std::filesystem::path> files;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec)) {
      for (const auto& entry : std::filesystem::directory_iterator(p))
        if (entry.is_regular_file()) files.push_back(entry.path());
    } else {
      files.emplace_back(p);
    }
  }
  std::vector<std::vector<std::uint8_t>> seeds(files.size());
  for (std::size_t i = 0; i < files.size(); ++i)
    if (!read_file(files[i], seeds[i])) return 2;

  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> input;
  unsigned long long mutated = 0;
  // -max_total_time, as libFuzzer's: a campaign of so many seconds (then -runs is only a cap).
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(max_total_time);
  if (runs == 0) runs = max_total_time != 0 ? ~0ull : 20000;  // unset: 20000, or the time's
  unsigned long long run = 0;
  for (; run < runs; ++run) {
    if (max_total_time != 0 && run % 1024 == 0 && std::chrono::steady_clock::now() >= until) break;
    if (!seeds.empty() && rng() % 2 == 0) {
      input = seeds[rng() % seeds.size()];
      mutate(input, rng, max_len);
      ++mutated;
      run_one(input);
      continue;
    }
    input.resize(std::uniform_int_distribution<std::size_t>(0, max_len)(rng));
    if (rng() % 2 == 0) {
      for (auto& b : input) b = static_cast<std::uint8_t>(rng());
    } else {
      std::vector<std::uint8_t> palette = {0x00, 0x01, '\n', '\r', 0xff};
      const int extra = static_cast<int>(rng() % 6);
      for (int i = 0; i < extra; ++i) palette.push_back(static_cast<std::uint8_t>(rng()));
      for (auto& b : input) b = palette[rng() % palette.size()];
      // The configuration bytes at the front stay uniform.
      for (std::size_t i = 0; i < std::min<std::size_t>(4, input.size()); ++i)
        input[i] = static_cast<std::uint8_t>(rng());
    }
    run_one(input);
  }
  std::fprintf(stderr, "%llu inputs, %llu of them edited seeds (seed %llu, up to %llu bytes): ok\n",
               run, mutated, seed, max_len);

  for (std::size_t i = 0; i < files.size(); ++i) {
    std::fprintf(stderr, "running %s (%zu bytes)\n", files[i].c_str(), seeds[i].size());
    run_one(seeds[i]);
  }
  if (!files.empty()) std::fprintf(stderr, "%zu files: ok\n", files.size());
  return 0;
}
